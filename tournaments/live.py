"""Running a tournament live on the site (PAIRING.md): players, rounds paired by rules.pairing, results table by
table, withdrawals and late arrivals, then publication through the same checks and import as an uploaded sheet.

Terms
-----
live tournament
    A calendar tournament the referee runs on the site (models.LiveTournament). Nothing of it is rated before
    publication: its rounds and results live in LiveRound and LiveTable until `live_publish` turns them into the
    official workbook and imports it (tournaments.services.sheet_import_bytes).
key
    The integer that stands for an entrant in the pure rules: their federation ID, or, for a player new to the
    federation, NEW_KEY + the entrant's row ID (so that the lower-ID tie-break puts them after the federation's
    players, as the IDs they will receive would). The spare is rules.rulesets.SPARE_ID; a table's `b` None.
proposed, published round
    `round_pair` proposes a round (the referee may re-draw or swap players); `round_publish` shows it to the
    players; results are entered in published rounds only; the next round is paired once every table of the
    last one has a result.
complete rounds
    The published rounds whose every table has a result: the standings of `live_standings` and the pairing of
    the next round read these only.

Every function raises LiveRefused (a code and its parameters, worded by rules.pairing.messages) for what the
referee can fix, and changes nothing then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import date

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from players.audit import audit_record
from players.models import Club, Country, Player
from ratings.models import RatingSystem
from ratings.selectors import current_ratings
from rules import facts
from rules.pairing import (
    GROUPS,
    MANUAL,
    Entrant,
    PairingRefused,
    Pool,
    choose_system,
    deal_groups,
    free_game_players,
    ideal_number,
    initial_standing,
    pair_manually,
    pair_round,
    round_one_methods,
)
from rules.pairing.messages import notice_text
from rules.rulesets import SPARE_ID
from rules.scoring import scores
from rules.sheet.checks import game_faults
from rules.sheet.messages import render as fault_text
from rules.standings import StandingRow, standings
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament, Registration, Tournament
from tournaments.services import SheetOutcome, sheet_import_bytes
from tournaments.template import result_workbook

NEW_KEY = 1_000_000_000


class LiveRefused(Exception):  # noqa: N818 - a refusal the referee reads, not a crash
    """What the referee can fix: one or more (code, params), worded by rules.pairing.messages."""

    def __init__(self, notices: Iterable[tuple[str, dict]]):
        self.notices = [(code, dict(params)) for code, params in notices]
        super().__init__("; ".join(code for code, _ in self.notices))

    @classmethod
    def one(cls, code: str, **params) -> LiveRefused:
        return cls([(code, params)])

    def messages(self, lang: str = "en", names=None) -> list[str]:
        return [notice_text(code, params, lang, names) for code, params in self.notices]


def key_of(entrant: LiveEntrant) -> int:
    return entrant.player_id if entrant.player_id is not None else NEW_KEY + entrant.pk


def _bump(live: LiveTournament) -> None:
    LiveTournament.objects.filter(pk=live.pk).update(version=F("version") + 1)


def _locked(live: LiveTournament | int) -> LiveTournament:
    pk = live.pk if isinstance(live, LiveTournament) else live
    locked = LiveTournament.objects.select_for_update().select_related("tournament__system").get(pk=pk)
    if locked.published_at is not None:
        raise LiveRefused.one("published")
    return locked


# --- starting, and the players


@dataclass(frozen=True)
class NewEntrant:
    """A player to add: `player` a federation ID, or None with the names of a player new to the federation."""

    player: int | None = None
    last_name: str = ""
    first_name: str = ""
    club: str = ""
    country: str = ""
    pool: str = "A"
    hat: int | None = None


def live_begin(tournament: Tournament, *, entrants: Sequence[NewEntrant] = (), swiss: str = "",
               players_enter_results: bool = False, user=None) -> LiveTournament:
    """Make a calendar tournament a live one, with its first players."""
    if swiss not in ("", LiveTournament.CLASSIC, LiveTournament.ADAPTED):
        raise LiveRefused.one("fault", message=f"swiss must be classic or adapted, not {swiss!r}")
    with transaction.atomic():
        live, created = LiveTournament.objects.get_or_create(
            tournament=tournament,
            defaults={"swiss": swiss, "players_enter_results": players_enter_results, "started_by": user})
        if not created:
            raise LiveRefused.one("fault", message=f"tournament {tournament.pk} is already run live")
        if user is not None and getattr(user, "is_authenticated", False):
            tournament.referees.add(user)
        for entrant in entrants:
            entrant_add(live, entrant, user=user, audit=False)
        audit_record(user=user, action="live_start", obj=tournament,
                     summary=f"run live with {len(entrants)} players")
    return live


def entrant_add(live: LiveTournament, new: NewEntrant, *, user=None, audit: bool = True) -> LiveEntrant:
    """Add a player; after round 1 a late arrival, with a forfeit defeat for each round already published."""
    with transaction.atomic():
        live = _locked(live)
        tournament = live.tournament
        if new.hat not in (None, 1, 2):
            raise LiveRefused.one("hat_invalid")
        pool = (new.pool or "A").strip()[:30] or "A"
        if new.player is not None:
            player = Player.objects.filter(pk=new.player).select_related("club", "country").first()
            if player is None or player.merged_into_id is not None or player.pk == SPARE_ID:
                raise LiveRefused.one("unknown_player", player=new.player)
            if player.excluded_at is not None:
                raise LiveRefused.one("excluded_player", player=player.full_name)
            if live.entrants.filter(player=player).exists():
                raise LiveRefused.one("already_playing", player=player.full_name)
            rating = current_ratings(tournament.system, players=[player.pk]).get(player.pk)
            entrant = LiveEntrant(
                live=live, player=player, last_name=player.last_name, first_name=player.first_name,
                club=player.club.name if player.club else "", country=player.country_id or "",
                rating=rating.rating if rating else tournament.system.get_ruleset().initial_rating)
        else:
            if not new.last_name.strip():
                raise LiveRefused.one("name_required")
            entrant = LiveEntrant(live=live, last_name=new.last_name.strip()[:80],
                                  first_name=new.first_name.strip()[:80], club=new.club.strip()[:100],
                                  country=new.country.strip().upper()[:2],
                                  rating=tournament.system.get_ruleset().initial_rating)
        entrant.pool, entrant.hat = pool, new.hat
        published = _published_numbers(live, pool)
        entrant.joined_round = len(published) + 1
        if entrant.joined_round > tournament.rounds:
            raise LiveRefused.one("all_rounds_paired", rounds=tournament.rounds, pool=pool)
        if live.systems.get(pool) == GROUPS:
            entrant.group = _smaller_group(live, pool)
        entrant.save()
        for number in published:  # PAIRING.md §6: a forfeit defeat for each round missed, against the spare
            LiveTable.objects.create(round=LiveRound.objects.get(live=live, pool=pool, number=number),
                                     table=_next_table(live, number), a=entrant, b=None, result="FB",
                                     missed=True, entered_by=user, entered_at=timezone.now())
        _drop_proposal(live, pool, entrant.joined_round)
        if entrant.player_id is not None:
            Registration.objects.get_or_create(tournament=tournament, player_id=entrant.player_id,
                                               defaults={"pool": pool})
        if audit:
            audit_record(user=user, action="live_add_player", obj=tournament,
                         summary=f"{entrant} joins pool {pool} in round {entrant.joined_round}")
        _bump(live)
    return entrant


def _smaller_group(live: LiveTournament, pool: str) -> str:
    """**Decision**: a late player of the two-groups system joins the group with fewer players still in (B on a
    tie, the group dealt second)."""
    counts = {"A": 0, "B": 0}
    for group in live.entrants.filter(pool=pool, withdrawn_from__isnull=True).values_list("group", flat=True):
        if group in counts:
            counts[group] += 1
    return "A" if counts["A"] < counts["B"] else "B"


def entrant_withdraw(live: LiveTournament, entrant: LiveEntrant, *, from_round: int, user=None) -> None:
    """Withdraw a player from `from_round` on: not paired from then (PAIRING.md §6)."""
    with transaction.atomic():
        live = _locked(live)
        rounds = live.tournament.rounds
        if not 1 <= from_round <= rounds:
            raise LiveRefused.one("round_out_of_range", round=from_round, rounds=rounds)
        published = _published_numbers(live, entrant.pool)
        if from_round <= len(published):
            raise LiveRefused.one("withdraw_round", round=from_round, next=len(published) + 1)
        LiveEntrant.objects.filter(pk=entrant.pk).update(withdrawn_from=from_round)
        _drop_proposal(live, entrant.pool, from_round)
        audit_record(user=user, action="live_withdraw", obj=live.tournament,
                     summary=f"{entrant} withdraws from round {from_round}")
        _bump(live)


def _published_numbers(live: LiveTournament, pool: str) -> list[int]:
    return list(live.rounds.filter(pool=pool, published_at__isnull=False).order_by("number")
                .values_list("number", flat=True))


def _drop_proposal(live: LiveTournament, pool: str, number: int) -> None:
    """A proposal made before the players changed no longer pairs them all: it is dropped, to pair again."""
    live.rounds.filter(pool=pool, number__gte=number, published_at__isnull=True).delete()


def _next_table(live: LiveTournament, number: int) -> int:
    """Tables are numbered within a round across every pool (PAIRING.md §2.5): a pool's pairing (its own proposal
    dropped first) and a late player's forfeit continue from the last table of the round."""
    used = LiveTable.objects.filter(round__live=live, round__number=number).aggregate(m=Max("table"))["m"]
    return (used or 0) + 1


