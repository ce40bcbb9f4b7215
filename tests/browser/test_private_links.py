"""The players' private links on their own phones (PAIRING.md §6), in English and in French at 390 px: the two players
of table 1 enter the same result through their links (it counts, and each sees it); those of table 2 enter different
ones (each sees the other's); the referee, on a third phone, sees both versions side by side and settles the table in
one tap; only one player of table 3 enters, and the referee counts that entry in one tap (the other player's page
says the referee counted it); then gives a player a new link, and the old one is refused with the page that says to
ask the referee. Every page passes axe's serious and critical checks and fits the phone's width.

Debian's Chromium; screenshots test-artifacts/screenshots/private-links-<language>-<step>.png
(tests/browser/conftest.py).
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.checks import axe_problems, fits
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.links import entrant_link_path
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.selectors import entrant_name
from tournaments.models import LiveTable

SCREENSHOT_PREFIX = "private-links"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}

WORDS = {
    "en": {"waiting": "Waiting for", "entered": "entered:", "counted": "Counted.",
           "by_referee": "Counted by the referee.", "differ": "entered different "
           "results: the referee will settle it.", "settle": "Two different entries: settle the table.",
           "counts": "Counts as:", "count": "Count this result ({name})", "gone": "This link no longer works",
           "ask": "Ask the referee for your link.", "new_link": "New link", "private": "Private link",
           "renewed": "has a new private link"},
    "fr": {"waiting": "En attente de", "entered": "a saisi", "counted": "Retenu.",
           "by_referee": "Retenu par l’arbitre.", "differ": "avez saisi des "
           "résultats différents", "settle": "Deux saisies différentes", "counts": "Compte pour",
           "count": "Retenir ce résultat ({name})", "gone": "Ce lien ne fonctionne plus",
           "ask": "Demandez votre lien à l’arbitre.", "new_link": "Nouveau lien", "private": "Lien personnel",
           "renewed": "a un nouveau lien personnel"},
}


def _phone(new_context, live_server, language: str):
    context = new_context(viewport=PHONE, locale="fr-FR" if language == "fr" else "en-GB", is_mobile=True,
                          has_touch=True)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _send(page, code: str, a_losses: int, b_losses: int) -> None:
    form = page.locator("form[data-offline-queue]")
    form.locator(f"input[name=result][value='{code}']").check()
    form.locator("input[name=a_losses]").fill(str(a_losses))
    form.locator("input[name=b_losses]").fill(str(b_losses))
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_players_enter_their_results_through_their_links_and_the_referee_settles(live_server, new_context,
                                                                                  referee, shot, language):
    words = WORDS[language]
    live = live_tournament(federation_players(6, clubs=6), rounds=3, name=f"Open des liens {language}",
                           players_enter_results=True)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    one, two, three = LiveTable.objects.filter(round__live=live).select_related("a", "b").order_by("table")
    url = {e.pk: live_server.url + entrant_link_path(e) for e in (one.a, one.b, two.a, two.b, three.a, three.b)}

    def check(page, step: str) -> None:
        assert fits(page), f"{step}: the page scrolls sideways"
        shot(page, f"{language}-{step}")
        problems = axe_problems(page)
        assert not problems, problems

    # 1. Table 1: A enters a result on their phone; it waits for B, and the form keeps what A typed.
    phone_a = _phone(new_context, live_server, language)
    phone_a.goto(url[one.a.pk])
    expect(phone_a.locator("h1")).to_have_text(entrant_name(one.a))
    check(phone_a, "1-link")
    _send(phone_a, "A", 20, 60)
    expect(phone_a.locator(".claim-state")).to_contain_text(f"{words['waiting']} {entrant_name(one.b)}")
    expect(phone_a.locator("input[name=result][value='A']")).to_be_checked()
    expect(phone_a.locator("input[name=a_losses]")).to_have_value("20")
    check(phone_a, "2-waiting")

    # 2. B sees what A entered, enters the same: it counts, and A sees it too.
    phone_b = _phone(new_context, live_server, language)
    phone_b.goto(url[one.b.pk])
    expect(phone_b.locator(".claim-state")).to_contain_text(f"{entrant_name(one.a)} {words['entered']}")
    _send(phone_b, "A", 20, 60)
    expect(phone_b.locator(".claim-state")).to_contain_text(words["counted"])
    expect(phone_b.locator("form[data-offline-queue]")).to_have_count(0)
    check(phone_b, "3-counted")
    phone_a.reload()
    expect(phone_a.locator(".claim-state")).to_contain_text(words["counted"])
    one.refresh_from_db()
    assert (one.result, one.a_losses, one.b_losses) == ("A", 20, 60)

    # 3. Table 2: two different results; each player is told the referee will settle it.
    phone_c = _phone(new_context, live_server, language)
    phone_c.goto(url[two.a.pk])
    _send(phone_c, "A", 10, 70)
    phone_d = _phone(new_context, live_server, language)
    phone_d.goto(url[two.b.pk])
    _send(phone_d, "B", 70, 10)
    expect(phone_d.locator(".claim-differs")).to_contain_text(words["differ"])
    check(phone_d, "4-different")

    # 4. The referee, on a third phone, sees both versions side by side and counts D's in one tap.
    desk = _phone(new_context, live_server, language)
    desk.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{live.pk}/rounds/1/")
    desk.fill("input[name=login]", "referee")
    desk.fill("input[name=password]", "referee-pass-123")
    desk.click("main button[type=submit]")
    card = desk.locator(f"#table-{two.table}")
    expect(card.locator(".disputed")).to_contain_text(words["settle"])
    expect(card.locator(".version")).to_have_count(2)
    check(desk, "5-referee-sees-both")
    card.get_by_role("button", name=re.compile(re.escape(words["count"].format(name=entrant_name(two.b))))).click()
    expect(desk.locator(f"#table-{two.table} .entered")).to_contain_text(words["counts"])
    check(desk, "6-settled")
    two.refresh_from_db()
    assert (two.result, two.a_losses, two.b_losses) == ("B", 70, 10)
    phone_c.reload()
    expect(phone_c.locator(".claim-state")).to_contain_text(words["by_referee"])

    # 4b. Table 3: only A entered (B forgot); the referee counts A's entry in one tap, and B's page says so.
    phone_e = _phone(new_context, live_server, language)
    phone_e.goto(url[three.a.pk])
    _send(phone_e, "D", 40, 40)
    expect(phone_e.locator(".claim-state")).to_contain_text(f"{words['waiting']} {entrant_name(three.b)}")
    desk.reload()
    single = desk.locator(f"#table-{three.table}")
    expect(single.locator(".single-entry")).to_contain_text(f"{entrant_name(three.a)} {words['entered']}")
    single.get_by_role("button", name=re.compile(re.escape(words["count"].format(name=entrant_name(three.a))))).click()
    expect(desk.locator(f"#table-{three.table} .entered")).to_contain_text(words["counts"])
    three.refresh_from_db()
    assert (three.result, three.a_losses, three.b_losses) == ("D", 40, 40)
    phone_f = _phone(new_context, live_server, language)
    phone_f.goto(url[three.b.pk])
    expect(phone_f.locator(".claim-state")).to_contain_text(words["by_referee"])
    check(phone_f, "6b-counted-for-both")

    # 5. A new link for A (a lost slip), confirmed first: A's old link is refused with the page to ask the referee.
    desk.goto(f"{live_server.url}/referee/live/{live.pk}/players/")
    row = desk.locator("li", has=desk.locator(f"#link-{one.a.pk}"))
    row.locator("details.private-link summary").click()
    expect(row.locator(f"#link-{one.a.pk}")).to_have_value(url[one.a.pk])
    check(desk, "7-players-links")
    row.locator("input[name=confirm]").check()
    row.get_by_role("button", name=words["new_link"]).click()
    expect(desk.locator(".messages")).to_contain_text(words["renewed"])
    phone_a.reload()
    expect(phone_a.locator("h1")).to_have_text(words["gone"])
    expect(phone_a.locator("main")).to_contain_text(words["ask"])
    check(phone_a, "8-revoked")
    one.a.refresh_from_db()
    phone_a.goto(live_server.url + entrant_link_path(one.a))
    expect(phone_a.locator("h1")).to_have_text(entrant_name(one.a))


def test_a_player_links_their_record_to_their_account_through_their_private_link_on_a_phone(
        live_server, new_context, shot):
    from players.models import Player
    from tests.accounts.helpers import PASSWORD, account

    live = live_tournament(federation_players(4, clubs=4), rounds=3, name="Open du rattachement")
    round_publish(round_pair(live, seed=1))
    entrant = live.entrants.exclude(player=None).first()
    user = account("me@example.org")
    phone = _phone(new_context, live_server, "en")
    phone.goto(f"{live_server.url}/accounts/login/?next=/accounts/")
    phone.fill("input[name=login]", user.get_username())
    phone.fill("input[name=password]", PASSWORD)
    phone.click("main button[type=submit]")
    expect(phone).to_have_url(re.compile(r"/accounts/$"))
    phone.goto(live_server.url + entrant_link_path(entrant))
    button = phone.get_by_role("button", name="Link this record to my account")
    expect(button).to_be_visible()
    assert fits(phone)
    problems = axe_problems(phone)
    assert not problems, problems
    shot(phone, "claim")
    button.click()
    expect(phone).to_have_url(re.compile(r"/accounts/$"))
    expect(phone.get_by_text(f"Your account is linked to record {entrant.player_id}")).to_be_visible()
    player = Player.objects.get(pk=entrant.player_id)
    assert player.user == user and player.link_proof == Player.PROOF_TOKEN
