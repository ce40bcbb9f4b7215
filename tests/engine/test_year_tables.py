"""The championship's yearly tables on columns (championship.year_tables) agree with the rules stated one player
at a time (championship.points): the best four, the totals, the ranks and the international ranking."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.points import Result, international_ranking, year_totals
from championship.year_tables import Results, year_tables

COUNTRIES = ["FR", "GB", "IT"]

# A tournament: (end date, country, worlds). Few players, few point values: ties are the rule, not the exception.
tournaments = st.lists(
    st.tuples(st.dates(date(2023, 1, 1), date(2024, 12, 31)), st.sampled_from(COUNTRIES), st.booleans()),
    min_size=0, max_size=12)


@st.composite
def seasons(draw):
    played = draw(tournaments)
    rows = []
    for tid, (end, country, worlds) in enumerate(played, start=1):
        for player in draw(st.sets(st.integers(1, 7), max_size=7)):
            rows.append((tid, player, draw(st.sampled_from([0, 125, 850, 850, 1000, 2437, 6000])), end, country,
                         worlds and draw(st.booleans())))
    return rows


def _columns(rows) -> Results:
    return Results(
        tournament=np.array([r[0] for r in rows], dtype=np.int64),
        player=np.array([r[1] for r in rows], dtype=np.int64),
        cents=np.array([r[2] for r in rows], dtype=np.int64),
        end=np.array([r[3].toordinal() for r in rows], dtype=np.int64),
        year=np.array([r[3].year for r in rows], dtype=np.int64),
        country=np.array([COUNTRIES.index(r[4]) for r in rows], dtype=np.int64),
        worlds=np.array([r[5] for r in rows], dtype=bool),
    )


def _reference(rows):
    """counted {(tournament, player)}, totals {(year, player): (total, results, rank, international rank)}."""
    results = [Result(player, tid, cents / 100, end, country, worlds) for tid, player, cents, end, country, worlds
               in rows]
    counted, totals = set(), {}
    for year in sorted({r.end.year for r in results}):
        of_year = [r for r in results if r.end.year == year]
        year_list = year_totals(of_year, year=year)
        counted |= {(r.tournament, r.player) for t in year_list for r in t.counted}
        international = {row.player: row.rank for row in international_ranking(year_list, of_year)}
        ordered = sorted(year_list, key=lambda t: (t.display, -t.player), reverse=True)
        for rank, t in enumerate(ordered, start=1):
            totals[year, t.player] = (t.display, len(t.counted), rank, international.get(t.player, 0))
    return counted, totals


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_year_tables_agree_with_the_rules_one_player_at_a_time(rows):
    counted, totals = _reference(rows)
    tables = year_tables(_columns(rows))
    assert {(r[0], r[1]) for r, c in zip(rows, tables.counted.tolist(), strict=True) if c} == counted
    got = {
        (year, player): (Decimal(cents).scaleb(-2), results, rank, international)
        for year, player, cents, results, rank, international in zip(
            tables.year.tolist(), tables.player.tolist(), tables.cents.tolist(), tables.results.tolist(),
            tables.rank.tolist(), tables.international_rank.tolist(), strict=True)
    }
    assert got == totals
    assert list(got) == sorted(got)  # totals come in (year, player) order


def test_the_fifth_result_is_dropped_and_ties_keep_the_earlier_then_the_lower_tournament():
    spring, summer = date(2024, 4, 1), date(2024, 7, 1)
    rows = [(9, 1, 1000, summer, "FR", False), (8, 1, 1000, summer, "FR", False), (7, 1, 1000, spring, "FR", False),
            (6, 1, 5000, summer, "FR", False), (5, 1, 1000, summer, "GB", False)]
    tables = year_tables(_columns(rows))
    assert dict(zip([r[0] for r in rows], tables.counted.tolist(), strict=True)) == {
        9: False, 8: True, 7: True, 6: True, 5: True}
    assert tables.cents.tolist() == [8000] and tables.results.tolist() == [4]
    assert tables.international_rank.tolist() == [1]  # two countries


def test_no_result_gives_empty_tables():
    tables = year_tables(_columns([]))
    assert len(tables.year) == 0 and len(tables.counted) == 0
