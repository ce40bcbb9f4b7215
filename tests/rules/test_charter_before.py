"""The charter's rules before a tournament, pure: the duration of the games (App. 1 §6), the identical lists'
limit (§8)."""

from __future__ import annotations

import pytest

from rules.charter import (
    LATE_LIST_PENALTY,
    army_number_key,
    duration_words,
    game_minutes,
    identical_list_limit,
    identical_lists,
)

NBSP = "\u00a0"


@pytest.mark.parametrize(("points", "minutes"), [(100, 75), (200, 150), (300, 210)])
def test_the_charters_durations_are_1h15_2h30_3h30_for_100_200_300_points(points, minutes):
    assert game_minutes(points) == minutes


@pytest.mark.parametrize(("points", "minutes"), [(150, 115), (120, 90), (250, 180), (275, 195)])
def test_between_the_charters_sizes_the_duration_is_interpolated_and_rounded_up_to_five_minutes(points, minutes):
    assert game_minutes(points) == minutes


@pytest.mark.parametrize("points", [None, 0, 50, 99, 301, 400])
def test_outside_100_to_300_points_the_charter_gives_no_duration(points):
    assert game_minutes(points) is None


def test_a_duration_is_written_as_the_charter_writes_it():
    assert [duration_words(m) for m in (75, 150, 210, 120, 45)] == [
        f"1{NBSP}h{NBSP}15", f"2{NBSP}h{NBSP}30", f"3{NBSP}h{NBSP}30", f"2{NBSP}h", f"45{NBSP}min"]


def test_two_identical_lists_are_allowed_under_20_players_three_from_20():
    assert [identical_list_limit(n) for n in (8, 19, 20, 64)] == [2, 2, 3, 3]


def test_three_identical_lists_are_flagged_at_19_players_not_at_20():
    lists = [("p1", "A", "45"), ("p2", "A", "045"), ("p3", "A", " 45"), ("p4", "A", "12")]
    (flag,) = identical_lists(lists, players=19)
    assert (flag.pool, flag.army_number, flag.entries, flag.limit) == ("A", "45", ("p1", "p2", "p3"), 2)
    assert identical_lists(lists, players=20) == []


def test_four_identical_lists_are_flagged_from_20_players():
    lists = [(f"p{n}", "A", "IV/12") for n in range(4)]
    (flag,) = identical_lists(lists, players=20)
    assert flag.limit == 3 and len(flag.entries) == 4


def test_identical_lists_are_counted_per_pool():
    lists = [("p1", "A", "45"), ("p2", "A", "45"), ("p3", "B", "45"), ("p4", "B", "45")]
    assert identical_lists(lists, players=10) == []


def test_an_army_number_is_compared_without_case_spaces_or_leading_zeros():
    assert army_number_key(" iv / 12 ") == army_number_key("IV/12")
    assert army_number_key("045") == army_number_key("45")
    assert army_number_key("0") == "0"


def test_a_late_list_costs_20_points():
    assert LATE_LIST_PENALTY == 20
