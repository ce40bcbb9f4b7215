"""What the referee prints on the tournament day, read from the live view (tournaments.live.selectors,
a handful of queries whatever the size of the tournament): a published round's pairings by name and by table, its
result slips, the standings after a complete round, and the final standings with their cross-table.

Terms
-----
printed round
    A published round: the players see it on the live page, so it may go on the wall. A proposal is the referee's
    draft and is never printed (it may still be drawn again).
seat
    One player of a printed round as the wall list shows it: their table, their opponent and their pool. The spare
    (ID 99) sits at a table but is no entrant: it is named as an opponent, never listed.
cross cell
    One round of a player in the final cross-table: the result from the player's view (rules.scoring.letter: W, D,
    L, DD, FW, FL…), the opponent's place in the pool (or the spare), the game score; None where the player had no
    game that round (a late player, a withdrawn one).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules.names import name_key
from rules.rulesets import SPARE_ID
from tournaments.live.selectors import LiveView, RoundView, StandingLine, TableView, public_id
from tournaments.models import LiveEntrant


def printed_id(entrant: LiveEntrant | None) -> int | str:
    """What a printout gives beside a name: the federation ID (99 the spare), or "new" for a player new to the
    federation: the tag N38 of the workbook is no ID, and a player reading it as theirs would be misled."""
    if entrant is not None and entrant.player_id is None:
        return _("new")
    return public_id(entrant)


@dataclass
class Seat:
    entrant: LiveEntrant
    public_id: int | str
    table: int
    pool: str
    opponent: str
    opponent_id: int | str


@dataclass
class PrintedTable:
    pool: str
    table: TableView
    a_id: int | str
    b_id: int | str


@dataclass
class CrossCell:
    round: int
    letter: str
    opponent_rank: int | None
    spare: bool
    score: float
    free: bool


@dataclass
class PrintedLine:
    line: StandingLine
    public_id: int | str
    cells: list[CrossCell | None]


@dataclass
class PrintedPool:
    pool: str
    lines: list[PrintedLine]


def printed_rounds(view: LiveView, number: int) -> list[RoundView]:
    """Round `number` in every pool where it is published: what may be printed of it (none: nothing to print)."""
    return view.rounds(number)


def round_tables(rounds: list[RoundView]) -> list[PrintedTable]:
    """Every table of the round, all pools together in table order (tables are numbered across the pools,
    PAIRING.md §2.5): the list by table and the slips."""
    tables = [PrintedTable(r.pool, t, printed_id(t.a), printed_id(t.b)) for r in rounds for t in r.tables]
    return sorted(tables, key=lambda p: p.table.table)


def round_seats(rounds: list[RoundView]) -> list[Seat]:
    """Every player of the round, by last name then first name, accents and capitals aside ("Émile" among the
    E's): what a player looks for on the wall."""
    seats = []
    for round_ in rounds:
        for t in round_.tables:
            seats.append(Seat(t.a, printed_id(t.a), t.table, round_.pool, t.b_name, printed_id(t.b)))
            if t.b is not None:
                seats.append(Seat(t.b, printed_id(t.b), t.table, round_.pool, t.a_name, printed_id(t.a)))
    return sorted(seats, key=lambda s: (name_key(s.entrant.last_name), name_key(s.entrant.first_name), s.table))


def standings_after(view: LiveView, number: int) -> list[PrintedPool] | None:
    """Each pool's standings after round `number`, with the cross-table up to it; None while a pool that played
    the round has a result missing (or no pool played it)."""
    pools = []
    for pool in view.pools:
        if not any(r.number == number for r in pool.published_rounds):
            continue
        lines = pool.standings.get(number)
        if lines is None:
            return None
        rank_of = {line.key: line.rank for line in lines}
        pools.append(PrintedPool(pool.pool, [
            PrintedLine(line, printed_id(pool.by_key.get(line.key)), _cells(line, rank_of, number))
            for line in lines]))
    return pools or None


def _cells(line: StandingLine, rank_of: dict[int, int], rounds: int) -> list[CrossCell | None]:
    by_round = {
        game.round: CrossCell(game.round, game.result, rank_of.get(game.opponent), game.opponent == SPARE_ID,
                              game.score, game.free)
        for game in line.rounds}
    return [by_round.get(number) for number in range(1, rounds + 1)]
