"""Championship points, best-4 year totals, national and international rankings."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from championship.points import (
    Result,
    Total,
    international_ranking,
    national_ranking,
    round_points,
    tournament_points,
    year_totals,
)


def result(player: int, tournament: int, points: float, *, month: int = 1, country: str = "FR", worlds=False):
    return Result(player, tournament, points, date(2024, month, 1), country, worlds)


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
    assert tournament_points(players=8, rounds=3, rank=8, score=0, games=0) == pytest.approx(
        20 * 0.90309 / 8, 1e-4
    )


def test_points_are_shown_to_two_decimals_half_up():
    assert round_points(8.505) == Decimal("8.51")
    assert round_points(64.153) == Decimal("64.15")


def test_the_year_total_keeps_the_best_4_results():
    results = [result(1, t, p) for t, p in [(1, 10.0), (2, 50.0), (3, 30.0), (4, 40.0), (5, 20.0)]]
    (total,) = year_totals(results)
    assert total.total == 140.0
    assert [r.tournament for r in total.counted] == [2, 4, 3, 5]
    assert [r.tournament for r in total.dropped] == [1]


def test_equal_points_keep_the_earlier_tournament_then_the_lower_id():
    results = [result(1, 9, 10.0, month=3), result(1, 8, 10.0, month=3), result(1, 7, 10.0, month=5),
               result(1, 6, 10.0, month=4), result(1, 5, 10.0, month=2)]  # fmt: skip
    (total,) = year_totals(results)
    assert [r.tournament for r in total.counted] == [5, 8, 9, 6]


def test_year_totals_refuse_mixed_years_unless_one_is_chosen():
    results = [result(1, 1, 10.0), Result(1, 2, 5.0, date(2023, 5, 1), "FR")]
    with pytest.raises(ValueError, match="several years"):
        year_totals(results)
    assert [t.total for t in year_totals(results, year=2023)] == [5.0]


def totals(*pairs) -> list[Total]:
    return [Total(player, 2024, points, (), ()) for player, points in pairs]


def test_national_ranking_by_total_then_lower_id():
    ranking = national_ranking(
        totals((3, 100.0), (2, 150.0), (1, 100.001), (9, 400.0)),
        player_country={1: "FR", 2: "FR", 3: "FR", 9: "BE"}, country="FR", registered_counts={"FR": 5},
    )  # fmt: skip
    assert [(r.rank, r.player, r.display) for r in ranking] == [
        (1, 2, Decimal("150.00")), (2, 1, Decimal("100.00")), (3, 3, Decimal("100.00")),
    ]  # fmt: skip


def test_a_country_with_fewer_than_5_registered_players_has_no_national_ranking():
    ranking = national_ranking(
        totals((1, 10.0)), player_country={1: "BE"}, country="BE", registered_counts={"BE": 4}
    )
    assert ranking == []


def test_international_ranking_needs_the_worlds_or_two_countries():
    results = [result(1, 1, 10.0, country="FR"), result(1, 2, 10.0, country="FR"),
               result(2, 1, 10.0, country="FR"), result(2, 3, 10.0, country="IT"),
               result(3, 4, 10.0, country="ES", worlds=True)]  # fmt: skip
    ranking = international_ranking(totals((1, 20.0), (2, 20.0), (3, 10.0)), results)
    assert [r.player for r in ranking] == [2, 3]
