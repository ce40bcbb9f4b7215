"""The charter's conditions for a tournament to count (App. 1), and their sentences in English and French."""

from __future__ import annotations

import pytest

from rules.charter import CharterEntrant, CharterFailure, charter_failure_message, charter_failures, minimum_rounds
from rules.rulesets import SPARE_ID as SPARE

CLUBS = ["Paris", "Lyon", "Nantes", None]


def field_of(count: int, clubs=CLUBS, pool: str = "") -> list[CharterEntrant]:
    return [CharterEntrant(i + 1, clubs[i % len(clubs)], pool) for i in range(count)]


def codes(failures) -> list[str]:
    return [f.code for f in failures]


def test_a_tournament_meeting_the_charter_has_no_failure():
    assert charter_failures(official=True, entrants=field_of(12), rounds_by_pool={"": 3}) == []


def test_charter_fails_when_not_official():
    assert codes(charter_failures(official=False, entrants=field_of(12), rounds_by_pool={"": 3})) == [
        "not_official"
    ]


def test_charter_fails_below_8_ranked_players_and_the_spare_does_not_count():
    players = field_of(7) + [CharterEntrant(SPARE, None)]
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"": 3})
    assert failures == [CharterFailure("too_few_players", {"players": 7, "minimum": 8})]


def test_charter_fails_with_fewer_than_3_clubs_where_each_independent_counts_as_one():
    two_clubs = field_of(8, clubs=["Paris", "Lyon"])
    assert "too_few_clubs" in codes(
        charter_failures(official=True, entrants=two_clubs, rounds_by_pool={"": 3})
    )
    with_independents = field_of(8, clubs=["Paris", "Lyon", None])
    assert charter_failures(official=True, entrants=with_independents, rounds_by_pool={"": 3}) == []


def test_charter_fails_when_one_club_has_more_than_two_thirds():
    players = field_of(9, clubs=["Paris"] * 7 + ["Lyon", None])
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"": 3})
    assert CharterFailure("club_over_two_thirds", {"club": "Paris", "players": 7, "total": 9}) in failures
    exactly = field_of(9, clubs=["Paris"] * 6 + ["Lyon", None, "Nantes"])
    assert charter_failures(official=True, entrants=exactly, rounds_by_pool={"": 3}) == []


@pytest.mark.parametrize(
    ("players", "minimum"), [(8, 3), (15, 3), (16, 4), (31, 4), (32, 5), (63, 5), (64, 6)]
)
def test_minimum_rounds_by_pool_size(players, minimum):
    assert minimum_rounds(players) == minimum


def test_charter_fails_per_pool_without_enough_rounds():
    players = field_of(16, pool="A") + field_of(8, pool="B")
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"A": 3, "B": 3})
    assert failures == [
        CharterFailure("too_few_rounds", {"pool": "A", "players": 16, "rounds": 3, "minimum": 4})
    ]


def test_every_failure_is_one_sentence_with_its_figures():
    failures = charter_failures(official=False, entrants=field_of(5, clubs=["Paris"]), rounds_by_pool={"": 2})
    assert codes(failures) == ["not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds",
                               "too_few_rounds"]  # fmt: skip
    assert [charter_failure_message(f) for f in failures] == [
        "The tournament is not official.",
        "The tournament ranks 5 players; at least 8 are needed.",
        "The players come from 1 club (an independent player counts as a club of one); "
        "at least 3 are needed.",
        "The club Paris has 5 of the 5 players: more than two thirds.",
        "2 rounds for 5 players; at least 3 are needed.",
    ]


def test_a_pool_is_named_in_its_rounds_failure():
    failure = CharterFailure("too_few_rounds", {"pool": "B", "players": 1, "rounds": 0, "minimum": 3})
    assert charter_failure_message(failure) == "Pool B: 0 rounds for 1 player; at least 3 are needed."
