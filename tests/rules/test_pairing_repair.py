"""PAIRING.md §4 "when the basic rules forbid the ideal pair", step by step, on pools worked out by hand.

Player k is k-th in the standing. In the adapted cases with 8 players, 4 rounds, round 2: R' = 3, so table
A is all 8 (a = 8), its first half 1-4 meeting its second half 5-8 (ideal: 1-5, 2-6, 3-7, 4-8).
Each comment follows the walk: p, its candidate list (step 3), what steps 4 and 5 keep, the pair made.
"""

from __future__ import annotations

import pytest

from rules.pairing import pair_round
from tests.rules.pairing_helpers import SPARE, make_pool, pairs_of


def adapted_8(met=(), **kw):
    return pairs_of(pair_round(make_pool(8, met=met, round=2, rounds=4, **kw), system="adapted"))


def test_step_1_the_spares_pair_is_made_first_and_places_are_counted_without_it():
    # 9 players: the spare meets 8 (9 met it). Left: 1-7 and 9, so 9 is 8th of table A and meets 4.
    pool = make_pool(9, met=[(9, SPARE)], round=2, rounds=4)
    assert pairs_of(pair_round(pool, system="adapted")) == [(1, 5), (2, 6), (3, 7), (4, 9), (8, SPARE)]


def test_step_2_the_highest_unpaired_player_chooses_first():
    # Classic: 1 met 2, takes 3; then 2 is the highest unpaired and takes 4 (not 5-6, nor anything else).
    pool = make_pool(6, met=[(1, 2)], round=3)
    assert pairs_of(pair_round(pool, system="classic")) == [(1, 3), (2, 4), (5, 6)]


def test_step_3_a_first_half_player_goes_down_its_second_half_from_its_ideal_partner():
    # p=1: [5, 6, 7, 8, 2, 3, 4]; met 5 -> 6.   p=2: [6x, 7, 8, 5, 3, 4] -> 7.
    # p=3: [7x, 8, 6x, 5, 4]; met 8 -> 5 (upward after the end of the table).   p=4: [8] -> 8.
    assert adapted_8(met=[(1, 5), (3, 8)]) == [(1, 6), (2, 7), (3, 5), (4, 8)]


def test_step_3_then_up_the_second_half_from_just_above_its_ideal_partner():
    # p=1: met 5 -> 6.  p=2: [6x, 7, ...] -> 7.  p=3: [7x, 8] -> 8.
    # p=4: [8x] then upward [7x, 6x, 5] -> 5.
    assert adapted_8(met=[(1, 5)]) == [(1, 6), (2, 7), (3, 8), (4, 5)]


def test_step_3_then_the_first_half_below_then_the_second_half_pairs_among_itself():
    # p=1 met all of the second half: [5x, 6x, 7x, 8x, 2, 3, 4] -> 2.   p=3: [7, 8, 6, 5, 4] -> 7.
    # p=4: [8] -> 8.   p=5, second half, its partner taken: the unpaired below it, [6] -> 6.
    assert adapted_8(met=[(1, 5), (1, 6), (1, 7), (1, 8)]) == [(1, 2), (3, 7), (4, 8), (5, 6)]


def test_step_3_table_b_comes_last_for_a_first_half_player():
    # 10 players, round 3 of 4: R' = 2, table A = 1-4, table B = 5-10.
    # p=1: [3x, 4x] + [] + [2x] + [5, ...] -> 5.   p=2: [4] -> 4.   p=3 (second half): below, [6, ...] -> 6.
    # Then table B's neighbours: 7-8, 9-10.
    pool = make_pool(10, met=[(1, 2), (1, 3), (1, 4)], round=3, rounds=4)
    assert pairs_of(pair_round(pool, system="adapted")) == [(1, 5), (2, 4), (3, 6), (7, 8), (9, 10)]


def test_step_4_keeps_only_candidates_not_met_and_in_a_club_round_puts_club_mates_behind():
    # Round 2 of 4 is a club round. p=1: [5, 6, 7, 8, ...]: 5 met, 6 a club-mate -> [7, 8, 2, 3, 4, 6] -> 7.
    # p=2: [6, 7x, 8, 5, ...] -> 6.   p=3: [7x, 8, 6x, 5] -> 8.   p=4: [8x, 7x, 6x, 5] -> 5.
    assert adapted_8(met=[(1, 5)], clubs={1: "X", 6: "X"}) == [(1, 7), (2, 6), (3, 8), (4, 5)]


def test_step_4_club_mates_are_not_moved_outside_club_rounds():
    pool = make_pool(8, met=[(1, 5)], clubs={1: "X", 6: "X"}, round=3, rounds=5)  # R' = 3: a = 8 again
    assert pairs_of(pair_round(pool, system="adapted")) == [(1, 6), (2, 7), (3, 8), (4, 5)]


def test_step_5_passes_over_a_candidate_that_would_leave_the_rest_without_a_complete_pairing():
    # 2 has met everyone but 5. p=1: [5, 6, ...]: 1-5 would leave 2 with no one -> 6.
    # p=2: [6x, 7x, 8x, 5] -> 5.   p=3: [7] -> 7.   p=4: [8] -> 8.
    met = [(2, k) for k in (1, 3, 4, 6, 7, 8)]
    assert adapted_8(met=met) == [(1, 6), (2, 5), (3, 7), (4, 8)]


@pytest.mark.parametrize(("met", "expected"), [
    ([(1, 2), (2, 4)], [(1, 4), (2, 3)]),   # 1-3 would leave 2-4, who met
    ([(1, 2), (3, 4)], [(1, 3), (2, 4)]),
    ([(1, 3), (2, 4)], [(1, 2), (3, 4)]),
])  # fmt: skip
def test_step_5_in_classic_swiss(met, expected):
    assert pairs_of(pair_round(make_pool(4, met=met, round=3), system="classic")) == expected