# --- what the rules read


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
    return sorted(set(live.entrants.values_list("pool", flat=True))) or ["A"]


def pool_standings(state: PoolState, *, complete_only: bool = True) -> list[StandingRow]:
    """RULES.md §6 standings of the pool after its complete rounds (or every result in, for the live page)."""
    ruleset = state.live.tournament.system.get_ruleset()
    entrants = [facts.Entrant(k, state.pool, 0, e.club or None) for k, e in state.entrants.items()]
    rows = standings(ruleset, entrants=entrants, games=state.games(complete_only=complete_only),
                     pre_ratings={k: e.rating for k, e in state.entrants.items()})
    return rows.get(state.pool, [])


# --- pairing


def _rules_entrants(state: PoolState, number: int) -> list[Entrant]:
    return [Entrant(k, e.rating, e.club.casefold() or None, e.hat, e.group or None)
            for k, e in state.entrants.items()
            if e.joined_round <= number and (e.withdrawn_from is None or e.withdrawn_from > number)]


def _pool_for_round(state: PoolState, number: int) -> tuple[Pool, list[Entrant]]:
    players = _rules_entrants(state, number)
    if len(players) < 2:
        raise LiveRefused.one("too_few_players", pool=state.pool)
    if number == 1:
        order = initial_standing(players)
    else:
        order = [row.player for row in pool_standings(state)]
        order += [p.id for p in players if p.id not in set(order)]
    return Pool(players, order, state.met(), round=number, rounds=state.live.tournament.rounds), players


