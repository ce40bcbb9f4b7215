"""On a phone (390 px) the number people came for is in view: the rating change right after the name, in the
tournament's standings and the player's tournaments, and every abbreviation spelt out on the page.

The screenshots (test-artifacts/screenshots/phone-*.png) come from tests/browser/conftest.py.
"""

from __future__ import annotations

from datetime import date

import pytest

SCREENSHOT_PREFIX = "phone"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def played(transactional_db):
    from tests import factories

    fed = factories.federation(8)
    # Long names and clubs: what pushed the figures past the right edge.
    return factories.rated_tournament(fed.players, name="Grand Tournoi International de la Vallée du Rhône",
                                      start=date(2024, 9, 14), rounds=3, results=["B", "A", "D"])


def _right_edge(locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"]


def test_the_standings_show_the_change_after_the_name_on_a_phone_in_french(live_server, new_context, shot, played):
    from playwright.sync_api import expect

    page = new_context(viewport=PHONE, locale="fr-FR", extra_http_headers={"Accept-Language": "fr"}).new_page()
    page.goto(f"{live_server.url}/tournaments/{played.tournament.id}/")
    table = page.locator("table.standings").first
    expect(table).to_be_visible()
    headers = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    assert headers[:3] == ["#", "Joueur", "Δ Elo"], headers
    first_change = table.locator("tbody tr").first.locator("td").nth(2)
    assert first_change.inner_text().strip()[0] in "+−0", first_change.inner_text()
    assert _right_edge(first_change) <= PHONE["width"]  # in view without scrolling the table
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the page never scrolls sideways
    legend = page.locator("section.pool dl.legend").first
    expect(legend).to_be_visible()
    for word in ("Δ Elo", "Adv.", "G/N/P", "Pén."):
        expect(legend.locator("dt", has_text=word).first).to_be_visible()
    shot(page, "standings-fr")
    # the standings alone, at the phone's own scale (the full page is too tall to read once shrunk)
    shot(page.locator("section.pool").first, "standings-fr-pool")


def test_the_players_tournaments_show_the_change_after_the_name_on_a_phone(live_server, new_context, shot, played):
    page = new_context(viewport=PHONE, locale="fr-FR", extra_http_headers={"Accept-Language": "fr"}).new_page()
    player = played.tournament.registrations.first().player
    page.goto(f"{live_server.url}/players/{player.id}/")
    table = page.locator("table.player-tournaments").first
    change = table.locator("tbody tr").first.locator("td").nth(1)
    assert change.inner_text().strip()[0] in "+−0"
    assert _right_edge(change) <= PHONE["width"]
    shot(page, "player-fr")
    shot(table, "player-fr-tournaments")
