"""The public calibration page: what the worker stored, in words, a table and a plot, in English and French."""

from __future__ import annotations

import random

import pytest

from ratings import calibration as service
from rules import calibration
from rules.elo import expected_score
from rules.rulesets import get_ruleset
from tests import factories
from tests.public.conftest import text


def _games(ruleset, n: int, *, truth_scale: float, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(n):
        diff = int(rng.triangular(0, 700, 0))
        truth = 1 / (1 + 10 ** (-diff / truth_scale))
        yield diff, expected_score(ruleset, 1000 + diff, 1000), 1.0 if rng.random() < truth else 0.0


@pytest.fixture
def over_predicting(db):
    system = factories.system("adlg")
    factories.system("battle-empire")
    result = calibration.calibration(get_ruleset("adlg-2018"), _games(get_ruleset("adlg-2018"), 5000,
                                                                       truth_scale=1000))
    assert result.verdict == calibration.OVER
    return service.calibration_store(system, result)


def test_the_page_says_the_ratings_over_predict_when_they_do(visitor, over_predicting, monkeypatch,
                                                             django_assert_max_num_queries):
    def never(*args, **kwargs):
        raise AssertionError("the page computed the calibration")

    monkeypatch.setattr(calibration, "calibration", never)
    with django_assert_max_num_queries(4):
        page = text(visitor.get("/calibration/"))
    assert "The ratings over-predict." in page
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="calibration-chart" id="calibration-adlg"' in page
    assert "500 and more" in page and "(below the prediction)" in page
    assert "From 5000 rated games" in page
    # Battle Empire has none yet, and says so.
    assert "Not worked out yet" in page


def test_the_page_in_french(french_visitor, over_predicting):
    page = text(french_visitor.get("/calibration/"))
    assert "Les cotes surestiment." in page
    assert "500 et plus" in page


def test_a_band_under_the_minimum_sample_shows_no_share(visitor, db):
    system = factories.system("adlg")
    games = [(10, 0.51, 1.0)] * 25 + [(620, 0.94, 0.0)] * 3
    service.calibration_store(system, calibration.calibration(get_ruleset("adlg-2018"), games))
    page = text(visitor.get("/calibration/"))
    assert page.count("too few games") == 1
    row = page[page.index("500 and more"):]
    row = row[:row.index("</tr>")]
    assert "too few games" in row and row.count("%") == 1  # its prediction only: three losses are not a share


def test_the_calibration_is_worked_out_from_the_stored_history(db):
    factories.federation(6)
    row = service.calibration_refresh(system_code="adlg")
    assert row.games == len({g for g in _played_games()})
    assert service.stored_calibration(row).games == row.games


def _played_games():
    from ratings.models import RatingEvent

    return RatingEvent.objects.filter(kind=RatingEvent.GAME).values_list("game_id", flat=True)


def test_the_player_page_says_what_a_game_against_another_player_would_do(client, db):
    strong, weak = factories.player("Fort", "Jean"), factories.player("Faible", "Paul")
    factories.rating(strong, value=1200, games=20)
    factories.rating(weak, value=1000, games=3)
    page = text(client.get(f"/players/{weak.id}/?against={strong.id}", HTTP_ACCEPT_LANGUAGE="en"))
    # 1000 against 1200: 28 %; K 50 for a player of 3 games; a win +35 (the charter's example).
    assert "chances 28\u00a0%" in page and "underdog" in page
    assert "<td class=\"num\">1035 (<span class=\"up\">+35</span>)</td>" in page
    page = text(client.get(f"/players/{weak.id}/?against={strong.id}", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "chances 28\u00a0%" in page and "outsider" in page and "une victoire" in page
    page = text(client.get(f"/players/{weak.id}/?against=abc", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Give the ID of another player" in page


def test_the_calculator_says_each_players_chances_and_rating_after_each_result(visitor, db):
    factories.system("adlg")
    page = text(visitor.get("/rules/?system=adlg&rating_a=1000&games_a=0&rating_b=1200&games_b=10&result=A"))
    assert "Player A: chances 28\u00a0%" in page and "Player B: chances 72\u00a0%" in page
    table = page[page.index('id="what-if-a"'):]
    table = table[:table.index("</table>")]
    assert "a win" in table and "1035" in table and "a draw" in table and "a loss" in table
