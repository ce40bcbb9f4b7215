"""What the big screen of the hall shows (a projector, read from across the room): every player of the current
round by name, alphabetically, with their table and opponent, so that 60 players find their table at once; and
the latest standings of each pool. Read from selectors.live_view: no query of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.names import name_key
from tournaments.live.selectors import LiveView, StandingLine


@dataclass(frozen=True)
class ScreenSeat:
    last_name: str
    first_name: str
    table: int
    opponent: str
    pool: str
    done: bool  # the table's result is in
    chances: int | None = None  # the player's chances in per cent, when the referee shows them


@dataclass(frozen=True)
class ScreenStandings:
    pool: str
    after: int  # the round the standings are after
    lines: list[StandingLine]


@dataclass(frozen=True)
class Screen:
    numbers: list[int]  # the current round of each pool (one number unless the pools are apart)
    seats: list[ScreenSeat]
    standings: list[ScreenStandings]
    several_pools: bool

    @property
    def columns(self) -> int:
        """Columns of names that fit a 1920x1080 screen at a size read from the back of the hall."""
        return 2 if len(self.seats) <= 24 else 3 if len(self.seats) <= 54 else 4


def screen_of(view: LiveView) -> Screen:
    shown = view.live.screen_chances
    seats = []
    standings = []
    numbers = set()
    for pool in view.pools:
        current = pool.current
        if current is not None:
            numbers.add(current.number)
            for table in current.tables:
                sides = [(table.a, table.b_name, table.a_percent)]
                if table.b is not None:
                    sides.append((table.b, table.a_name, table.b_percent))
                seats += [ScreenSeat(e.last_name, e.first_name, table.table, opponent, pool.pool, bool(table.result),
                                     chances if shown and not table.result else None)
                          for e, opponent, chances in sides]
        if pool.last_standings:
            after, lines = pool.last_standings
            standings.append(ScreenStandings(pool.pool, after, lines))
    seats.sort(key=lambda s: (name_key(s.last_name), name_key(s.first_name), s.table))
    return Screen(sorted(numbers), seats, standings, len(view.pools) > 1)
