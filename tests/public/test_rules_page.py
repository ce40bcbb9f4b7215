"""The rules page: ranks and K bands generated from the rulesets, and the calculator that calls the engine."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.selectors import game_calculation
from rules.elo import game_change, round_change
from rules.rulesets import RULESETS, get_ruleset
from tests.public.conftest import text

CHARTER_EXAMPLE = {"system": "adlg", "rating_a": 1000, "games_a": 0, "rating_b": 1200, "games_b": 10, "result": "A"}


def test_rules_page_lists_the_ranks_of_each_system_with_thresholds_and_games(visitor, db):
    page = text(visitor.get("/rules/"))
    adlg = page[page.index('id="rules-adlg"'):page.index('id="rules-battle-empire"')]
    for value in ("Steward", "below 700", "Soldier", "900–1099", "Grand Master", "1400–1499", "1500 and above"):
        assert value in adlg
    assert "Seneschal" in adlg
    battle_empire = page[page.index('id="rules-battle-empire"'):]
    assert "Marshal of the Empire" in battle_empire and "1400 and above" in battle_empire


def test_rules_page_explains_k_bands_gap_rule_and_rounding_from_the_ruleset(visitor, db):
    page = text(visitor.get("/rules/"))
    adlg = page[page.index('id="rules-adlg"'):page.index('id="rules-battle-empire"')]
    assert "fewer than 10 rated games" in adlg and "rating at least 1400" in adlg and "otherwise" in adlg
    assert "when a player is rated 500 or more above the opponent" in adlg
    assert "truncated toward zero" in adlg
    battle_empire = page[page.index('id="rules-battle-empire"'):]
    assert "Gap rule" not in battle_empire.split("<h3>")[1]  # no gap rule in Battle Empire
    assert "halves away from zero" in battle_empire
    assert "1.5" in battle_empire  # an overwhelming victory


def test_calculator_gives_the_charter_example(visitor, db):
    # Charter App. 5: 1000 beats 1200: +35 for A (K 50), B loses 8... computed by the engine, not copied here.
    delta_a, delta_b, k_a, k_b, p_a = game_change(get_ruleset("adlg-2018"), 1000, 0, 1200, 10, "A")
    page = text(visitor.get("/rules/", CHARTER_EXAMPLE))
    calc = page[page.index('id="calculation"'):]
    assert delta_a == 35
    assert f'id="calc-change-a"><span class="up">+{delta_a}</span>' in calc
    assert f'id="calc-k-a">{k_a}<' in calc
    assert f"{p_a:.4f}" in calc
    assert f"{1000 + delta_a}" in calc and f"{1200 + delta_b}" in calc


def test_calculator_shows_when_the_gap_rule_applies(visitor, db):
    page = text(visitor.get("/rules/", {**CHARTER_EXAMPLE, "rating_a": 1800, "rating_b": 1200}))
    calc = page[page.index('id="calculation"'):]
    assert "applied: no gain" in calc
    assert 'id="calc-change-a"><span class="muted">0</span>' in calc


def test_calculator_refuses_a_result_the_system_does_not_rate(visitor, db):
    response = visitor.get("/rules/", {**CHARTER_EXAMPLE, "result": "A++"})
    assert response.status_code == 200
    page = text(response)
    assert "A++ is not a rated result in L" in page and 'id="calculation"' not in page


@pytest.mark.parametrize("bad", [
    {"rating_a": "abc"}, {"rating_a": "-5"}, {"games_b": "9999999"}, {"system": "chess"}, {"result": "X"},
    {"rating_a": ""},
])
def test_calculator_answers_invalid_input_with_form_errors(visitor, db, bad):
    response = visitor.get("/rules/", {**CHARTER_EXAMPLE, **bad})
    assert response.status_code == 200
    assert "errorlist" in text(response) and 'id="calculation"' not in text(response)


def test_calculator_in_french(french_visitor, db):
    page = text(french_visitor.get("/rules/", CHARTER_EXAMPLE))
    assert "Calculateur" in page and "Variation (tronquée vers zéro)" in page
    p_a = game_change(get_ruleset("adlg-2018"), 1000, 0, 1200, 10, "A")[4]
    assert f"{p_a:.4f}".replace(".", ",") in page  # numbers in the French way


def test_calculator_names_the_system_as_the_site_does_not_the_rulesets_english_label(french_visitor, db):
    page = text(french_visitor.get("/rules/", CHARTER_EXAMPLE))
    calc = page[page.index('id="calculation"'):]
    assert "<strong>L&#x27;Art de la Guerre</strong>" in calc
    assert "charter v3" not in page


def test_rules_page_takes_one_query(visitor, db, django_assert_num_queries):
    with django_assert_num_queries(1):  # the systems
        visitor.get("/rules/", CHARTER_EXAMPLE)


@settings(max_examples=300, deadline=None)
@given(
    code=st.sampled_from(sorted(RULESETS)),
    rating_a=st.integers(0, 3000), games_a=st.integers(0, 60),
    rating_b=st.integers(0, 3000), games_b=st.integers(0, 60),
    pick=st.integers(0, 10),
)
def test_calculator_values_explain_the_engine_change(code, rating_a, games_a, rating_b, games_b, pick):
    ruleset = RULESETS[code]
    result = sorted(ruleset.result_values)[pick % len(ruleset.result_values)]
    calc = game_calculation(ruleset=ruleset, rating_a=rating_a, games_a=games_a, rating_b=rating_b,
                            games_b=games_b, result=result)
    assert (calc.change_a, calc.change_b, calc.k_a, calc.k_b, calc.p_a) == game_change(
        ruleset, rating_a, games_a, rating_b, games_b, result)
    assert round_change(ruleset, calc.raw_a) == calc.change_a
    assert round_change(ruleset, calc.raw_b) == calc.change_b


def _result_options(page: str) -> list[str]:
    select = page[page.index('name="result"'):]
    select = select[:select.index("</select>")]
    return re.findall(r'<option value="([^"]*)"', select)


def test_calculator_offers_only_the_results_of_the_chosen_system(visitor, db):
    adlg = _result_options(text(visitor.get("/rules/")))
    assert adlg == list(get_ruleset("adlg-2018").result_values) and "A+" not in adlg
    battle_empire = _result_options(text(visitor.get("/rules/", {**CHARTER_EXAMPLE, "system": "battle-empire",
                                                                  "result": "A++"})))
    assert "A++" in battle_empire and "DD" not in battle_empire


def test_calculator_gives_the_page_every_systems_results_for_the_script(visitor, db):
    page = text(visitor.get("/rules/"))
    data = re.search(r'data-results="([^"]*)"', page).group(1)
    by_system = json.loads(html.unescape(data))
    assert [code for code, _ in by_system["battle-empire"]] == list(get_ruleset("battle-empire").result_values)
    assert [code for code, _ in by_system["adlg"]] == list(get_ruleset("adlg-2018").result_values)
