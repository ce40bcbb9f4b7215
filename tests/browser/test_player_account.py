"""A player's own account, in Debian's Chromium: sign up, confirm the address (the test reads the email the
in-process worker sent), claim the federation record, the board confirms it in its queue, the player finds "my
page" in the menu and downloads their data. In English and in French; every page on the way is looked at on a
screen (1366 px) and a phone (390 px): no sideways scroll, axe-core clean, no English on a French page.
Screenshots: test-artifacts/screenshots/account-<lang>-<step>-<width>.png."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import pytest

from tests.browser.checks import resize
from tests.browser.test_every_page import Page, check, english_phrases

SCREENSHOT_PREFIX = "account"
WIDTHS = {"screen": (1366, 900), "phone": (390, 844)}
PASSWORD = "a-long-player-pass-42"


@pytest.fixture(autouse=True)
def _own_rate_limits(settings):
    """allauth counts sign-ups and emails per address in the cache: a fresh, empty one for this test."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"browser-accounts-{uuid.uuid4()}"}}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_player_signs_up_claims_their_record_and_downloads_their_data(live_server, new_context, transactional_db,
                                                                        board, shot, language):
    from django.conf import settings
    from django.core import mail
    from playwright.sync_api import expect

    from players.models import Club, Player, PlayerClaim
    from players.permissions import player_of
    from tests import factories
    from tournaments.models import Tournament

    federation = factories.federation(8)
    me = sorted(federation.players, key=lambda p: p.pk)[0]
    email = f"{me.first_name.lower()}.{language}@example.org"
    names = [p.full_name for p in Player.objects.all()] + [p.last_name for p in Player.objects.all()]
    names += [p.first_name for p in Player.objects.all()] + list(Club.objects.values_list("name", flat=True))
    names += [n for pair in Tournament.objects.values_list("name", "city") for n in pair]
    names += [email, "board", "JSON", "L'Art de la Guerre", "Battle Empire"]
    names = sorted({n for n in names if n}, key=len, reverse=True)
    phrases = english_phrases()
    problems: list[str] = []

    def look(page, step: str) -> None:
        """The page as it is now, at both widths: checked, and a screenshot of each."""
        page.wait_for_load_state("load")  # a form just sent: never check the page between two documents
        for width, (w, h) in WIDTHS.items():
            resize(page, w, h)
            target = Page(step, page.url)
            problems.extend(f"{step} ({language}, {w} px): {problem}" for problem in check(
                page, target, language=language, width=width, names=names, phrases=phrases))
            shot(page, f"{language}-{step}-{w}")
        page.set_viewport_size({"width": 1366, "height": 900})


    def new_page():
        context = new_context(viewport={"width": 1366, "height": 900}, locale=language,
                                      extra_http_headers={"Accept-Language": language}, accept_downloads=True)
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    page = new_page()

    # The sign-in page offers to create an account; the sign-up page asks for an address and a password.
    page.goto(f"{live_server.url}/accounts/login/")
    look(page, "1-sign-in")
    page.locator("main a[href='/accounts/signup/']").first.click()
    page.fill("input[name=email]", email)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    look(page, "2-sign-up")
    page.click("main button[type=submit]")
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    look(page, "3-check-your-email")

    # The confirmation, sent by the worker (in-process here): the test reads it.
    sent = [message for message in mail.outbox if email in message.to]
    assert len(sent) == 1, [m.to for m in mail.outbox]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", sent[0].body).group(0)
    page.goto(link)
    look(page, "4-confirm")
    page.click("main button[type=submit]")
    expect(page).to_have_url(re.compile(r"/accounts/$"))
    look(page, "5-account")

    # Find the record by name and ask for it.
    page.locator("main a[href='/accounts/claim/']").click()
    page.fill("#claim-q", me.last_name)
    page.click("main form[role=search] button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/claim/\?(.*&)?q="))
    look(page, "6-find")
    page.locator(f"main a[href='/accounts/claim/{me.pk}/']").click()
    page.fill("textarea[name=message]", "Club, tournois : voir la fiche" if language == "fr" else "Same club")
    look(page, "7-ask")
    page.click("main form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/accounts/$"))
    assert PlayerClaim.objects.filter(player=me, status=PlayerClaim.PENDING).exists()
    look(page, "8-waiting")

    # The board confirms it in its queue.
    board_page = new_page()
    board_page.goto(f"{live_server.url}/accounts/login/?next=/board/claims/")
    board_page.fill("input[name=login]", "board")
    board_page.fill("input[name=password]", "board-pass-123")
    board_page.click("main button[type=submit]")
    expect(board_page).to_have_url(re.compile(r"/board/claims/$"))
    expect(board_page.locator("main")).to_contain_text(email)
    look(board_page, "9-board-queue")
    # On the word alone: the board says how it checked (required to confirm).
    board_page.select_option("main select[name$=checked_how]", "club")
    board_page.fill("main textarea[name$=note]", "Appel au club" if language == "fr" else "Phoned the club")
    board_page.click("main button[name=decision][value=confirm]")
    expect(board_page.locator(".messages")).to_be_visible()
    look(board_page, "10-board-confirmed")
    board_page.context.close()

    # The player: "my page" in the menu, their own page, and their data.
    page.reload()
    linked = player_of(Player.objects.get(pk=me.pk).user)
    assert linked is not None and linked.pk == me.pk
    my_page = page.locator(f".account a[href='/players/{me.pk}/']")
    expect(my_page).to_have_count(1)
    look(page, "11-linked")
    my_page.click()
    expect(page.locator("h1")).to_contain_text(me.last_name)
    page.goto(f"{live_server.url}/accounts/")
    with page.expect_download() as download:
        page.locator("main a[href='/accounts/my-data.json']").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["player"]["id"] == me.pk and data["account"]["email_addresses"][0]["email"] == email
    assert data["player"]["games"] and data["player"]["rating_history"]

    # And the menu on a phone: folded, then open with "my page" and the account in it.
    page.set_viewport_size({"width": 390, "height": 844})
    page.click(".menu-toggle")
    expect(page.locator(f"#site-menu a[href='/players/{me.pk}/']")).to_be_visible()
    expect(page.locator("#site-menu a[href='/accounts/']")).to_be_visible()
    shot(page, f"{language}-12-phone-menu-390", full_page=False)

    assert not problems, "\n".join(problems)
