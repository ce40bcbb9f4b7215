"""The numbers that tell the story, at a phone's width (390 px) in both languages, through axe: the calibration page
with its plot, the armies' page, the chances on the live page and at a private link, the player page's "if you
play…" and armies, and the calculator's what-if.

The screenshots (test-artifacts/screenshots/predictions-*.png) come from tests/browser/conftest.py.
"""

from __future__ import annotations

import random

import pytest

from tests.browser.checks import axe_problems, fits

SCREENSHOT_PREFIX = "predictions"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def day(transactional_db):
    from ratings.calibration import calibration_store
    from rules import calibration
    from rules.predictions import chances
    from rules.rulesets import get_ruleset
    from tests import factories
    from tests.live.helpers import federation_players, live_tournament
    from tournaments.live.rounds import round_pair, round_publish
    from tournaments.models import LiveTable, Registration

    adlg = get_ruleset("adlg-2018")
    rng = random.Random(3)
    games = []
    for _ in range(4000):
        diff = int(rng.triangular(0, 700, 0))
        truth = 1 / (1 + 10 ** (-diff / 900))  # ratings spread wider than the results: they over-predict
        games.append((diff, chances(adlg, 1000 + diff, 1000), 1.0 if rng.random() < truth else 0.0))
    calibration_store(factories.system("adlg"), calibration.calibration(adlg, games))
    fed = factories.federation(6)
    for player, army in zip(fed.players, ["Carthaginois", "Romains", "Romains", "Gaulois", "Gaulois", "Numides"],
                            strict=True):
        Registration.objects.filter(player=player).update(army=army)
    players = federation_players(6)
    live = live_tournament(players, players_enter_results=True)
    round_publish(round_pair(live, seed=1))
    table = LiveTable.objects.select_related("a", "b").filter(round__live=live).order_by("table").first()
    return {"live": live, "table": table, "players": players, "federation": fed}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_predictions_pages_on_a_phone(live_server, new_context, shot, day, language):
    from playwright.sync_api import expect

    from tournaments.live.links import entrant_link_path

    locale = "fr-FR" if language == "fr" else "en-GB"
    page = new_context(viewport=PHONE, locale=locale, extra_http_headers={"Accept-Language": language}).new_page()
    players = day["players"]
    pages = {
        "calibration": "/calibration/",
        "armies": "/armies/",
        "live": f"/tournaments/{day['live'].tournament_id}/live/",
        "link": entrant_link_path(day["table"].a),
        "player": f"/players/{players[-1].id}/?against={players[0].id}#what-if",
        "player-armies": f"/players/{day['federation'].players[0].id}/#armies",
        "calculator": "/rules/?system=adlg&rating_a=1000&games_a=0&rating_b=1200&games_b=10&result=A#calculation",
    }
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        assert fits(page), f"{name} scrolls sideways at 390 px"
        assert axe_problems(page) == [], name
        shot(page, f"{name}-{language}")
    page.goto(f"{live_server.url}/calibration/")
    chart = page.locator("svg.calibration-chart").first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 300  # the plot takes the phone's width: its labels stay readable
    verdict = "The ratings over-predict." if language == "en" else "Les cotes surestiment."
    expect(page.locator("p.verdict").first).to_contain_text(verdict)
    shot(chart, f"chart-{language}")