def _pool_to_pair(live: LiveTournament, pool: str) -> tuple[LiveTournament, PoolState, int]:
    """The live tournament locked, the pool's state and the number of its next round; refused for an unknown pool,
    a pool whose rounds are all paired or whose last round still lacks results."""
    live = _locked(live)
    state = pool_state(live, pool)
    if not state.entrants:
        raise LiveRefused.one("no_such_pool", pool=pool)
    return live, state, _next_number(state)


def _next_number(state: PoolState) -> int:
    rounds = state.live.tournament.rounds
    if state.played >= rounds:
        raise LiveRefused.one("all_rounds_paired", rounds=rounds, pool=state.pool)
    if state.rounds and not state.complete():
        raise LiveRefused.one("round_incomplete", round=state.played, pool=state.pool)
    return state.played + 1


def _refused(exc: PairingRefused) -> LiveRefused:
    return LiveRefused((n.code, n.params) for n in exc.notices)


def round_pair(live: LiveTournament, *, pool: str = "A", method: str | None = None, seed: int | None = None,
               user=None) -> LiveRound:
    """Propose the next round of a pool by the charter (any earlier proposal is replaced)."""
    with transaction.atomic():
        live, state, number = _pool_to_pair(live, pool)
        if method is not None and number != 1:
            raise LiveRefused.one("method_round_one_only")
        system = live.systems.get(pool)
        if number == 1:
            system = _system_from_round_one(live, state)
        _drop_proposal(live, pool, number)
        rules_pool, _ = _pool_for_round(state, number)
        try:
            pairing = pair_round(rules_pool, system=system, method=method, seed=seed,
                                 first_table=_next_table(live, number))
        except PairingRefused as exc:
            raise _refused(exc) from None
        round_ = LiveRound.objects.create(
            live=live, pool=pool, number=number, system=pairing.system, stage=pairing.stage or "",
            seed=pairing.seed, warnings=[asdict(w) for w in pairing.warnings])
        _save_tables(round_, state, [(p.table, p.a, p.b) for p in pairing.pairs])
        _bump(live)
    return round_


