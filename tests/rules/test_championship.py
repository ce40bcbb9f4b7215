"""Championship points, best-4 year totals, the yearly ranks and the international ranking (RULES.md §7)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.championship import (
    Result,
    has_national_ranking,
    round_points,
    term_placing,
    term_score,
    tournament_points,
    year_tables,
)


def result(player: int, tournament: int, points: str, *, month: int = 1, year: int = 2024, country: str = "FR",
           worlds: bool = False) -> Result:
    return Result(tournament, player, Decimal(points), date(year, month, 1), country, worlds)


def test_n_is_capped_at_two_to_the_rounds_plus_one():
    capped = tournament_points(players=100, rounds=3, rank=1, score=300, games=3)
    assert capped == tournament_points(players=16, rounds=3, rank=1, score=300, games=3)


def test_a_rank_beyond_the_capped_n_gives_no_placing_points():
    assert tournament_points(players=40, rounds=4, rank=40, score=0, games=4) == 0


def test_the_worlds_multiply_the_score_by_1_2():
    plain = tournament_points(players=24, rounds=5, rank=24, score=300, games=5)
    worlds = tournament_points(players=24, rounds=5, rank=24, score=300, games=5, worlds=True)
    assert worlds - plain == pytest.approx(60 / 10 * 1.5)


def test_a_player_without_scored_rounds_gets_the_placing_points_only():
    assert tournament_points(players=8, rounds=3, rank=8, score=0, games=0) == pytest.approx(20 * 0.90309 / 8, 1e-4)


def test_the_points_are_the_sum_of_the_placing_and_the_score_terms():
    # Why 9th can earn more than 8th: the score term rewards a better score whatever the place.
    ninth = (term_placing(players=24, rounds=5, rank=9), term_score(score=420, games=5))
    eighth = (term_placing(players=24, rounds=5, rank=8), term_score(score=380, games=5))
    assert sum(ninth) == tournament_points(players=24, rounds=5, rank=9, score=420, games=5)
    assert ninth[0] < eighth[0] and sum(ninth) > sum(eighth)


def test_points_are_shown_to_two_decimals_half_up():
    assert round_points(8.505) == Decimal("8.51")
    assert round_points(64.153) == Decimal("64.15")


def test_the_year_total_keeps_the_best_4_results():
    results = [result(1, t, p) for t, p in [(1, "10"), (2, "50"), (3, "30"), (4, "40"), (5, "20")]]
    tables = year_tables(results)
    (total,) = tables.totals
    assert (total.total, total.results) == (Decimal("140"), 4)
    assert tables.counted == {(2, 1), (4, 1), (3, 1), (5, 1)}


def test_equal_points_keep_the_earlier_tournament_then_the_lower_id():
    results = [result(1, 9, "10", month=3), result(1, 8, "10", month=3), result(1, 7, "10", month=5),
               result(1, 6, "10", month=4), result(1, 5, "10", month=2)]
    assert year_tables(results).counted == {(5, 1), (8, 1), (9, 1), (6, 1)}


def test_each_year_has_its_own_totals_and_ranks():
    tables = year_tables([result(1, 1, "10", year=2023), result(1, 2, "5"), result(2, 3, "7")])
    assert [(t.year, t.player, t.total, t.rank) for t in tables.totals] == [
        (2023, 1, Decimal("10"), 1), (2024, 2, Decimal("7"), 1), (2024, 1, Decimal("5"), 2)]


def test_equal_totals_rank_the_lower_id_first():
    tables = year_tables([result(3, 1, "100.00"), result(2, 2, "150.00"), result(1, 3, "100.00")])
    assert [(t.rank, t.player) for t in tables.totals] == [(1, 2), (2, 1), (3, 3)]


def test_a_country_needs_5_registered_players_for_a_national_ranking():
    assert not has_national_ranking(4) and has_national_ranking(5)


def test_the_international_ranking_needs_the_worlds_or_two_countries():
    results = [result(1, 1, "10", country="FR"), result(1, 2, "10", country="FR"),
               result(2, 1, "10", country="FR"), result(2, 3, "10", country="IT"),
               result(3, 4, "10", country="ES", worlds=True)]
    ranked = {t.player: t.international_rank for t in year_tables(results).totals}
    assert ranked == {1: None, 2: 1, 3: 2}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 30), st.integers(0, 5000), st.integers(1, 12)),
                max_size=60, unique_by=lambda r: (r[0], r[1])))
def test_a_total_is_the_sum_of_the_players_four_best_results(rows):
    results = [Result(t, p, Decimal(cents).scaleb(-2), date(2024, month, 1), "FR") for p, t, cents, month in rows]
    tables = year_tables(results)
    for total in tables.totals:
        own = sorted((r.points for r in results if r.player == total.player), reverse=True)
        assert total.total == sum(own[:4]) and total.results == min(4, len(own))
        assert len([key for key in tables.counted if key[1] == total.player]) == total.results
    assert [t.rank for t in tables.totals] == list(range(1, len(tables.totals) + 1))
    totals = [(t.total, -t.player) for t in tables.totals]
    assert totals == sorted(totals, reverse=True)
