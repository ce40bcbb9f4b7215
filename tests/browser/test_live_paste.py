"""Several players pasted at once on the day's players page, on a phone (390 px): the referee pastes an ID, a name
without its accents and a name that finds two players; the page lists the ambiguous line with its candidates, fits
the screen and passes axe; the line corrected to an ID, every player is added in one step."""

from __future__ import annotations

from tests.browser.checks import axe_problems, fits

SCREENSHOT_PREFIX = "paste"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


def test_a_referee_pastes_players_checks_them_and_adds_them_at_once_on_a_phone(live_server, new_context, referee,
                                                                               shot):
    from django.utils import timezone
    from playwright.sync_api import expect

    from tests import factories
    from tests.live.helpers import federation_players, live_tournament
    from tournaments.models import LiveEntrant

    live = live_tournament(federation_players(6), start=timezone.localdate())
    live.tournament.referees.add(referee)
    factories.player("Lefèvre", "Benoît", id=301)
    factories.player("Martin", "Paul", id=302)
    factories.player("Martin", "Pierre", id=303)

    page = new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/referee/live/{live.pk}/players/")

    page.get_by_label("IDs or names, one a line").fill("302\nbenoit lefevre\nMartin")
    page.get_by_role("button", name="Check the list").click()
    expect(page.locator(".pasted-ambiguous")).to_contain_text("Pierre Martin (ID 303)")
    assert fits(page), "the checked paste scrolls sideways at 390 px"
    assert axe_problems(page) == []
    shot(page, "1-ambiguous")

    page.get_by_label("IDs or names, one a line").fill("302\nbenoit lefevre\n303")
    page.get_by_role("button", name="Check the list").click()
    page.get_by_role("button", name="Add these 3 players to pool A").click()
    expect(page.get_by_text("3 players added to pool A.")).to_be_visible()
    assert fits(page) and axe_problems(page) == []
    assert set(LiveEntrant.objects.filter(live=live, player_id__in=[301, 302, 303])
               .values_list("player_id", flat=True)) == {301, 302, 303}
