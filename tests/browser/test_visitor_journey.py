"""A visitor finds a player, reads the chart, switches to French, filters the rating list and downloads it.

The browser and the screenshots (test-artifacts/screenshots/public-*.png) come from tests/browser/conftest.py.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

SCREENSHOT_PREFIX = "public"  # see tests/browser/conftest.py


@pytest.fixture
def federation(transactional_db):
    from datetime import date

    from tests import factories

    fed = factories.federation(8)
    anne = fed.players[0]
    factories.rated_tournament(fed.players[:4], name="Coupe de Lyon", start=date(2024, 9, 14), rounds=3,
                               results=["B", "A", "D"])
    factories.adjustment(anne, year=2024, before=anne.ratings.get().rating, after=anne.ratings.get().rating - 50)
    factories.championship_totals(2024)
    return fed


def test_a_visitor_finds_a_player_switches_to_french_and_downloads_the_list(live_server, browser_page, shot,
                                                                            federation):
    from playwright.sync_api import expect

    page = browser_page
    player = federation.players[0]  # Dupont, a French player of Les Aigles

    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Ratings and championship of the federation")).to_be_visible()
    expect(page.get_by_role("link", name="Ratings", exact=True)).to_be_visible()
    shot(page, "1-home")

    # The search box of the header: a name gives a list of results, the player's link opens the page.
    page.fill("#header-q", player.last_name)
    page.press("#header-q", "Enter")
    expect(page.get_by_text("1 player matches")).to_be_visible()
    shot(page, "2-search")
    page.get_by_role("link", name=f"{player.last_name}, {player.first_name}").click()
    expect(page.get_by_role("heading", name=player.full_name)).to_be_visible()

    # The rating history is an SVG drawn by the server, with a mark per tournament.
    chart = page.locator("svg.rating-chart").first
    expect(chart).to_be_visible()
    assert chart.locator("circle.marker.tournament").count() == 2
    assert chart.locator("polygon.marker.adjustment").count() == 1
    shot(page, "3-player")

    # The language switch: the same page, in French.
    page.get_by_role("button", name="FR").click()
    expect(page.get_by_role("heading", name="Face-à-face")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    shot(page, "4-player-fr")

    # The rating list, filtered by country.
    page.get_by_role("link", name="Cotes Elo", exact=True).click()
    expect(page.get_by_role("heading", name="Liste Elo — L'Art de la Guerre")).to_be_visible()
    page.select_option("#id_country", "FR")
    page.get_by_role("button", name="Afficher").click()
    rows = page.locator("table.rating-list tbody tr")
    french = [p for p in federation.players if p.country_id == "FR"]
    expect(rows).to_have_count(len(french))
    shot(page, "5-rating-list-fr")

    # The CSV download has the same filter.
    with page.expect_download() as download_info:
        page.click("#download-csv")
    content = Path(download_info.value.path()).read_text(encoding="utf-8")
    lines = list(csv.reader(io.StringIO(content), delimiter=";"))  # a French spreadsheet splits on semicolons
    assert lines[0][:4] == ["position", "ID", "nom", "prénom"]
    assert sorted(int(line[1]) for line in lines[1:]) == sorted(p.id for p in french)

    # The other pages, for the record (and to see that they render in a real browser).
    page.goto(f"{live_server.url}/tournaments/{federation.tournament.id}/")
    expect(page.get_by_role("heading", name="Grille américaine")).to_be_visible()
    shot(page, "6-tournament-fr")
    page.get_by_role("link", name="Championnat", exact=True).click()
    expect(page.get_by_role("heading", name="Championnat 2024")).to_be_visible()
    shot(page, "7-championship-fr")
    page.get_by_role("button", name="EN").click()
    page.get_by_role("link", name="Rules", exact=True).click()
    page.fill("#id_rating_a", "1000")
    page.fill("#id_rating_b", "1200")
    page.get_by_role("button", name="Compute").click()
    expect(page.locator("#calc-change-a")).to_have_text("+35")
    shot(page, "8-rules")
    page.get_by_role("link", name="Tournaments", exact=True).click()
    expect(page.get_by_role("heading", name="Tournaments", exact=True)).to_be_visible()
    shot(page, "9-tournaments")
