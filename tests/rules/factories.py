"""Small builders and hypothesis strategies shared by the engine tests (no database, no Django)."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import count

from hypothesis import strategies as st

from rules.facts import Entrant, Game, Opening, Tournament
from rules.rulesets import SPARE_ID as SPARE

_ids = count(10_000)
# Game ID -> (A, B) of every game built here: an event names its player and opponent, not their sides.
SIDES: dict[int, tuple[int, int]] = {}


def tournament(
    tid: int,
    games: list[tuple],
    *,
    end: date = date(2020, 6, 1),
    days: int = 1,
    official: bool = True,
    players: tuple[int, ...] = (),
) -> Tournament:
    """`games`: (round, a, b, result) or (round, a, b, result, free); tables follow the list order."""
    built = []
    tables: dict[int, int] = {}
    for spec in games:
        rnd, a, b, result, *rest = spec
        tables[rnd] = tables.get(rnd, 0) + 1
        built.append(Game(next(_ids), rnd, tables[rnd], a, b, result, free=bool(rest and rest[0])))
        SIDES[built[-1].id] = (a, b)
    return Tournament(tid, end - timedelta(days=days), end, official, tuple(built), tuple(map(Entrant, players)))


PLAYERS = st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, SPARE])
ADLG_RESULTS = st.sampled_from(["A", "A", "B", "B", "D", "DD", "FA", "FB"])


@st.composite
def games_of(draw, tid: int, results=ADLG_RESULTS) -> list[Game]:
    games = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        for table in range(1, draw(st.integers(1, 4)) + 1):
            a = draw(PLAYERS)
            b = draw(PLAYERS.filter(lambda p, a=a: p != a))
            free = draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans())
            games.append(Game(tid * 100 + rnd * 10 + table, rnd, table, a, b, draw(results), free=free))
            SIDES[games[-1].id] = (a, b)
    return games


@st.composite
def histories(draw, results=ADLG_RESULTS, max_tournaments: int = 8) -> dict:
    """Keyword arguments for `replay`: tournaments over 2018-2022, openings, closed years, exclusions."""
    tournaments = []
    for tid in range(1, draw(st.integers(1, max_tournaments)) + 1):
        end = date(2018, 1, 1) + timedelta(days=draw(st.integers(0, 5 * 365)))
        start = end - timedelta(days=draw(st.integers(0, 2)))
        registered = tuple(draw(st.lists(st.integers(1, 10), max_size=3)))
        official = draw(st.integers(0, 9)) > 0
        tournaments.append(Tournament(tid, start, end, official, draw(games_of(tid, results)),
                                      tuple(map(Entrant, registered))))
    openings = [
        Opening(p, rating=draw(st.integers(700, 1700)), games=draw(st.integers(0, 40)),
                as_of=draw(st.none() | st.dates(date(2017, 1, 1), date(2022, 12, 31))))
        for p in draw(st.sets(st.integers(1, 10), max_size=4))
    ]  # fmt: skip
    return {
        "tournaments": tournaments,
        "openings": openings,
        "closed_years": draw(st.lists(st.integers(2017, 2023), max_size=6)),
        "excluded": frozenset(draw(st.sets(st.integers(1, 10), max_size=2))),
    }
