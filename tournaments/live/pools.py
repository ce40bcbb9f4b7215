"""A live pool as the pure rules read it: its entrants by key, its published rounds and tables, its standings;
and the small helpers every service of the day shares (locking the tournament, the version the live page polls,
table numbers across pools).

Terms
-----
key
    The integer that stands for an entrant in the pure rules: their federation ID, or, for a player new to the
    federation, NEW_KEY + the entrant's row ID (so that the lower-ID tie-break puts them after the federation's
    players, as the IDs they will receive would). The spare is rules.rulesets.SPARE_ID; a table's `b` None.
complete rounds
    The published rounds whose every table has a result: the standings and the pairing of the next round read
    these only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Max

from rules import facts
from rules.charter import club_key
from rules.pairing import Entrant, Pool, initial_standing
from rules.rulesets import SPARE_ID
from rules.sheet.values import new_player_tag
from rules.standings import StandingRow, standings
from tournaments.live.hall_row import row_changed
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveDiscardedDraw, LiveEntrant, LiveRound, LiveTable, LiveTournament

NEW_KEY = 1_000_000_000


def key_of(entrant: LiveEntrant) -> int:
    return entrant.player_id if entrant.player_id is not None else NEW_KEY + entrant.pk


def sheet_id(entrant: LiveEntrant) -> int | str:
    """How the official workbook and the read API name an entrant: the federation ID, or the tag of a player new
    to the federation (N + the entrant's row), which the import's report maps to the ID it gives."""
    return entrant.player_id if entrant.player_id is not None else new_player_tag(entrant.pk)


def bump(live: LiveTournament) -> None:
    """A new version: the live page's polls (ETag) see that something changed, and the hall's cached row is read
    again (hall_row)."""
    LiveTournament.objects.filter(pk=live.pk).update(version=F("version") + 1)
    row_changed(live.pk)


def locked(live: LiveTournament | int, *, handed_over: bool = False) -> LiveTournament:
    """The live tournament, its row locked until the transaction ends: one change of the day at a time. Refused
    once published, and once handed over to the spreadsheet unless `handed_over` (handing over, taking back)."""
    pk = live.pk if isinstance(live, LiveTournament) else live
    row = LiveTournament.objects.select_for_update().select_related("tournament__system").get(pk=pk)
    if row.published_at is not None:
        raise LiveRefused.one("published")
    if row.handed_over_at is not None and not handed_over:
        raise LiveRefused.one("handed_over")
    return row


def same_pool(names, text: str) -> str | None:
    """The pool of `names` that `text` names, capitals aside (`b` is pool B), or None."""
    folded = (text or "").strip().casefold()
    return next((name for name in names if name.casefold() == folded), None)


def pool_name(live: LiveTournament, text: str) -> str:
    """The pool a typed name means (a command's --pool, a form's field): the day's pool of that name, capitals
    aside, else the text itself (trimmed): pools are never told apart by case alone."""
    text = (text or "").strip()
    return same_pool(live.entrants.values_list("pool", flat=True).distinct(), text) or text


def published_round_count(live: LiveTournament) -> int:
    """The rounds published, counted as the hall plays them: round 2 of pools A and B is one round, not two
    (a pool's round is a LiveRound; round numbers are shared by the pools, PAIRING.md §2.5)."""
    return live.rounds.filter(published_at__isnull=False).order_by().values("number").distinct().count()


def published_numbers(live: LiveTournament, pool: str) -> list[int]:
    return list(live.rounds.filter(pool=pool, published_at__isnull=False).order_by("number")
                .values_list("number", flat=True))


def drop_proposal(live: LiveTournament, pool: str, number: int, *, user=None) -> None:
    """A proposal made before the players changed no longer pairs them all: it is dropped, to pair again, and
    kept among the discarded draws (PAIRING.md §3: no draw disappears unseen)."""
    for round_ in live.rounds.filter(pool=pool, number__gte=number, published_at__isnull=True):
        discard_round(round_, kind=LiveDiscardedDraw.PLAYERS_CHANGED, user=user)


def discard_round(round_: LiveRound, *, kind: str, reason: str = "", user=None) -> LiveDiscardedDraw:
    """Delete a round (its tables and any results with it), kept as a discarded draw: its seed, its pairs with
    the names they had, its results, its changes and the reason (PAIRING.md §3, §5)."""
    tables = list(round_.tables.select_related("a", "b").order_by("table"))
    kept = LiveDiscardedDraw.objects.create(
        live_id=round_.live_id, pool=round_.pool, number=round_.number, kind=kind, system=round_.system,
        seed=round_.seed, reason=reason.strip(), was_published=round_.published_at is not None,
        results_discarded=sum(1 for t in tables if t.result), changes=round_.changes, drawn=round_.drawn,
        warnings=round_.warnings,
        discarded_by=user if getattr(user, "is_authenticated", False) else None,
        pairs=[{"table": t.table, "a": key_of(t.a), "b": key_of(t.b) if t.b else SPARE_ID,
                "a_name": _name(t.a), "b_name": _name(t.b) if t.b else None, "result": t.result,
                "a_losses": t.a_losses, "b_losses": t.b_losses} for t in tables])
    round_.delete()
    return kept


def _name(entrant: LiveEntrant) -> str:
    return f"{entrant.first_name} {entrant.last_name}".strip()


def next_table(live: LiveTournament, number: int) -> int:
    """Tables are numbered within a round across every pool (PAIRING.md §2.5): a pool's pairing (its own proposal
    dropped first) and a late player's forfeit continue from the last table of the round."""
    used = LiveTable.objects.filter(round__live=live, round__number=number).aggregate(m=Max("table"))["m"]
    return (used or 0) + 1


@dataclass
class PoolState:
    """A pool as the rules see it: its entrants by key, its published rounds, their tables."""

    live: LiveTournament
    pool: str
    entrants: dict[int, LiveEntrant]
    rounds: list[LiveRound]  # published, by number
    tables: list[LiveTable]  # of the published rounds

    @property
    def played(self) -> int:
        return len(self.rounds)

    def complete(self) -> bool:
        return all(t.result for t in self.tables)

    def games(self, *, complete_only: bool = True) -> list[facts.Game]:
        number = {r.pk: r.number for r in self.rounds}
        last_complete = self.played if self.complete() else self.played - 1
        return [
            facts.Game(t.pk, number[t.round_id], t.table, key_of(t.a), key_of(t.b) if t.b else SPARE_ID,
                       t.result, t.a_losses, t.b_losses, t.free)
            for t in self.tables
            if t.result and (not complete_only or number[t.round_id] <= last_complete)
        ]

    def met(self) -> list[tuple[int, int]]:
        return [(key_of(t.a), key_of(t.b) if t.b else SPARE_ID) for t in self.tables]


def pool_state(live: LiveTournament, pool: str) -> PoolState:
    entrants = {key_of(e): e for e in live.entrants.filter(pool=pool)}
    rounds = list(live.rounds.filter(pool=pool, published_at__isnull=False).order_by("number"))
    tables = list(LiveTable.objects.filter(round__in=rounds).select_related("a", "b").order_by("table"))
    return PoolState(live, pool, entrants, rounds, tables)


def pool_names(live: LiveTournament) -> list[str]:
    """The pools that play: those with a player checked in (a pool of players who never came has no round)."""
    return sorted(set(live.entrants.filter(present=True).values_list("pool", flat=True))) or ["A"]


def pool_standings(state: PoolState, *, complete_only: bool = True) -> list[StandingRow]:
    """RULES.md §6 standings of the pool after its complete rounds (or every result in, for the live page)."""
    ruleset = state.live.tournament.system.get_ruleset()
    # Those never checked in have no game and no place (PAIRING.md §6: a removed entrant appears nowhere).
    ranked = {k: e for k, e in state.entrants.items() if e.present}
    entrants = [facts.Entrant(k, state.pool, 0, e.club or None) for k, e in ranked.items()]
    rows = standings(ruleset, entrants=entrants, games=state.games(complete_only=complete_only),
                     pre_ratings={k: e.rating for k, e in ranked.items()})
    return rows.get(state.pool, [])


def rules_entrants(state: PoolState, number: int) -> list[Entrant]:
    """The players round `number` pairs: present (checked in), joined by then, not withdrawn by then."""
    return [Entrant(k, e.rating, club_key(e.club), e.hat, e.group or None)
            for k, e in state.entrants.items()
            if e.present and e.joined_round <= number and (e.withdrawn_from is None or e.withdrawn_from > number)]


def pool_for_round(state: PoolState, number: int) -> tuple[Pool, list[Entrant]]:
    players = rules_entrants(state, number)
    if len(players) < 2:
        raise LiveRefused.one("too_few_players", pool=state.pool)
    if number == 1:
        order = initial_standing(players)
    else:
        order = [row.player for row in pool_standings(state)]
        order += [p.id for p in players if p.id not in set(order)]
    return Pool(players, order, state.met(), round=number, rounds=state.live.tournament.rounds), players
