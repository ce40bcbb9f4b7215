"""What the big screen of the hall shows (a projector, read from across the room): every player of the current
round by name, alphabetically, with their table and opponent, so that 60 players find their table at once; and
the latest standings of each pool. Read from selectors.live_view: no query of its own.

The screen never scrolls: static/js/screen.js cuts each panel into pages that fit the window (a projector's
1920x1080 or 1280x720 alike) and shows them in turn. The server only says how dense a panel is (`density`): its
columns and font size, in units of the window's height (static/css/clock.css), so that a small field is read in
big letters from the back of the hall and 128 players take two pages, not ten.
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
    def seats_density(self) -> int:
        return density(len(self.seats))

    @property
    def standings_density(self) -> int:
        headings = len(self.standings) if self.several_pools else 0  # each pool's title takes a line
        return density(sum(len(block.lines) for block in self.standings) + headings)


def density(lines: int) -> int:
    """The columns a panel of `lines` lines is laid out in (2, 3 or 4): the fewer the lines, the bigger the letters.
    Below the clock, a page of two columns in letters of 3.6 % of the window's height holds 28 lines; of three
    in 2.9 %, 51; of four in 2.4 %, 84 (static/css/clock.css): 23 players on one page, 128 on two."""
    return 2 if lines <= 28 else 3 if lines <= 51 else 4


def screen_of(view: LiveView) -> Screen:
    seats = []
    standings = []
    numbers = set()
    for pool in view.pools:
        current = pool.current
        if current is not None:
            numbers.add(current.number)
            for table in current.tables:
                sides = [(table.a, table.b_name)]
                if table.b is not None:
                    sides.append((table.b, table.a_name))
                seats += [ScreenSeat(e.last_name, e.first_name, table.table, opponent, pool.pool, bool(table.result))
                          for e, opponent in sides]
        if pool.last_standings:
            after, lines = pool.last_standings
            standings.append(ScreenStandings(pool.pool, after, lines))
    seats.sort(key=lambda s: (name_key(s.last_name), name_key(s.first_name), s.table))
    return Screen(sorted(numbers), seats, standings, len(view.pools) > 1)