def _system_from_round_one(live: LiveTournament, state: PoolState) -> str:
    """The pool's system from round 2 on, fixed by P when round 1 is paired; the two groups dealt if it has them."""
    players = _rules_entrants(state, 1)
    try:
        system = choose_system(len(players), live.tournament.rounds, live.swiss or None)
    except PairingRefused as exc:
        raise _refused(exc) from None
    if system == GROUPS:
        for key, group in deal_groups(initial_standing(players)).items():
            state.entrants[key].group = group
        LiveEntrant.objects.bulk_update(state.entrants.values(), ["group"])
    live.systems = {**live.systems, state.pool: system}
    live.save(update_fields=["systems"])
    return system


def _save_tables(round_: LiveRound, state: PoolState, pairs: Iterable[tuple[int, int, int]]) -> None:
    LiveTable.objects.bulk_create([
        LiveTable(round=round_, table=table, a=state.entrants[a], b=None if b == SPARE_ID else state.entrants[b])
        for table, a, b in pairs
    ])


def round_pair_manually(live: LiveTournament, *, pool: str = "A", pairs: Sequence[tuple[int, int]],
                        reason: str = "", user=None) -> LiveRound:
    """The referee's own pairs for the next round (round 1 `manual`, or a round the rules cannot pair)."""
    with transaction.atomic():
        live, state, number = _pool_to_pair(live, pool)
        if number == 1:
            players = _rules_entrants(state, 1)
            if MANUAL not in round_one_methods(len(players), live.tournament.rounds):
                raise LiveRefused.one("elo_levels_required", players=len(players),
                                      ideal=ideal_number(live.tournament.rounds))
            _system_from_round_one(live, state)
        _drop_proposal(live, pool, number)
        round_ = _manual_round(live, state, number, pairs, reason=reason, warned_before=())
        audit_record(user=user, action="live_pair_manually", obj=live.tournament,
                     summary=f"pool {pool} round {number} paired by hand", changes={"reason": reason})
        _bump(live)
    return round_


def _manual_round(live: LiveTournament, state: PoolState, number: int, pairs: Sequence[tuple[int, int]], *,
                  reason: str, warned_before: Iterable[dict], system: str = MANUAL, seed: int | None = None,
                  stage: str = "") -> LiveRound:
    rules_pool, _ = _pool_for_round(state, number)
    withdrawn = [k for k, e in state.entrants.items() if k not in rules_pool.by_id]
    elsewhere = [key_of(e) for e in live.entrants.exclude(pool=state.pool)]
    try:
        pairing = pair_manually(rules_pool, pairs, withdrawn=withdrawn, elsewhere=elsewhere,
                                first_table=_next_table(live, number))
    except PairingRefused as exc:
        raise _refused(exc) from None
    warnings = [asdict(w) for w in pairing.warnings]
    new = [w for w in warnings if w not in list(warned_before)]
    if new and not reason.strip():
        raise LiveRefused.one("reason_required", warnings="; ".join(notice_text(w["code"], w["params"])
                                                                      for w in new))
    round_ = LiveRound.objects.create(live=live, pool=state.pool, number=number, system=system, stage=stage,
                                      seed=seed, warnings=warnings, reason=reason.strip())
    _save_tables(round_, state, [(p.table, p.a, p.b) for p in pairing.pairs])
    return round_


