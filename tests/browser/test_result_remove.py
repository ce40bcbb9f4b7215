"""A referee at 390 px takes back a result entered on the wrong table: the card's folded "Change the result" holds
"Remove this result"; the card then waits for its result again and says so, in French; axe finds nothing serious.

Debian's Chromium; screenshots test-artifacts/screenshots/result-remove-<step>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, fits, sign_in
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

SCREENSHOT_PREFIX = "result-remove"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


def _results_in_french(live_server, new_context, referee, settings, name: str):
    """Round 1 of 8 players published, table 2's result in; the referee signed in at 390 px in French on the
    results page, table 2's "Change the result" unfolded. Returns the tournament, the context and the page."""
    live = live_tournament(federation_players(8, clubs=8), rounds=3, name=name)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=4))
    results_record(live, 1, [Result(2, "A", 10, 40)], user=referee)
    context = new_context(viewport=PHONE, locale="fr-FR")
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, f"/referee/live/{live.pk}/rounds/1/", "referee", "referee-pass-123")
    page.locator("#table-2 summary", has_text="Changer le résultat").click()
    return live, context, page


def test_a_result_on_the_wrong_table_is_removed_from_its_card_on_a_phone(live_server, new_context, referee, shot,
                                                                         settings):
    live, context, page = _results_in_french(live_server, new_context, referee, settings, "Open de la mauvaise table")
    card = page.locator("#table-2")
    remove = card.get_by_role("button", name="Retirer ce résultat")
    expect(remove).to_be_visible()
    shot(card, "unfolded-fr")
    problems = axe_problems(page)
    assert not problems, problems
    remove.click()
    expect(page.get_by_text("Table 2\u00a0: son résultat est retiré\u00a0; la table attend de nouveau son résultat."))\
        .to_be_visible()
    card = page.locator("#table-2")
    expect(card.get_by_role("button", name="Enregistrer le résultat")).to_be_visible()
    expect(card.get_by_role("button", name="Retirer ce résultat")).to_have_count(0)
    assert LiveTable.objects.get(round__live=live, round__number=1, table=2).result == ""
    assert fits(page)
    shot(card, "removed-fr")
    context.close()


def test_a_removal_tapped_with_the_network_gone_waits_and_is_sent_once_it_returns(live_server, new_context, referee,
                                                                                  shot, settings):
    live, context, page = _results_in_french(live_server, new_context, referee, settings, "Open hors ligne")
    card = page.locator("#table-2")
    context.set_offline(True)
    card.get_by_role("button", name="Retirer ce résultat").click()
    expect(card.locator(".offline-status")).to_contain_text("En attente d’envoi")
    assert LiveTable.objects.get(round__live=live, round__number=1, table=2).result == "A"
    shot(card, "waiting-fr")
    context.set_offline(False)
    expect(page.locator("#table-2").get_by_role("button", name="Enregistrer le résultat")).to_be_visible()
    assert LiveTable.objects.get(round__live=live, round__number=1, table=2).result == ""
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('offline-queue:')).length") == 0
    shot(page.locator("#table-2"), "sent-fr")
    context.close()
