"""Each role from signing in to its work, in Debian's Chromium: a player lands on their account's "my
tournaments", a referee on their tournaments, the list checker on the lists waiting, the board on what waits for
it; the header (the phone's menu too) links the role's page. In both languages, at 390 and 1366 px, one browser
context per language and width; every page through the site's checks (axe-core, no sideways scroll, no English on
a French page). Screenshots: test-artifacts/screenshots/roles-<lang>-<role>-<width>.png."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.browser.test_every_page import Page, check, english_phrases

SCREENSHOT_PREFIX = "roles"
WIDTHS = {"screen": (1366, 900), "phone": (390, 844)}
PASSWORD = "a-long-role-pass-42"


@pytest.fixture(autouse=True)
def _own_rate_limits(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"browser-roles-{uuid.uuid4()}"}}


def _federation():
    """A player entered in an announced tournament, its referee, its list checker, a board member."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    from tests.entries.conftest import announce
    from tests.governance.factories import make_club, make_player, make_tournament
    from tournaments.before.entries import entry_register

    users = get_user_model().objects
    referee = users.create_user("arbitre", password=PASSWORD)
    checker = users.create_user("verificateur", password=PASSWORD)
    users.create_user("commission", password=PASSWORD, is_staff=True)
    player_user = users.create_user("joueur", email="joueur@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=player_user, email="joueur@example.org", verified=True, primary=True)
    player = make_player("Lefèvre", "Odile", user=player_user, club=make_club("Les Hoplites"))
    tournament = make_tournament("Tournoi des Listes", referees=[referee])
    announce(tournament, referee, list_checker=checker)
    entry_register(user=player_user, tournament=tournament, pool="A")
    names = [player.full_name, player.last_name, player.first_name, "Les Hoplites", tournament.name,
             tournament.city, "joueur@example.org", "arbitre", "verificateur", "commission", "Salle des fêtes",
             "Antiquity", "L'Art de la Guerre", "Battle Empire"]
    return tournament, sorted(set(names), key=len, reverse=True)


ROLES = [  # login, where it lands, what its page shows
    ("joueur@example.org", r"/accounts/$", "#my-tournaments"),
    ("arbitre", r"/board/tournaments/mine/$", "table.my-tournaments"),
    ("verificateur", r"/board/lists/$", ".lists-waiting"),
    ("commission", r"/board/$", ".waiting"),
]


@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_role_signs_in_and_lands_on_its_work(live_server, new_context, transactional_db, shot, language,
                                                  width):
    from django.conf import settings
    from playwright.sync_api import expect

    tournament, names = _federation()
    phrases = english_phrases()
    w, h = WIDTHS[width]
    context = new_context(viewport={"width": w, "height": h}, locale=language,
                          extra_http_headers={"Accept-Language": language})
    language_cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    for login, lands, work in ROLES:
        context.clear_cookies()
        context.add_cookies([language_cookie])
        page.goto(f"{live_server.url}/")  # from the home page: no destination of its own, the role's page
        if width == "phone":
            page.click(".menu-toggle")
        page.locator(".account a[href^='/accounts/login/']").click()  # the header's, not the footer's
        page.fill("input[name=login]", login)
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        expect(page).to_have_url(re.compile(lands))
        page.wait_for_load_state("load")
        expect(page.locator(work).first).to_be_visible()
        if width == "phone":
            page.click(".menu-toggle")
        home = re.sub(r"[$\\]", "", lands)
        expect(page.locator(f".account a[href='{home}']").first).to_be_visible()
        if width == "phone":
            page.click(".menu-toggle")  # closed again: the page is checked as it opens
        role = login.split("@")[0]
        problems.extend(f"{role} ({language}, {w} px): {problem}" for problem in check(
            page, Page(role, page.url), language=language, width=width, names=names, phrases=phrases))
        shot(page, f"{language}-{role}-{w}")
    assert not problems, "\n".join(problems)