def round_swap(round_: LiveRound, first: int, second: int, *, reason: str = "", user=None) -> LiveRound:
    """Swap two players of a proposed round (keys); a rule bent by the swap needs a reason, kept and shown."""
    with transaction.atomic():
        live = _locked(round_.live_id)
        round_ = LiveRound.objects.select_for_update().get(pk=round_.pk)
        if round_.published_at is not None:
            raise LiveRefused.one("round_published", round=round_.number)
        state = pool_state(live, round_.pool)
        swap = {first: second, second: first}
        pairs = [(swap.get(a, a), swap.get(b, b)) for a, b in _pairs_of(round_)]
        number, system, seed, stage, before = (round_.number, round_.system, round_.seed, round_.stage,
                                               round_.warnings)
        round_.delete()
        new = _manual_round(live, state, number, pairs, reason=reason, warned_before=before, system=system,
                            seed=seed, stage=stage)
        audit_record(user=user, action="live_swap", obj=live.tournament,
                     summary=f"pool {new.pool} round {number}: {first} and {second} swapped",
                     changes={"reason": reason})
        _bump(live)
    return new


def _pairs_of(round_: LiveRound) -> list[tuple[int, int]]:
    return [(key_of(t.a), key_of(t.b) if t.b else SPARE_ID)
            for t in round_.tables.select_related("a", "b").order_by("table")]


def round_publish(round_: LiveRound, *, user=None) -> None:
    with transaction.atomic():
        live = _locked(round_.live_id)
        LiveRound.objects.filter(pk=round_.pk, published_at__isnull=True).update(published_at=timezone.now())
        audit_record(user=user, action="live_publish_round", obj=live.tournament,
                     summary=f"pool {round_.pool} round {round_.number} published"
                             + (f" (seed {round_.seed})" if round_.seed is not None else ""))
        _bump(live)


# --- results


@dataclass(frozen=True)
class Result:
    table: int
    result: str
    a_losses: int | None = None
    b_losses: int | None = None
    free: bool = False


def results_record(live: LiveTournament, number: int, results: Sequence[Result], *, user=None,
                   reason: str = "") -> list[LiveTable]:
    """Record tables' results of round `number`, all or nothing (the referee's word is final)."""
    with transaction.atomic():
        live = _locked(live)
        tables = {t.table: t for t in LiveTable.objects.select_for_update(of=("self",)).filter(
            round__live=live, round__number=number).select_related("round", "a", "b")}
        problems: list[tuple[str, dict]] = []
        changed: list[LiveTable] = []
        altered: set[tuple[str, int]] = set()  # (pool, round) of a result entered before that now changes
        for result in results:
            table = tables.get(result.table)
            if table is None:
                problems.append(("no_such_table", {"round": number, "table": result.table}))
                continue
            problems += _result_problems(live, table, result)
            if not problems:
                entered = (table.result, table.a_losses, table.b_losses, table.free)
                if table.result and entered != (result.result, result.a_losses, result.b_losses, result.free):
                    altered.add((table.round.pool, table.round.number))
                changed.append(_apply(table, result, user))
        if problems:
            raise LiveRefused(problems)
        later = _later_rounds(live, altered)
        if later and not reason.strip():
            raise LiveRefused.one("result_changed_reason", round=number)
        if later:
            LiveRound.objects.filter(pk__in=later).update(paired_from_other_results=True)
            for round_ in {t.round for t in changed}:
                round_.reason = "\n".join(filter(None, [round_.reason, reason.strip()]))
                round_.save(update_fields=["reason"])
        LiveTable.objects.bulk_update(changed, ["result", "a_losses", "b_losses", "free", "entered_by",
                                                "entered_at", "claim_a", "claim_b"])
        if changed:
            audit_record(user=user, action="live_results", obj=live.tournament,
                         summary=f"round {number}: {len(changed)} results", changes={"reason": reason} if later
                         else None)
        _bump(live)
    return changed


def _later_rounds(live: LiveTournament, altered: Iterable[tuple[str, int]]) -> list[int]:
    """The rounds paired after those whose results changed (a first entry changes nothing paired)."""
    rounds = set()
    for pool, number in altered:
        rounds |= set(live.rounds.filter(pool=pool, number__gt=number).values_list("pk", flat=True))
    return sorted(rounds)


def _apply(table: LiveTable, result: Result, user) -> LiveTable:
    table.result, table.a_losses, table.b_losses, table.free = (result.result, result.a_losses, result.b_losses,
                                                                result.free)
    table.entered_by = user if getattr(user, "is_authenticated", False) else None
    table.entered_at = timezone.now()
    table.claim_a = table.claim_b = None
    return table


