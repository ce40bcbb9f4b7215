"""The readable Elo rules: rulesets as data, K, expected score, one game, one tournament period, ranks."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.elo import (
    UnknownResult,
    expected_score,
    game_change,
    inactivity_adjusted,
    k_factor,
    round_change,
    tournament_change,
)
from rules.ranks import next_rank, rank_for
from rules.rulesets import (
    ADLG_2018,
    BATTLE_EMPIRE,
    CLASSIC_ELO,
    DEFAULT_RULESET,
    RULESETS,
    KBand,
    Outcome,
    UnknownRuleset,
    get_ruleset,
)

RATINGS = st.integers(300, 2800)
GAMES = st.integers(0, 200)
RULESET_CODES = st.sampled_from(sorted(RULESETS))


def test_the_four_rulesets_ship_and_adlg_2018_is_the_default():
    assert set(RULESETS) == {"adlg-2018", "adlg-annex-a", "battle-empire", "classic-elo"}
    assert get_ruleset() is ADLG_2018 and DEFAULT_RULESET == "adlg-2018"


def test_an_unknown_ruleset_raises_a_key_error_naming_the_known_ones():
    with pytest.raises(KeyError) as caught:
        get_ruleset("chess")
    assert isinstance(caught.value, UnknownRuleset)
    assert "unknown ruleset 'chess'" in str(caught.value) and "adlg-2018" in str(caught.value)


def test_a_fifth_ruleset_is_only_data():
    fifth = dataclasses.replace(CLASSIC_ELO, code="club-elo", k_bands=(KBand(20),), period="game")
    assert game_change(fifth, 1500, 0, 1500, 0, "A")[:4] == (10, -10, 20, 20)


def test_a_broken_ruleset_is_refused_at_construction():
    with pytest.raises(ValueError, match="last K band"):
        dataclasses.replace(ADLG_2018, code="broken", k_bands=(KBand(50, max_games=9),))
    with pytest.raises(ValueError, match="forfeit"):
        dataclasses.replace(ADLG_2018, code="broken", outcomes=(Outcome("FA", 1, 0),))


def test_result_vocabularies_and_forfeits():
    assert set(ADLG_2018.result_values) == {"A", "B", "D", "DD"}
    assert ADLG_2018.result_values["DD"] == (0.5, 0.5)
    assert ADLG_2018.forfeits == {"FA", "FB"}
    assert BATTLE_EMPIRE.result_values["A++"] == (1.5, 0.0)
    assert BATTLE_EMPIRE.result_values["B+"] == (0.0, 1.25)
    assert set(CLASSIC_ELO.result_values) == {"A", "B", "D"}


@pytest.mark.parametrize(
    ("code", "rating", "games", "k"),
    [
        ("adlg-2018", 1000, 0, 50), ("adlg-2018", 1500, 9, 50), ("adlg-2018", 1399, 10, 30),
        ("adlg-2018", 1400, 10, 15), ("adlg-annex-a", 1400, 10, 15),
        ("battle-empire", 1000, 7, 30), ("battle-empire", 1000, 8, 60), ("battle-empire", 1400, 50, 30),
        ("classic-elo", 2399, 0, 32), ("classic-elo", 2400, 0, 16),
    ],
)  # fmt: skip
def test_k_bands(code, rating, games, k):
    assert k_factor(get_ruleset(code), rating, games) == k


def test_k_is_15_from_the_tenth_game_with_no_gap_between_bands():
    assert [k_factor(ADLG_2018, 1450, games) for games in (9, 10, 11)] == [50, 15, 15]


def test_equal_levels_expect_half():
    assert expected_score(ADLG_2018, 1234, 1234) == 0.5


def test_expected_score_clamps_huge_differences():
    assert expected_score(ADLG_2018, 0, 9000) == expected_score(ADLG_2018, 0, 5000) > 0


@pytest.mark.parametrize(("raw", "truncated", "half_away"), [
    (35.76, 35, 36), (-14.2, -14, -14), (8.5, 8, 9), (-8.5, -8, -9),
    (0.49999999999999994, 0, 0), (-0.4, 0, 0),
])  # fmt: skip
def test_rounding_of_a_change(raw, truncated, half_away):
    assert round_change(ADLG_2018, raw) == truncated
    assert round_change(BATTLE_EMPIRE, raw) == half_away


def test_gap_rule_stops_stronger_player_gaining():
    assert game_change(ADLG_2018, 1600, 40, 1100, 40, "A")[0] == 0
    assert game_change(ADLG_2018, 1100, 40, 1600, 40, "B")[1] == 0


def test_gap_rule_still_lets_stronger_player_lose():
    assert game_change(ADLG_2018, 1600, 40, 1100, 40, "D")[0] < 0


def test_gap_rule_only_from_500_points():
    assert game_change(ADLG_2018, 1599, 40, 1100, 40, "A")[0] == 1


def test_battle_empire_has_no_gap_rule():
    assert game_change(BATTLE_EMPIRE, 1700, 40, 1100, 40, "A++")[0] > 0


def test_double_demoralisation_is_a_draw_for_elo():
    assert game_change(ADLG_2018, 1000, 20, 1200, 20, "DD") == game_change(ADLG_2018, 1000, 20, 1200, 20, "D")


def test_forfeits_and_unknown_codes_are_refused_by_game_change():
    with pytest.raises(UnknownResult, match="forfeits are not rated"):
        game_change(ADLG_2018, 1000, 0, 1000, 0, "FA")
    with pytest.raises(UnknownResult, match=re.escape("unknown result 'A+'")):
        game_change(ADLG_2018, 1000, 0, 1000, 0, "A+")


@settings(max_examples=300, deadline=None)
@given(RULESET_CODES, RATINGS, GAMES, RATINGS, GAMES, st.data())
def test_a_change_never_exceeds_k_times_the_largest_result_value(code, ra, ga, rb, gb, data):
    ruleset = get_ruleset(code)
    result = data.draw(st.sampled_from(sorted(ruleset.result_values)))
    delta_a, delta_b, k_a, k_b, p_a = game_change(ruleset, ra, ga, rb, gb, result)
    assert abs(delta_a) <= k_a * ruleset.max_result_value
    assert abs(delta_b) <= k_b * ruleset.max_result_value
    assert 0 < p_a < 1


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["adlg-2018", "classic-elo"]), RATINGS, RATINGS, st.sampled_from(["A", "B", "D"]))
def test_with_equal_k_and_no_gap_the_two_changes_cancel_up_to_rounding(code, ra, rb, result):
    ruleset = get_ruleset(code)
    if ruleset.gap is not None and abs(ra - rb) >= ruleset.gap:
        ra = rb + (ra - rb) % ruleset.gap  # keep the gap rule out of it
    ra, rb = min(ra, 1399), min(rb, 1399)  # one K band for both
    delta_a, delta_b, k_a, k_b, _ = game_change(ruleset, ra, 50, rb, 50, result)
    assert k_a == k_b
    assert abs(delta_a + delta_b) <= 1


@settings(max_examples=200, deadline=None)
@given(RULESET_CODES, RATINGS, GAMES, RATINGS, GAMES, st.data())
def test_swapping_sides_mirrors_the_changes(code, ra, ga, rb, gb, data):
    ruleset = get_ruleset(code)
    mirrored = {
        o.code: m.code for o in ruleset.outcomes for m in ruleset.outcomes if (o.a, o.b) == (m.b, m.a)
    }
    result = data.draw(st.sampled_from(sorted(ruleset.result_values)))
    delta_a, delta_b, *_ = game_change(ruleset, ra, ga, rb, gb, result)
    swapped_b, swapped_a, *_ = game_change(ruleset, rb, gb, ra, ga, mirrored[result])
    assert abs(delta_a - swapped_a) <= 1 and abs(delta_b - swapped_b) <= 1


def test_tournament_change_sums_then_rounds_once():
    one = tournament_change(CLASSIC_ELO, rating=1500, games=0, results=[(1500, "D")] * 3 + [(1700, "A")])
    assert one.raw == pytest.approx(32 * (1 - 1 / (1 + 10 ** (200 / 400))))
    assert one.change == round_change(CLASSIC_ELO, one.raw) and one.k == 32


def test_inactivity_floor_of_annex_a():
    annex = get_ruleset("adlg-annex-a")
    assert inactivity_adjusted(annex, 1001) == 1000
    assert inactivity_adjusted(annex, 1000) == 1000


def test_classic_elo_has_no_inactivity_adjustment():
    assert inactivity_adjusted(CLASSIC_ELO, 2500) == 2500


# --- ranks --------------------------------------------------------------------------------------------


def test_seneschal_is_a_rated_1300_player_with_fewer_than_10_games():
    assert rank_for(ADLG_2018, 1600, 9).code == "seneschal"
    assert rank_for(ADLG_2018, 1299, 0).code == "champion"


def test_a_rating_above_the_games_takes_the_highest_band_whose_count_is_met():
    assert rank_for(ADLG_2018, 1450, 15).name_en == "Master"
    assert rank_for(ADLG_2018, 1600, 25).name_en == "Grand Master"
    assert rank_for(ADLG_2018, 1600, 30).name_fr == "Stratège"


def test_ranks_are_bilingual():
    assert [r.name_fr for r in ADLG_2018.ranks][:4] == ["Intendant", "Milicien", "Réserviste", "Soldat"]
    assert ADLG_2018.unproven_rank.name_fr == "Sénéchal"
    assert all(r.name_fr and r.name_en for ruleset in RULESETS.values() for r in ruleset.ranks)


def _order(ruleset, rank) -> float:
    if rank == ruleset.unproven_rank:  # between the last open band and the first that needs games
        return next(i for i, r in enumerate(ruleset.ranks) if r.min_games) - 0.5
    return ruleset.ranks.index(rank)


@settings(max_examples=300, deadline=None)
@given(RULESET_CODES, RATINGS, RATINGS, GAMES)
def test_ranks_are_monotonic_in_rating_for_fixed_games(code, r1, r2, games):
    ruleset = get_ruleset(code)
    low, high = sorted((r1, r2))
    assert _order(ruleset, rank_for(ruleset, low, games)) <= _order(ruleset, rank_for(ruleset, high, games))


@settings(max_examples=200, deadline=None)
@given(RULESET_CODES, RATINGS, GAMES)
def test_a_rank_is_never_above_the_rating_or_the_games(code, rating, games):
    rank = rank_for(get_ruleset(code), rating, games)
    assert rank.min_rating is None or rank.min_rating <= rating
    assert rank.min_games <= games


def test_next_rank_gives_points_and_games_needed():
    step = next_rank(ADLG_2018, 1250, 3)
    assert (step.rank.code, step.points_needed, step.games_needed) == ("master", 50, 7)
    step = next_rank(ADLG_2018, 1450, 15)
    assert (step.rank.code, step.points_needed, step.games_needed) == ("grand_master", 0, 5)


def test_next_rank_of_a_seneschal_is_master_needing_games():
    step = next_rank(ADLG_2018, 1350, 4)
    assert (step.rank.code, step.points_needed, step.games_needed) == ("master", 0, 6)


def test_there_is_no_next_rank_at_the_top():
    assert next_rank(ADLG_2018, 1700, 40) is None
    assert next_rank(BATTLE_EMPIRE, 1450, 0) is None
