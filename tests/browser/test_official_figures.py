"""On a phone (390 px), in English and in French, the rating list and the player's page say which figures they
show: live (after the last tournament rated) or an official list, and the player's page shows both when they differ;
axe finds nothing serious on either, nor on the official list's page, the changes page or the open-data page.

The screenshots (test-artifacts/screenshots/official-*.png) come from tests/browser/conftest.py.
"""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from ratings.models import PlayerRating, RatingSystem
from ratings.official_lists import list_issue
from ratings.open_data import open_data_rebuild
from tests import factories
from tests.browser.checks import axe_problems, fits

SCREENSHOT_PREFIX = "official"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {"list": "Shown: live ratings, after the last tournament rated", "player": "Shown: live figures",
           "official": "Official list no. 1 of", "shown_list": "Shown: official list no. 1 of"},
    "fr": {"list": "Affiché\u00a0: cotes en direct, après le dernier tournoi intégré",
           "player": "Affiché\u00a0: chiffres en direct", "official": "Liste officielle n°\u00a01 du",
           "shown_list": "Affiché\u00a0: liste officielle n°\u00a01 du"},
}


@pytest.fixture
def listed(transactional_db):
    fed = factories.federation(8)
    adlg = RatingSystem.objects.get(code="adlg")
    list_issue(system=adlg, on=date(2024, 4, 1))
    # A tournament rated after the list: the live figures of its players differ from the list's.
    factories.rated_tournament(fed.players, name="Grand Tournoi International de la Vallée du Rhône",
                               start=date(2024, 9, 14), rounds=2, results=["A", "B"])
    list_issue(system=adlg, on=date(2024, 10, 1))
    PlayerRating.objects.filter(player=fed.players[0], system_id="adlg").update(rating=1999)
    open_data_rebuild()
    return fed


def _phone(new_context, language: str):
    locale = "fr-FR" if language == "fr" else "en-GB"
    return new_context(viewport=PHONE, locale=locale, extra_http_headers={"Accept-Language": language}).new_page()


def _checked(page, where: str) -> list[str]:
    problems = [f"{where}: axe {problem}" for problem in axe_problems(page)]
    if not fits(page):
        problems.append(f"{where}: scrolls sideways at 390 px")
    return problems


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_pages_say_which_figures_they_show_on_a_phone(live_server, new_context, shot, listed, language):
    words = WORDS[language]
    page = _phone(new_context, language)
    problems = []

    page.goto(f"{live_server.url}/ratings/adlg/")
    shown = page.locator("#figures-shown")
    expect(shown).to_be_visible()
    expect(shown).to_contain_text(words["list"])
    expect(page.locator("nav.figures-tabs")).to_contain_text(words["official"].replace("1", "2"))
    problems += _checked(page, "rating list")
    shot(page, f"rating-list-{language}", full_page=False)

    page.goto(f"{live_server.url}/players/{listed.players[0].id}/")
    expect(page.locator(".figures-shown").first).to_contain_text(words["player"])
    official = page.locator(".official-figures").first
    expect(official).to_be_visible()
    expect(official).to_contain_text(words["official"].replace("1", "2"))
    problems += _checked(page, "player")
    shot(page, f"player-{language}", full_page=False)

    page.goto(f"{live_server.url}/ratings/adlg/lists/1/")
    expect(page.locator("#figures-shown")).to_contain_text(words["shown_list"])
    problems += _checked(page, "official list")
    shot(page, f"list-{language}", full_page=False)

    page.goto(f"{live_server.url}/ratings/adlg/lists/2/changes/")
    expect(page.locator("table.list-changes")).to_be_visible()
    problems += _checked(page, "changes")
    shot(page, f"changes-{language}")

    page.goto(f"{live_server.url}/ratings/adlg/lists/")
    problems += _checked(page, "lists")

    page.goto(f"{live_server.url}/open-data/")
    expect(page.locator("#open-data-zip")).to_be_visible()
    problems += _checked(page, "open data")
    shot(page, f"open-data-{language}", full_page=False)
    assert not problems, problems