def _result_problems(live: LiveTournament, table: LiveTable, result: Result) -> list[tuple[str, dict]]:
    round_ = table.round
    if round_.published_at is None:
        return [("round_not_published", {"round": round_.number, "pool": round_.pool})]
    tournament = live.tournament
    faults = game_faults(system=tournament.system_id, a=key_of(table.a), b=key_of(table.b) if table.b else SPARE_ID,
                         result=result.result, a_losses=result.a_losses, b_losses=result.b_losses,
                         round_number=round_.number, rounds=tournament.rounds, free=result.free)
    problems = [("fault", {"message": fault_text(code=f.code, params=f.params, lang="en"),
                           "message_fr": fault_text(code=f.code, params=f.params, lang="fr")}) for f in faults]
    if result.free and not faults:
        if table.b is None:
            return [("free_against_spare", {})]
        may = free_players(live, round_.pool, round_.number)
        problems += [("free_game_not_allowed", {"player": key})
                     for key in (key_of(table.a), key_of(table.b)) if key not in may]
    return problems


def free_players(live: LiveTournament, pool: str, number: int) -> frozenset[int]:
    """Who may play a free game in round `number` of the pool (PAIRING.md §6): none but in the last round."""
    if number != live.tournament.rounds:
        return frozenset()
    state = pool_state(live, pool)
    state.rounds = [r for r in state.rounds if r.number < number]
    state.tables = [t for t in state.tables if t.round_id in {r.pk for r in state.rounds}]
    rows = pool_standings(state)
    return free_game_players(standing=[r.player for r in rows], scores={r.player: r.score for r in rows},
                             round=number, rounds=live.tournament.rounds,
                             game_maximum=game_maximum(live.tournament.system.get_ruleset()))


def game_maximum(ruleset) -> float:
    """The most one game scores for a player in the ruleset (PAIRING.md §6's 100 in AdlG)."""
    return max(max(scores(ruleset, code, 0, 100)) for code in ruleset.result_codes)


def result_claim(live: LiveTournament, table: LiveTable, *, player: Player, result: Result) -> LiveTable:
    """A player's entry of their own table: it counts once both players have entered the same result."""
    with transaction.atomic():
        live = _locked(live)
        if not live.players_enter_results:
            raise LiveRefused.one("self_entry_closed")
        table = LiveTable.objects.select_for_update(of=("self",)).select_related("round", "a", "b").get(pk=table.pk)
        side = "a" if table.a.player_id == player.pk else "b" if table.b and table.b.player_id == player.pk else None
        if side is None:
            raise LiveRefused.one("not_your_table")
        if table.result:
            raise LiveRefused.one("result_already_in")
        problems = _result_problems(live, table, result)
        if problems:
            raise LiveRefused(problems)
        claim = {"result": result.result, "a_losses": result.a_losses, "b_losses": result.b_losses,
                 "free": result.free}
        setattr(table, f"claim_{side}", claim)
        if table.claim_a is not None and table.claim_a == table.claim_b:
            _apply(table, result, None)
        table.save(update_fields=["result", "a_losses", "b_losses", "free", "entered_by", "entered_at",
                                  "claim_a", "claim_b"])
        _bump(live)
    return table


# --- publication


def live_publish(live: LiveTournament, *, user=None) -> SheetOutcome:
    """Build the official workbook from the live data and import it as an upload (PAIRING.md §7)."""
    with transaction.atomic():
        live = _locked(live)
        data = live_workbook(live)
        tournament = live.tournament
        outcome = sheet_import_bytes(data=data, file_name=f"live-{tournament.pk}.xlsx", user=user)
        if outcome.ok:
            live.published_sheet = outcome.sheet
            live.published_at = timezone.now()
            live.version += 1
            live.save(update_fields=["published_sheet", "published_at", "version"])
            for tag, player in outcome.new_players.items():
                LiveEntrant.objects.filter(live=live, pk=int(tag[1:])).update(player_id=player)
    return outcome


def _tag(entrant: LiveEntrant) -> str:
    return f"N{entrant.pk}"


