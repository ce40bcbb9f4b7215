"""Each pairing rule on small pools whose answer is worked out by hand (PAIRING.md §1-§4).

Player k is k-th in the standing unless a test says otherwise, so a pair (1, 5) reads "1st against 5th".
The repair order of §4 steps 2-5 has its own file, test_pairing_repair.py.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from rules.pairing import (
    Entrant,
    Notice,
    PairingRefused,
    Pool,
    choose_system,
    club_round,
    deal_groups,
    ideal_number,
    initial_standing,
    new_seed,
    pair_round,
    round_one_methods,
    system_note,
)
from rules.pairing.messages import notice_text
from rules.pairing.model import SEED_LIMIT
from rules.pairing.round_one import level_groups
from tests.rules.pairing_helpers import SPARE, codes, make_pool, pairs_of

# --- what applies: system, methods, club rounds, the standing before round 1 ----------------------------------


@pytest.mark.parametrize(("players", "rounds", "swiss", "system"), [
    (64, 5, None, "classic"),      # P > N = 32
    (33, 5, None, "classic"),
    (33, 5, "classic", "classic"),
    (32, 5, None, "adapted"),      # P = N: the referee's choice, adapted by default
    (32, 5, "classic", "classic"),
    (32, 5, "adapted", "adapted"),
    (31, 5, None, "adapted"),      # N/2 < P < N: adapted required
    (17, 5, "adapted", "adapted"),
    (16, 5, None, "groups"),       # P <= N/2
    (5, 4, None, "groups"),
])  # fmt: skip
def test_system_is_chosen_by_players_at_the_start_and_rounds(players, rounds, swiss, system):
    assert choose_system(players, rounds, swiss) == system


@pytest.mark.parametrize(("players", "rounds", "swiss", "system"), [
    (33, 5, "adapted", "classic"), (26, 5, "classic", "adapted"), (17, 5, "classic", "adapted"),
    (16, 5, "classic", "groups"), (16, 5, "adapted", "groups"),
])  # fmt: skip
def test_a_swiss_choice_is_a_choice_only_at_the_ideal_number_elsewhere_the_charter_applies(players, rounds, swiss,
                                                                                        system):
    """PAIRING.md §4 (2026-11-26): a real day's 26 players for 32 with "classic" chosen at the start were refused
    round 1; the charter's system now applies whatever was chosen, and round 1's note says so."""
    assert choose_system(players, rounds, swiss) == system
    assert system_note(players, rounds, swiss) == Notice("swiss_choice_not_applied", {
        "swiss": swiss, "system": system, "players": players, "ideal": 2**rounds})


@pytest.mark.parametrize(("players", "rounds", "swiss", "note"), [
    (32, 5, None, Notice("system_default", {"system": "adapted", "players": 32})),
    (32, 5, "classic", Notice("system_chosen", {"system": "classic", "players": 32})),
    (26, 5, None, Notice("system_charter", {"system": "adapted", "players": 26, "ideal": 32})),
    (26, 5, "adapted", Notice("system_charter", {"system": "adapted", "players": 26, "ideal": 32})),
    (40, 5, "classic", Notice("system_charter", {"system": "classic", "players": 40, "ideal": 32})),
])  # fmt: skip
def test_round_one_notes_which_system_follows_and_why(players, rounds, swiss, note):
    assert system_note(players, rounds, swiss) == note


def test_the_system_notes_say_which_system_and_why():
    note = system_note(26, 5, "classic")
    assert notice_text(note.code, note.params) == (
        "From round 2: adapted Swiss, as the charter requires with 26 players for an ideal number of 32; the "
        "choice of classic Swiss made at the start applies only with exactly 32 players.")


def test_an_unknown_swiss_choice_is_a_programming_error():
    with pytest.raises(ValueError):
        choose_system(32, 5, "dutch")


@pytest.mark.parametrize(("players", "rounds", "methods"), [
    (33, 5, ("elo-levels",)),
    (9, 3, ("elo-levels",)),
    (32, 5, ("draw", "hats", "elo-levels", "manual")),
    (8, 3, ("draw", "hats", "elo-levels", "manual")),
])  # fmt: skip
def test_elo_levels_is_the_only_round_one_method_above_the_ideal_number(players, rounds, methods):
    assert round_one_methods(players, rounds) == methods


@pytest.mark.parametrize(("rnd", "rounds", "expected"), [
    (1, 3, True), (2, 3, False), (3, 3, False), (1, 4, True), (2, 4, True), (3, 4, False), (2, 6, True),
    (1, 1, True), (2, 2, False),
])  # fmt: skip
def test_club_rounds_are_round_one_and_round_two_from_four_rounds(rnd, rounds, expected):
    assert club_round(rnd, rounds) is expected


def test_ideal_number_is_two_to_the_rounds():
    assert [ideal_number(r) for r in (3, 4, 5, 6)] == [8, 16, 32, 64]


def test_standing_before_round_one_is_by_rating_then_lower_id():
    players = [Entrant(1, 1000), Entrant(2, 1200), Entrant(3, 1200), Entrant(4, 900), Entrant(5, 1300)]
    assert initial_standing(players) == (5, 2, 3, 1, 4)


def test_groups_are_dealt_a_b_b_a_in_standing_order():
    assert "".join(deal_groups([10, 20, 30, 40, 50, 60, 70, 80, 90])[k] for k in range(10, 100, 10)) == "ABBAABBAA"


def test_new_seed_fits_the_seed_column():
    seeds = {new_seed() for _ in range(50)}
    assert all(isinstance(s, int) and 0 <= s < SEED_LIMIT for s in seeds) and len(seeds) > 1


# --- the pool's inputs -----------------------------------------------------------------------------------------


def test_standing_drops_players_no_longer_in():
    pool = make_pool([1, 2, 3], standing=[3, 7, 1, 2])  # 7 withdrew
    assert pool.standing == (3, 1, 2) and pool.size == 3


@pytest.mark.parametrize("build", [
    lambda: make_pool([1, 2, 3], standing=[1, 2]),                          # 3 missing from the standing
    lambda: Pool([Entrant(1, 1000), Entrant(1, 1000)], [1], round=1, rounds=3),
    lambda: make_pool([1, SPARE]),                                           # the spare is added, not listed
    lambda: make_pool(4, round=6, rounds=5),
    lambda: make_pool(4, round=0),
    lambda: make_pool(4, met=[(1, 1)]),
])  # fmt: skip
def test_a_malformed_pool_is_a_programming_error(build):
    with pytest.raises(ValueError):
        build()


# --- the spare ------------------------------------------------------------------------------------------------


def test_spare_meets_the_lowest_player_it_has_not_met():
    pool = make_pool(5, met=[(5, SPARE)], round=3)
    # the spare's pair first (4); the rest by classic Swiss on 1, 2, 3, 5; its game at the last table.
    assert pairs_of(pair_round(pool, system="classic")) == [(1, 2), (3, 5), (4, SPARE)]


def test_spare_meets_the_lowest_player_of_the_standing():
    assert pairs_of(pair_round(make_pool(5, round=3), system="classic")) == [(1, 2), (3, 4), (5, SPARE)]


def test_no_spare_when_the_pool_is_even():
    assert SPARE not in {x for pair in pairs_of(pair_round(make_pool(4, round=3), system="classic")) for x in pair}


def test_spare_moves_up_when_the_lowest_would_leave_only_a_rematch_and_says_so():
    pool = make_pool(3, met=[(1, 2)], round=3)  # the spare with 3 would leave 1 and 2, who met
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 3), (2, SPARE)]
    assert pairing.warnings == (Notice("spare_not_lowest", {"player": 2, "lowest": 3}),)


def test_a_pool_of_one_plays_the_spare():
    assert pairs_of(pair_round(make_pool(1, round=2, rounds=3), system="classic")) == [(1, SPARE)]


def test_an_empty_pool_pairs_nothing():
    assert pair_round(make_pool(0, round=2, rounds=3), system="classic").pairs == ()


@pytest.mark.parametrize("met", [
    [(1, SPARE)],                                       # a pool of one who met the spare
])
def test_a_player_alone_who_met_the_spare_cannot_be_paired(met):
    with pytest.raises(PairingRefused) as refused:
        pair_round(make_pool(1, met=met, round=2, rounds=3), system="classic")
    assert refused.value.codes == ("no_pairing_without_rematch",)


# --- never a rematch --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "met", "system"), [
    (4, [(1, 2), (1, 3), (1, 4)], "classic"),           # 1 has met everyone
    (4, [(1, 2), (1, 3), (1, 4)], "adapted"),
    (3, [(1, SPARE), (2, SPARE), (3, SPARE)], "classic"),  # everyone has met the spare
    (4, [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)], "classic"),  # a complete round robin
])  # fmt: skip
def test_no_pairing_without_a_rematch_pairs_nothing_and_says_so(players, met, system):
    with pytest.raises(PairingRefused) as refused:
        pair_round(make_pool(players, met=met, round=4), system=system)
    assert refused.value.notices == (Notice("no_pairing_without_rematch", {"round": 4}),)


# --- classic Swiss and club rounds ------------------------------------------------------------------------------


def test_classic_pairs_first_against_second_third_against_fourth():
    assert pairs_of(pair_round(make_pool(6, round=3), system="classic")) == [(1, 2), (3, 4), (5, 6)]


def test_classic_takes_the_next_player_not_met():
    pool = make_pool(6, met=[(1, 2)], round=3)
    assert pairs_of(pair_round(pool, system="classic")) == [(1, 3), (2, 4), (5, 6)]


def test_club_round_moves_club_mates_behind():
    pool = make_pool(4, clubs={1: "X", 2: "X", 3: "Y", 4: "Z"}, round=2, rounds=4)
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 3), (2, 4)] and pairing.warnings == ()


@pytest.mark.parametrize(("rnd", "rounds"), [(3, 4), (2, 3)])
def test_outside_club_rounds_club_mates_pair_as_anyone(rnd, rounds):
    pool = make_pool(4, clubs={1: "X", 2: "X", 3: "Y", 4: "Z"}, round=rnd, rounds=rounds)
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 2), (3, 4)] and pairing.warnings == ()


def test_club_mates_meet_in_a_club_round_when_no_other_candidate_is_left_and_the_referee_is_told():
    pool = make_pool(4, clubs={1: "X", 2: "X", 3: "X", 4: "Y"}, met=[(1, 4)], round=2, rounds=4)
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 2), (3, 4)]
    assert pairing.warnings == (Notice("club_mates_swiss", {"a": 1, "b": 2}),)


def test_club_mates_are_moved_behind_not_avoided_by_looking_ahead():
    # §4 step 4 only reorders p's candidates; step 5 looks ahead for rematches, not for club-mates. So 1 takes 2
    # (another club) though 1-3 and 2-4 would have kept every club apart.
    pool = make_pool(4, clubs={1: "X", 2: "Z", 3: "Y", 4: "Y"}, round=2, rounds=4)
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 2), (3, 4)]
    assert pairing.warnings == (Notice("club_mates_swiss", {"a": 3, "b": 4}),)


def test_independent_players_have_no_club_mates():
    pool = make_pool(4, clubs={1: None, 2: None, 3: None, 4: None}, round=2, rounds=4)
    pairing = pair_round(pool, system="classic")
    assert pairs_of(pairing) == [(1, 2), (3, 4)] and pairing.warnings == ()


# --- adapted Swiss: tables A and B ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rnd", "rounds", "expected"), [
    (8, 2, 4, [(1, 5), (2, 6), (3, 7), (4, 8)]),                      # R' = 3: table A is all 8
    (6, 3, 5, [(1, 4), (2, 5), (3, 6)]),                              # R' = 3: 8 > 6 players, all in A
    (6, 4, 5, [(1, 3), (2, 4), (5, 6)]),                              # R' = 2: A = 1-4, B = 5-6
    (10, 5, 5, [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]),            # the last round: A = 1-2
    (9, 2, 4, [(1, 5), (2, 6), (3, 7), (4, 8), (9, SPARE)]),          # places counted without the spare's pair
])  # fmt: skip
def test_adapted_pairs_table_a_halves_and_table_b_neighbours(players, rnd, rounds, expected):
    assert pairs_of(pair_round(make_pool(players, round=rnd, rounds=rounds), system="adapted")) == expected


# --- tables ---------------------------------------------------------------------------------------------------


def test_tables_continue_from_the_first_table_given():
    pairing = pair_round(make_pool(5, round=3), system="classic", first_table=7)
    assert [p.table for p in pairing.pairs] == [7, 8, 9] and pairing.next_table == 10


def test_tables_go_from_the_highest_placed_pair_down_with_the_higher_placed_player_as_a():
    pool = make_pool([10, 20, 30, 40], standing=[30, 10, 40, 20], met=[(30, 10)], round=3)
    # 30 (1st) cannot meet 10 (2nd): 30-40 and 10-20; 10-20's higher player is 2nd, so it is the second table.
    assert pairs_of(pair_round(pool, system="classic")) == [(30, 40), (10, 20)]


def test_a_pairing_with_no_pair_has_no_next_table():
    assert pair_round(make_pool(0, round=2, rounds=3), system="classic").next_table is None


# --- round 1: draw ---------------------------------------------------------------------------------------------


def drawn_order(players, seed):
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return order


def as_sets(pairs):
    return {frozenset(p) for p in pairs}


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_draw_without_clubs_pairs_the_drawn_order_two_by_two(seed):
    o = drawn_order(range(1, 9), seed)
    pairing = pair_round(make_pool(8, round=1, rounds=3), system="adapted", method="draw", seed=seed)
    assert as_sets(pairs_of(pairing)) == as_sets([(o[0], o[1]), (o[2], o[3]), (o[4], o[5]), (o[6], o[7])])
    assert pairing.system == "draw" and pairing.seed == seed


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_draw_spare_meets_the_last_player_left_by_the_draw(seed):
    o = drawn_order(range(1, 8), seed)
    pairing = pair_round(make_pool(7, round=1, rounds=3), system="adapted", method="draw", seed=seed)
    assert pairing.pairs[-1].a == o[6] and pairing.pairs[-1].b == SPARE
    assert as_sets(pairs_of(pairing)[:-1]) == as_sets([(o[0], o[1]), (o[2], o[3]), (o[4], o[5])])


@pytest.mark.parametrize("seed", [3, 11])
def test_draw_skips_a_club_mate_for_the_next_undrawn_player_of_another_club(seed):
    o = drawn_order(range(1, 7), seed)
    clubs = {o[0]: "X", o[1]: "X"}
    pairing = pair_round(make_pool(6, clubs=clubs, round=1, rounds=3), system="adapted", seed=seed)
    assert as_sets(pairs_of(pairing)) == as_sets([(o[0], o[2]), (o[1], o[3]), (o[4], o[5])])
    assert pairing.warnings == ()


@pytest.mark.parametrize("seed", [3, 11])
def test_draw_passes_over_a_player_whose_pair_would_leave_club_mates_to_meet(seed):
    o = drawn_order(range(1, 5), seed)
    # o0 with o1 would leave o2 and o3, club-mates; o0 with o2 leaves o1 and o3, of different clubs.
    clubs = {o[0]: "Y", o[1]: "Z", o[2]: "X", o[3]: "X"}
    pairing = pair_round(make_pool(4, clubs=clubs, round=1, rounds=3), system="adapted", seed=seed)
    assert as_sets(pairs_of(pairing)) == as_sets([(o[0], o[2]), (o[1], o[3])])


def test_draw_pairs_club_mates_only_as_often_as_the_pool_requires_and_says_so():
    pool = make_pool(4, clubs={1: "X", 2: "X", 3: "X", 4: "Y"}, round=1, rounds=3)
    for seed in range(10):
        pairing = pair_round(pool, system="adapted", seed=seed)
        assert codes(pairing) == ["club_mates"]  # one pair of X is unavoidable, never two


@pytest.mark.parametrize("method", ["draw", "hats", "elo-levels"])
@pytest.mark.parametrize("seed", [0, 5, 123456])
def test_the_same_seed_and_players_give_the_same_draw_in_whatever_order_they_are_listed(method, seed):
    entrants = [Entrant(i, 1000 + 7 * i % 50, club=i % 4, hat=1 + i % 2) for i in range(1, 16)]
    first, again = (pair_round(Pool(listed, initial_standing(entrants), round=1, rounds=4), system="adapted",
                               method=method, seed=seed) for listed in (entrants, entrants[::-1]))
    assert first == again and first.seed == seed


def test_different_seeds_draw_differently():
    pool = make_pool(10, round=1, rounds=4)
    assert len({tuple(pairs_of(pair_round(pool, system="adapted", seed=s))) for s in range(20)}) > 1


def test_a_seed_is_picked_when_none_is_given_and_it_repeats_the_draw():
    pool = make_pool(10, round=1, rounds=4)
    pairing = pair_round(pool, system="adapted")
    assert 0 <= pairing.seed < SEED_LIMIT
    assert pair_round(pool, system="adapted", seed=pairing.seed) == pairing


def test_from_round_two_nothing_is_drawn_so_no_seed_is_returned():
    assert pair_round(make_pool(6, round=2), system="classic", seed=5).seed is None


def test_a_round_one_method_is_refused_from_round_two():
    with pytest.raises(PairingRefused) as refused:
        pair_round(make_pool(6, round=2), system="classic", method="draw")
    assert refused.value.notices == (Notice("method_not_for_round", {"method": "draw", "round": 2}),)


def test_manual_is_not_drawn():
    with pytest.raises(ValueError):
        pair_round(make_pool(6, round=1, rounds=3), system="adapted", method="manual")


# --- round 1: hats ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_hats_pair_one_name_from_each_hat(seed):
    pool = make_pool(8, hats={k: 1 if k <= 4 else 2 for k in range(1, 9)}, round=1, rounds=3)
    pairing = pair_round(pool, system="adapted", method="hats", seed=seed)
    assert pairing.system == "hats"
    assert all((p.a <= 4) != (p.b <= 4) for p in pairing.pairs)


@pytest.mark.parametrize("seed", range(5))
def test_what_is_left_of_the_larger_hat_is_drawn_among_itself(seed):
    pool = make_pool(8, hats={k: 1 if k <= 2 else 2 for k in range(1, 9)}, round=1, rounds=3)
    pairs = pairs_of(pair_round(pool, system="adapted", method="hats", seed=seed))
    crossing = [p for p in pairs if (p[0] <= 2) != (p[1] <= 2)]
    assert len(crossing) == 2 and len(pairs) == 4


@pytest.mark.parametrize("seed", range(10))
def test_hats_spare_meets_the_last_name_of_the_larger_hat(seed):
    # 4 in hat 1 (the odd IDs), 3 in hat 2, the lowest of the standing (7) in the larger hat 1: each name of hat 2
    # meets one of hat 1, and the spare the name of hat 1 left, whoever it is.
    pool = make_pool(7, hats={k: 1 + (k + 1) % 2 for k in range(1, 8)}, round=1, rounds=3)
    pairing = pair_round(pool, system="adapted", method="hats", seed=seed)
    last = pairing.pairs[-1]
    assert last.b == SPARE and last.a % 2 == 1
    assert all((p.a % 2) != (p.b % 2) for p in pairing.pairs[:-1])
    assert pairing.warnings == ()


def test_hats_spare_never_takes_a_name_of_the_smaller_hat():
    # The lowest of the standing (7) is in the smaller hat 2: the spare going to the lowest would leave two names
    # of hat 1 to meet; the spare meets a name of hat 1 instead, and 7 one of hat 1 too.
    pool = make_pool(7, hats={1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2}, round=1, rounds=3)
    for seed in range(20):
        pairing = pair_round(pool, system="adapted", method="hats", seed=seed)
        assert pairing.pairs[-1].b == SPARE and pairing.pairs[-1].a <= 4
        assert all((p.a <= 4) != (p.b <= 4) for p in pairing.pairs[:-1])


@pytest.mark.parametrize("seed", range(5))
def test_hats_keep_club_mates_apart(seed):
    pool = make_pool(4, hats={1: 1, 2: 1, 3: 2, 4: 2}, clubs={1: "X", 2: "Y", 3: "X", 4: "Y"}, round=1, rounds=3)
    assert as_sets(pairs_of(pair_round(pool, system="adapted", method="hats", seed=seed))) == as_sets([(1, 4), (2, 3)])


def test_hats_need_every_player_in_a_hat():
    pool = make_pool(4, hats={1: 1, 2: 2, 3: 2}, round=1, rounds=3)
    with pytest.raises(PairingRefused) as refused:
        pair_round(pool, system="adapted", method="hats", seed=1)
    assert refused.value.notices == (Notice("hat_missing", {"players": [4]}),)


# --- round 1: elo-levels ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "count", "sizes"), [
    (24, 3, [8, 8, 8]),
    (10, 3, [4, 2, 4]),        # 4, 3, 3: the second passes its last player down
    (14, 3, [4, 6, 4]),        # 5, 5, 4
    (8, 3, [2, 4, 2]),         # 3, 3, 2
    (32, 4, [8, 8, 8, 8]),
    (34, 4, [8, 10, 8, 8]),    # 9, 9, 8, 8
    (36, 4, [8, 10, 8, 10]),   # 9, 9, 9, 9
    (2, 3, [0, 2, 0]),         # 1, 1, 0
])  # fmt: skip
def test_elo_levels_cut_groups_as_equal_as_possible_higher_first_odd_ones_passing_down(players, count, sizes):
    groups = level_groups(list(range(1, players + 1)), count)
    assert [len(g) for g in groups] == sizes
    assert [p for g in groups for p in g] == list(range(1, players + 1))  # standing order kept


@pytest.mark.parametrize("seed", range(5))
def test_elo_levels_draws_inside_each_level(seed):
    pool = make_pool(12, round=1, rounds=3)  # P = 12 > N = 8: three levels of 4
    pairing = pair_round(pool, system="classic", seed=seed)
    assert pairing.system == "elo-levels"
    assert all((p.a - 1) // 4 == (p.b - 1) // 4 for p in pairing.pairs)


@pytest.mark.parametrize("seed", range(3))
def test_elo_levels_cut_four_levels_from_32_players(seed):
    pairing = pair_round(make_pool(32, round=1, rounds=4), system="classic", method="elo-levels", seed=seed)
    assert all((p.a - 1) // 8 == (p.b - 1) // 8 for p in pairing.pairs)


@pytest.mark.parametrize("seed", range(5))
def test_elo_levels_spare_meets_the_lowest_then_levels_are_cut_from_the_rest(seed):
    pairing = pair_round(make_pool(9, round=1, rounds=3), system="classic", seed=seed)
    # 8 left: 3, 3, 2 -> [1, 2], [3, 4, 5, 6], [7, 8]
    level = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 1, 7: 2, 8: 2}
    assert (pairing.pairs[-1].a, pairing.pairs[-1].b) == (9, SPARE)
    assert all(level[p.a] == level[p.b] for p in pairing.pairs[:-1])


@pytest.mark.parametrize("method", ["draw", "hats"])
def test_elo_levels_is_required_above_the_ideal_number(method):
    with pytest.raises(PairingRefused) as refused:
        pair_round(make_pool(9, round=1, rounds=3), system="classic", method=method, seed=1)
    assert refused.value.notices == (Notice("elo_levels_required", {"players": 9, "ideal": 8}),)


def test_draw_is_the_default_round_one_method_up_to_the_ideal_number():
    assert pair_round(make_pool(8, round=1, rounds=3), system="adapted", seed=1).system == "draw"


# --- the two groups --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_groups_round_one_draws_inside_each_group(seed):
    pool = make_pool(8, groups="ABBAABBA", round=1, rounds=5)
    group = dict(zip(range(1, 9), "ABBAABBA", strict=True))
    pairing = pair_round(pool, system="groups", seed=seed)
    assert pairing.system == "draw" and pairing.stage == "inside"
    assert all(group[p.a] == group[p.b] for p in pairing.pairs)


@pytest.mark.parametrize("seed", range(5))
def test_groups_put_the_spare_in_the_group_with_an_odd_number_of_players(seed):
    pool = make_pool(7, groups="ABBAABB", round=1, rounds=5)  # A: 1, 4, 5
    spare_game = pair_round(pool, system="groups", seed=seed).pairs[-1]
    assert spare_game.b == SPARE and spare_game.a in (1, 4, 5)


def test_groups_rounds_inside_are_classic_swiss_in_each_group_the_spare_with_the_odd_groups_lowest():
    pool = make_pool(7, groups="ABBAABB", round=2, rounds=5)
    pairing = pair_round(pool, system="groups")
    assert pairs_of(pairing) == [(1, 4), (2, 3), (6, 7), (5, SPARE)]
    assert pairing.system == "groups" and pairing.stage == "inside"


def test_both_groups_odd_meet_through_one_game_of_their_lowest_players():
    pool = make_pool(6, groups="ABBAAB", round=2, rounds=4)  # A: 1, 4, 5; B: 2, 3, 6
    pairing = pair_round(pool, system="groups")
    assert pairs_of(pairing) == [(1, 4), (2, 3), (5, 6)]
    assert pairing.warnings == (Notice("groups_cross_pair", {"a": 5, "b": 6}),)


def test_the_cross_game_moves_up_when_the_lowest_have_met_or_would_leave_a_rematch():
    # B's lowest, 6, met 5 and, with 6 out, leaves 2-3 who met; B's next, 3: with A's lowest 5 out, 1-4 met;
    # with 4 out, 1-5 and 2-6 are fine.
    pool = make_pool(6, groups="ABBAAB", met=[(1, 4), (2, 3), (5, 6)], round=2, rounds=4)
    pairing = pair_round(pool, system="groups")
    assert pairs_of(pairing) == [(1, 5), (2, 6), (3, 4)]
    assert pairing.warnings == (Notice("groups_cross_pair", {"a": 4, "b": 3}),)


@pytest.mark.parametrize("seed", range(3))
def test_groups_round_one_with_both_groups_odd_makes_the_cross_game_first(seed):
    pairing = pair_round(make_pool(6, groups="ABBAAB", round=1, rounds=4), system="groups", seed=seed)
    assert as_sets(pairs_of(pairing)) == as_sets([(1, 4), (2, 3), (5, 6)])


def test_the_join_pairs_first_of_a_with_second_of_b_and_first_of_b_with_second_of_a():
    pool = make_pool(8, groups="AABBAABB", round=3, rounds=4)  # A: 1, 2, 5, 6; B: 3, 4, 7, 8
    pairing = pair_round(pool, system="groups")
    assert pairs_of(pairing) == [(1, 4), (2, 3), (5, 6), (7, 8)]
    assert pairing.stage == "join"


def test_the_join_takes_the_next_of_the_other_group_when_the_ideal_one_was_met():
    pool = make_pool(8, groups="AABBAABB", met=[(1, 4)], round=3, rounds=4)
    assert pairs_of(pair_round(pool, system="groups")) == [(1, 7), (2, 3), (4, 5), (6, 8)]


def test_with_three_rounds_the_second_round_already_joins_the_groups():
    pool = make_pool(4, groups="ABBA", round=2, rounds=3)  # A: 1, 4; B: 2, 3
    pairing = pair_round(pool, system="groups")
    assert pairs_of(pairing) == [(1, 3), (2, 4)] and pairing.stage == "join"


def test_the_last_round_of_the_groups_is_classic_swiss_on_the_joined_standing():
    pairing = pair_round(make_pool(8, groups="ABBAABBA", round=5, rounds=5), system="groups")
    assert pairs_of(pairing) == [(1, 2), (3, 4), (5, 6), (7, 8)] and pairing.stage == "joined"


def test_groups_need_every_player_in_a_group():
    with pytest.raises(PairingRefused) as refused:
        pair_round(make_pool(4, groups={1: "A", 2: "B", 3: "B"}, round=2, rounds=5), system="groups")
    assert refused.value.notices == (Notice("group_missing", {"players": [4]}),)


def test_a_pairing_turns_into_plain_json_for_the_commands():
    pool = make_pool(3, met=[(1, 2)], round=3)
    printed = json.loads(json.dumps(dataclasses.asdict(pair_round(pool, system="classic"))))
    assert printed["pairs"] == [{"table": 1, "a": 1, "b": 3}, {"table": 2, "a": 2, "b": SPARE}]
    assert printed["warnings"] == [{"code": "spare_not_lowest", "params": {"player": 2, "lowest": 3}}]
