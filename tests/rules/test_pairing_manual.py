"""The referee's own pairs (PAIRING.md §5) and the last round's free games (§6)."""

from __future__ import annotations

import pytest

from rules.pairing import Notice, PairingRefused, free_game_players, free_game_problems, pair_manually
from tests.rules.pairing_helpers import SPARE, make_pool, pairs_of


def test_manual_pairs_are_accepted_and_numbered_like_any_pairing():
    pool = make_pool(5, round=3)
    pairing = pair_manually(pool, [(5, 99), (4, 1), (2, 3)], first_table=4)
    assert pairs_of(pairing) == [(1, 4), (2, 3), (5, SPARE)]
    assert [p.table for p in pairing.pairs] == [4, 5, 6]
    assert pairing.system == "manual" and pairing.seed is None and pairing.warnings == ()


def test_manual_rematch_is_accepted_with_a_warning():
    pairing = pair_manually(make_pool(4, met=[(1, 2)], round=3), [(2, 1), (3, 4)])
    assert pairing.warnings == (Notice("rematch", {"a": 1, "b": 2}),)


def test_manual_club_mates_are_warned_in_a_club_round_only():
    clubs = {1: "X", 2: "X"}
    club_round = pair_manually(make_pool(4, clubs=clubs, round=2, rounds=4), [(1, 2), (3, 4)])
    later = pair_manually(make_pool(4, clubs=clubs, round=3, rounds=4), [(1, 2), (3, 4)])
    assert club_round.warnings == (Notice("club_mates_by_hand", {"a": 1, "b": 2}),)
    assert later.warnings == ()


def test_manual_pairing_lists_every_problem_at_once():
    pool = make_pool(6, round=3)
    with pytest.raises(PairingRefused) as refused:
        pair_manually(pool, [(1, 2), (2, 3), (4, 4), (7, 8), (9, SPARE)], withdrawn={7}, elsewhere={8})
    assert refused.value.notices == (
        Notice("player_twice", {"player": 2}),
        Notice("player_against_self", {"player": 4}),
        Notice("player_twice", {"player": 4}),
        Notice("player_withdrawn", {"player": 7}),
        Notice("player_other_pool", {"player": 8}),
        Notice("player_unknown", {"player": 9}),
        Notice("spare_not_needed"),
        Notice("player_unpaired", {"player": 5}),
        Notice("player_unpaired", {"player": 6}),
    )


def test_manual_pairing_of_an_odd_pool_needs_the_spare():
    with pytest.raises(PairingRefused) as refused:
        pair_manually(make_pool(3, round=2, rounds=3), [(1, 2)])
    assert refused.value.codes == ("player_unpaired",)


def test_manual_spare_twice_is_refused():
    with pytest.raises(PairingRefused) as refused:
        pair_manually(make_pool(3, round=2, rounds=3), [(1, SPARE), (2, SPARE), (3, 4)])
    assert Notice("player_twice", {"player": SPARE}) in refused.value.notices


def test_a_refusal_reads_as_its_notices():
    with pytest.raises(PairingRefused, match=r"player_unknown\(player=9\)"):
        pair_manually(make_pool(2, round=2, rounds=3), [(1, 2), (9, SPARE)])


# --- free games in the last round -------------------------------------------------------------------------------

STANDING = list(range(1, 11))
SCORES = {1: 400, 2: 380, 3: 350, 4: 300, 5: 260, 6: 210, 7: 199, 8: 150, 9: 120, 10: 40}


@pytest.mark.parametrize(("standing", "scores", "expected"), [
    (STANDING, SCORES, {7, 8, 9, 10}),                   # lower half: 6-10; 6's 210 + 100 is not below 300
    (STANDING[:9], SCORES, {7, 8, 9}),                   # 9 players: the lower half is the last 4
    ([1, 2, 3, 4, 5], {1: 400, 2: 380, 3: 350, 4: 300, 5: 0}, {5}),
    ([1, 2, 3, 4], {1: 400, 2: 380, 3: 350, 4: 300}, set()),  # everyone is in the top 4
    (STANDING, {**SCORES, 4: 120}, set()),              # everyone can still reach the 4th's score
])  # fmt: skip
def test_free_games_are_for_the_lower_half_who_can_no_longer_reach_the_top_4(standing, scores, expected):
    assert free_game_players(standing=standing, scores=scores, round=5, rounds=5) == expected


def test_free_games_are_only_in_the_last_round():
    assert free_game_players(standing=STANDING, scores=SCORES, round=4, rounds=5) == frozenset()


def test_free_games_read_the_most_one_game_scores_for_other_families():
    scores = {1: 4.0, 2: 3.5, 3: 3.0, 4: 3.0, 5: 2.0, 6: 1.0, 7: 0.5, 8: 0.0}
    may = free_game_players(standing=list(range(1, 9)), scores=scores, round=5, rounds=5, game_maximum=1.5)
    assert may == {6, 7, 8}


def test_a_free_game_is_refused_for_anyone_who_may_not_play_one():
    assert free_game_problems(7, 8, {7, 8, 9}) == ()
    assert free_game_problems(7, 2, {7, 8, 9}) == (Notice("free_game_not_allowed", {"player": 2}),)