def live_workbook(live: LiveTournament) -> bytes:
    """The official result sheet of the live tournament (its Tournament ID, players and every game)."""
    tournament = live.tournament
    problems = []
    games = []
    pools = pool_names(live)
    for pool in pools:
        state = pool_state(live, pool)
        if state.played < tournament.rounds or not state.complete():
            problems.append(("not_complete", {"pool": pool, "played": state.played - (not state.complete()),
                                              "rounds": tournament.rounds}))
        number = {r.pk: r.number for r in state.rounds}
        for t in state.tables:
            games.append((number[t.round_id], t.table, _sheet_id(t.a), _sheet_id(t.b) if t.b else SPARE_ID,
                          t.result, t.a_losses, t.b_losses, "yes" if t.free else "no"))
    if problems:
        raise LiveRefused(problems)
    entrants = list(live.entrants.order_by("pool", "-rating", "pk"))
    players = [(_sheet_id(e), e.last_name, e.first_name, e.club or None, e.country or None, e.pool)
               for e in entrants]
    spares = sorted({pool for g in games if SPARE_ID in (g[2], g[3]) for pool in pools})
    players += [(SPARE_ID, "Spare", None, None, None, pool) for pool in spares[:1]]
    values = {
        "tournament_id": tournament.pk, "name": tournament.name, "rating_system": tournament.system_id,
        "start": tournament.start_date, "end": tournament.end_date, "city": tournament.city,
        "country": tournament.country_id,
        "organising_club": tournament.organising_club.name if tournament.organising_club else None,
        "referee": tournament.referee_name or "-", "army_points": tournament.army_points,
        "rounds": tournament.rounds, "worlds": tournament.worlds, "official": tournament.official,
    }
    return result_workbook(tournament=values, players=players, games=sorted(games))


def _sheet_id(entrant: LiveEntrant) -> object:
    return entrant.player_id if entrant.player_id is not None else _tag(entrant)


# --- starting from a JSON description (the live_start command)


def live_start_from_json(data: dict, *, user=None, today: date | None = None) -> LiveTournament:
    """Create a calendar tournament and run it live, as the technical board would (PAIRING.md §8 live_start)."""
    required = ("name", "system", "start_date", "end_date", "rounds", "city", "country", "referee", "players")
    missing = [k for k in required if data.get(k) in (None, "")]
    if missing:
        raise LiveRefused.one("fault", message=f"missing: {', '.join(missing)}")
    try:
        system = RatingSystem.objects.get(code=data["system"])
        start, end = date.fromisoformat(str(data["start_date"])), date.fromisoformat(str(data["end_date"]))
        rounds = int(data["rounds"])
        players = [NewEntrant(player=int(p["id"]), pool=str(p.get("pool") or "A"),
                              hat=int(p["hat"]) if p.get("hat") is not None else None) for p in data["players"]]
    except RatingSystem.DoesNotExist:
        raise LiveRefused.one("fault", message=f"unknown rating system {data['system']!r}") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise LiveRefused.one("fault", message=f"bad value: {exc}") from None
    if end < start or not 1 <= rounds <= 12:
        raise LiveRefused.one("fault", message="the end date is before the start, or rounds is not 1-12")
    if not Country.objects.filter(pk=str(data["country"]).upper()).exists():
        raise LiveRefused.one("fault", message=f"unknown country {data['country']!r}")
    club = None
    if data.get("organising_club"):
        club = Club.objects.filter(name__iexact=str(data["organising_club"])).first()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            system=system, name=str(data["name"])[:150], start_date=start, end_date=end, city=str(data["city"])[:100],
            country_id=str(data["country"]).upper(), organising_club=club, referee_name=str(data["referee"])[:150],
            army_points=data.get("army_points"), rounds=rounds, worlds=bool(data.get("worlds", False)),
            official=bool(data.get("official", True)), announced_on=today or timezone.localdate(),
            pools=len({p.pool for p in players}) or 1)
        live = live_begin(tournament, entrants=players, swiss=str(data.get("swiss") or ""), user=user)
    return live


# --- the referee's settings of the day (the tournament day's pages)


def live_allow_self_entry(live: LiveTournament, allowed: bool, *, user=None) -> None:
    """Let the players enter their own table's results (each confirming), or stop it: the referee's choice,
    changeable during the day; results already in stay."""
    with transaction.atomic():
        live = _locked(live)
        if live.players_enter_results == allowed:
            return
        LiveTournament.objects.filter(pk=live.pk).update(players_enter_results=allowed)
        audit_record(user=user, action="live_self_entry", obj=live.tournament,
                     summary="players enter their results" if allowed else "the referee enters the results")
        _bump(live)
