"""Checking a draw (PAIRING.md §3, 2026-11-26): anyone may re-run a published round's pairing from its seed and the
pool as it stood, and see that it gives the published pairs, or which pairs a change of §5 (a swap, a chosen
table) altered, with its reason. From round 2 nothing is drawn: the same results give the same pairing, and the
same check shows it. A discarded draw (drawn again, withdrawn) is checked the same way.

Terms
-----
as it stood
    The pool as the rules read it when the round was paired (LiveRound.drawn, written by tournaments.live.rounds):
    its players with their rating at the start, club, hat and group, its standing, the games already played, the
    system and method, the seed and the table numbers the pool took. The check shows these, so that anyone can
    compare them with what they know (a rating list, the earlier rounds' results).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.pairing import Entrant, Pool, pair_round
from rules.pairing import PairingRefused as RulesRefused
from rules.rulesets import SPARE_ID
from tournaments.live.pools import key_of, pool_standings, pool_state
from tournaments.models import LiveDiscardedDraw, LiveRound, LiveTournament


@dataclass
class CheckedPair:
    """One pair of the re-run draw and what became of it."""

    table: int  # the table the draw gave
    a: int
    b: int
    published_table: int | None  # where the pair plays (None: a change broke the pair)
    changes: list[dict] = field(default_factory=list)  # the changes that moved or broke it, with their reasons

    @property
    def kept(self) -> bool:
        return self.published_table == self.table


@dataclass
class DrawCheck:
    live: LiveTournament
    pool: str
    number: int
    system: str
    seed: int | None
    drawn: dict | None  # the pool as it stood; None for a round paired by hand
    pairs: list[CheckedPair] = field(default_factory=list)  # the re-run, in table order
    made_by_changes: list[tuple[int, int, int]] = field(default_factory=list)  # (table, a, b) no draw gave
    changes: list[dict] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # the rules' refusal codes, were the re-run to fail
    standing_now: list[int] | None = None  # from round 2: the standing from the results as they are now
    discarded: LiveDiscardedDraw | None = None
    round: LiveRound | None = None

    @property
    def by_hand(self) -> bool:
        return self.drawn is None

    @property
    def same(self) -> bool:
        """The re-run gives exactly the published pairs at their tables."""
        return not self.refused and all(p.kept for p in self.pairs) and not self.made_by_changes

    @property
    def same_standing(self) -> bool | None:
        """From round 2: whether the standing the round was paired from is the one the results give now."""
        if self.standing_now is None or self.drawn is None:
            return None
        return self.standing_now == self.drawn["standing"]


def draw_check(live: LiveTournament, pool: str, number: int) -> DrawCheck | None:
    """The check of the published round `number` of `pool`, or None when there is none."""
    round_ = live.rounds.filter(pool=pool, number=number, published_at__isnull=False).first()
    if round_ is None:
        return None
    tables = [(t.table, key_of(t.a), key_of(t.b) if t.b else SPARE_ID)
              for t in round_.tables.select_related("a", "b").order_by("table")]
    check = _check(live, pool, number, round_.system, round_.seed, round_.drawn, tables, round_.changes)
    check.round = round_
    if number > 1 and round_.drawn is not None:
        check.standing_now = _standing_now(live, pool, number, round_.drawn)
    return check


def discarded_check(live: LiveTournament, draw_id: int) -> DrawCheck | None:
    """The check of a discarded draw (kept with its seed and pairs), or None when there is none."""
    kept = LiveDiscardedDraw.objects.filter(live=live, pk=draw_id).first()
    if kept is None:
        return None
    tables = [(p["table"], p["a"], p["b"]) for p in kept.pairs]
    check = _check(live, kept.pool, kept.number, kept.system, kept.seed, kept.drawn, tables, kept.changes)
    check.discarded = kept
    return check


def _check(live, pool, number, system, seed, drawn, tables, changes) -> DrawCheck:
    check = DrawCheck(live, pool, number, system, seed, drawn, changes=list(changes))
    if drawn is None:
        return check
    try:
        rerun = _rerun(drawn)
    except (RulesRefused, ValueError, KeyError, TypeError) as exc:
        check.refused = list(getattr(exc, "codes", ())) or ["unreadable"]
        return check
    where = {frozenset((a, b)): table for table, a, b in tables}
    for table, a, b in rerun:
        placed = where.pop(frozenset((a, b)), None)
        pair = CheckedPair(table, a, b, placed)
        if not pair.kept:
            pair.changes = [c for c in changes if _touches(c, {a, b}, {table, placed})]
        check.pairs.append(pair)
    check.made_by_changes = sorted((table, *sorted(pair, key=lambda k: k == SPARE_ID))
                                   for pair, table in where.items())
    return check


def _rerun(drawn: dict) -> list[tuple[int, int, int]]:
    """The pairing the rules give from the pool as it stood, numbered with the tables the pool took."""
    players = [Entrant(p[0], p[1], p[2], p[3], p[4]) for p in drawn["players"]]
    pool = Pool(players, drawn["standing"], drawn["played"], round=drawn["round"], rounds=drawn["rounds"])
    pairing = pair_round(pool, system=drawn["system"], method=drawn["method"], seed=drawn["seed"])
    numbers = drawn["numbers"]
    return [(numbers[n], p.a, p.b) for n, p in enumerate(pairing.pairs)]


def _touches(change: dict, players: set[int], tables: set[int | None]) -> bool:
    """Whether a change explains what became of a pair: a swap of one of its players broke it (it plays nowhere
    as drawn); a chosen table moved it (it plays, at another table)."""
    if None in tables:
        return change.get("kind") == "swap" and bool({change.get("a"), change.get("b")} & players)
    return change.get("kind") == "table" and bool({change.get("table"), change.get("to")} & tables)


def _standing_now(live: LiveTournament, pool: str, number: int, drawn: dict) -> list[int]:
    """The standing before round `number` from the results as they are now, limited to the players paired."""
    state = pool_state(live, pool)
    state.rounds = [r for r in state.rounds if r.number < number]
    kept = {r.pk for r in state.rounds}
    state.tables = [t for t in state.tables if t.round_id in kept]
    paired = {p[0] for p in drawn["players"]}
    return [row.player for row in pool_standings(state) if row.player in paired]
