"""Every entry of spec/vectors.json, table-driven: exact where the rules decide, within 'tolerance' of the
source's hand-rounded figure where it has one."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from rules.championship import round_points, tournament_points
from rules.elo import game_change, inactivity_adjusted, tournament_change
from rules.ranks import rank_for
from rules.rulesets import get_ruleset
from rules.scoring import game_scores

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "data" / "vectors.json").read_text())
SECTIONS = {"elo_game", "elo_tournament", "game_scores", "championship", "ranks", "inactivity", "pairing"}


def cases(section: str) -> list:
    return [pytest.param(v, id=f"{section}-{i}") for i, v in enumerate(VECTORS[section])]


def test_every_section_of_the_vectors_is_tested():
    assert set(VECTORS) - {"about"} == SECTIONS


@pytest.mark.parametrize("v", cases("elo_game"))
def test_elo_game_vector(v):
    ruleset = get_ruleset(v["ruleset"])
    delta_a, delta_b, _, _, p_a = game_change(
        ruleset, v["a"]["rating"], v["a"]["games"], v["b"]["rating"], v["b"]["games"], v["result"]
    )
    if "expect_a" in v:
        assert delta_a == v["expect_a"]
    if "expect_b" in v:
        assert delta_b == v["expect_b"]
    if "expect_p_a" in v:
        assert round(p_a, 4) == v["expect_p_a"]
    if "source_value_a" in v:
        assert abs(delta_a - v["source_value_a"]) <= v["tolerance"]


LETTER_TO_CODE = {"W": "A", "D": "D", "L": "B"}


@pytest.mark.parametrize("v", cases("elo_tournament"))
def test_elo_tournament_vector(v):
    ruleset = get_ruleset(v["ruleset"])
    period = tournament_change(
        ruleset,
        rating=v["player"]["rating"],
        games=v["player"]["games"],
        results=[(opp, LETTER_TO_CODE[letter]) for opp, letter in v["games"]],
    )
    assert v["player"]["rating"] + period.change == v["expect_rating"]
    if "expect_expected_score" in v:
        assert round(period.expected, 3) == v["expect_expected_score"]


@pytest.mark.parametrize("v", cases("game_scores"))
def test_game_scores_vector(v):
    assert game_scores(v["result"], v.get("a_losses", 0), v.get("b_losses", 0)) == tuple(v["expect"])


@pytest.mark.parametrize("v", cases("championship"))
def test_championship_vector(v):
    points = tournament_points(
        players=v["players"], rounds=v["rounds"], rank=v["rank"], score=v["score"], games=v["games"],
        worlds=v.get("worlds", False),
    )  # fmt: skip
    assert round_points(points) == Decimal(str(v["expect"])).quantize(Decimal("0.01"))
    if "tolerance" in v:
        assert abs(points - v["source_value"]) <= v["tolerance"]


@pytest.mark.parametrize("v", cases("ranks"))
def test_rank_vector(v):
    assert rank_for(get_ruleset(v["ruleset"]), v["rating"], v["games"]).name_en == v["expect"]


@pytest.mark.parametrize("v", cases("inactivity"))
def test_inactivity_vector(v):
    assert inactivity_adjusted(get_ruleset(v["ruleset"]), v["before"]) == v["expect"]
