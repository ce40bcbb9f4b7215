"""The stored facts as plain values: what the rules read.

Terms
-----
game
    One game of a tournament: round, table, players A and B (federation IDs; the spare is `rulesets.SPARE_ID`),
    the result code of the sheet, the losses (whole percentages, None where the sheet has none: forfeits,
    Battle Empire) and whether it is a free game of the last round (rated, but not scored).
entrant
    A player registered in a tournament: pool, penalty points, club on the day (None: independent).
tournament
    Its dates, whether it is official, its games and entrants, its rounds, whether it is the Worlds, its
    country, and the technical board's decision on whether it counts for the championship (None: the charter's
    conditions decide).
opening balance
    A rating and rated-game count migrated from the old site, as of a date (None: before any history here).
player state
    A player's rating, rated games and the end date of the last tournament with a rated game of theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple


class Game(NamedTuple):
    id: int
    round: int
    table: int
    a: int
    b: int
    result: str
    a_losses: int | None = None
    b_losses: int | None = None
    free: bool = False


class Entrant(NamedTuple):
    player: int
    pool: str = "A"
    penalty: int = 0
    club: str | None = None


@dataclass(frozen=True)
class Tournament:
    id: int
    start: date
    end: date
    official: bool = True
    games: Sequence[Game] = ()
    entrants: Sequence[Entrant] = ()
    rounds: int = 0
    worlds: bool = False
    country: str = ""
    counts_override: bool | None = None

    @property
    def order(self) -> tuple[date, date, int]:
        """Where the tournament stands in history (RULES.md §3): by end date, then start date, then ID."""
        return (self.end, self.start, self.id)


class Opening(NamedTuple):
    player: int
    rating: int
    games: int
    as_of: date | None = None


class PlayerState(NamedTuple):
    rating: int
    games: int
    last_played: date | None = None
