"""The completion that decides whether the rest of a pool can still be paired (rules/pairing/matching.py)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pairing.matching import Completion
from tests.rules.pairing_reference import all_pairings


def best_cost(players, allowed, soft):
    costs = [sum(soft(a, b) for a, b in pairing) for pairing in all_pairings(players, allowed)]
    return min(costs) if costs else None


def test_an_odd_number_of_players_has_no_completion():
    assert not Completion([1, 2, 3], lambda a, b: True).feasible


def test_a_player_who_may_meet_no_one_leaves_no_completion():
    assert not Completion([1, 2, 3, 4], lambda a, b: 1 not in (a, b)).feasible


def test_a_refused_pair_changes_nothing():
    completion = Completion([1, 2, 3, 4], lambda a, b: {a, b} != {1, 2})
    assert not completion.try_pair(1, 2)  # not allowed
    assert not completion.try_pair(3, 4)  # would leave 1 and 2, who may not meet
    assert completion.unpaired == {1, 2, 3, 4}
    assert completion.try_pair(1, 3) and completion.unpaired == {2, 4}


def test_the_first_pairable_candidate_is_taken_after_every_one_ruled_out():
    # 5 and 6 may only meet 1 and 2: 1 must take one of them, whatever comes first in its list.
    limited = {5: {1, 2}, 6: {1, 2}}

    def allowed(a, b):
        return all(y in limited.get(x, {y}) for x, y in ((a, b), (b, a)))

    completion = Completion(range(1, 7), allowed)
    assert completion.pair_first(1, [2, 3, 4, 6, 5]) == 6
    assert completion.pair_first(2, [3, 4, 5]) == 5
    assert completion.unpaired == {3, 4}


def test_soft_games_are_kept_as_few_as_any_completion_allows():
    club = {1: "X", 2: "X", 3: "X", 4: "Y"}
    completion = Completion([1, 2, 3, 4], lambda a, b: True, soft=lambda a, b: club[a] == club[b])
    assert completion.cost == 1
    assert completion.pair_first(1, [2, 3, 4]) == 2  # 1-2 leaves 3-4: one X pair, as few as possible
    assert not completion.try_pair(3, 3)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1), density=st.floats(0.3, 1.0),
       weighted=st.booleans())
def test_pair_first_takes_the_first_candidate_that_keeps_the_best_cost(players, seed, density, weighted):
    rng = random.Random(seed)
    nodes = list(range(1, players + 1))
    edges = {frozenset((a, b)) for a in nodes for b in nodes if a < b and rng.random() < density}
    club = {n: rng.randrange(3) for n in nodes}

    def allowed(a, b):
        return frozenset((a, b)) in edges

    def soft(a, b):
        return weighted and club[a] == club[b]

    completion = Completion(nodes, allowed, soft=soft if weighted else None)
    best = best_cost(nodes, allowed, soft)
    assert completion.feasible == (best is not None)
    unpaired = list(nodes)
    while completion.feasible and unpaired:
        assert completion.cost == best_cost(unpaired, allowed, soft)
        p = unpaired[0]
        candidates = rng.sample(unpaired[1:], len(unpaired) - 1)
        expected = next(c for c in candidates if allowed(p, c) and (
            rest := best_cost([q for q in unpaired if q not in (p, c)], allowed, soft)) is not None
            and rest + soft(p, c) == completion.cost)
        assert completion.pair_first(p, candidates) == expected
        unpaired = [q for q in unpaired if q not in (p, expected)]
        assert completion.unpaired == set(unpaired)
