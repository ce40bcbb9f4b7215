"""Before the tournament, in Debian's Chromium, the whole journey: the referee announces the tournament;
a player signs up on a phone, confirms the address (the test reads the email the in-process worker sent), links
the account to their federation record by the private link a tournament day handed them, enters the tournament
and sends an army list; the list checker returns it with a
comment; the player sends it again; the checker marks it compliant; on the day the referee starts the tournament
with the entered players and pairs round 1 from them.
Once entries are closed and every list is compliant, the lists are published on the tournament's page.

The player acts on a phone in English, the checker at a desk in French, the referee at a desk in English; every
page of the journey is also looked at at 390 and 1366 px in both languages: it fits (no sideways scroll) and
passes axe-core with no serious or critical violation. Screenshots: test-artifacts/screenshots/before-*.png.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest

from tests.browser.checks import axe_problems, fits
from tournaments.demo import list_pdf

SCREENSHOT_PREFIX = "before"  # see tests/browser/conftest.py
PHONE, DESK = {"width": 390, "height": 844}, {"width": 1366, "height": 900}
PDF = list_pdf("Later Carthaginian")  # a one-page PDF a reader opens, as a list builder prints
EMAIL, PASSWORD = "joueur.listes@example.org", "a-long-player-pass-42"


@pytest.fixture(autouse=True)
def _own_rate_limits(settings):
    """allauth counts sign-ups and emails per address in the cache: a fresh, empty one for this test."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"browser-before-{uuid.uuid4()}"}}


def _context(new_context, live_server, *, viewport, language):
    from django.conf import settings

    context = new_context(viewport=viewport, locale=language, extra_http_headers={"Accept-Language": language},
                          is_mobile=viewport == PHONE, has_touch=viewport == PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _sign_in(page, live_server, username, password, next_url):
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")


def _look(new_context, live_server, page, name, shot, problems, tabs):
    """The page `page` shows, opened again as the same user (their cookies) at both widths in both languages: it
    must fit and pass axe; a screenshot of each. `tabs` keeps a tab for each language and width for the test: a
    context for each look started a renderer process for each."""
    from django.conf import settings

    url, cookies = page.url, page.context.cookies()
    for language in ("en", "fr"):
        for label, viewport in (("390", PHONE), ("1366", DESK)):
            if (language, label) not in tabs:
                tabs[language, label] = _context(new_context, live_server, viewport=viewport, language=language)
            other = tabs[language, label]
            other.context.clear_cookies()
            other.context.add_cookies([*(c for c in cookies if c["name"] != settings.LANGUAGE_COOKIE_NAME),
                                       {"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                                        "url": live_server.url}])
            response = other.goto(url)
            where = f"{name} in {language} at {label} px"
            if response.status != 200:
                problems.append(f"{where}: status {response.status}")
            if other.evaluate("document.documentElement.lang") != language:
                problems.append(f"{where}: the page is not in {language}")
            if not fits(other):
                problems.append(f"{where}: scrolls sideways")
            problems += [f"{where}: axe {problem}" for problem in axe_problems(other)]
            shot(other, f"{name}-{language}-{label}")


@pytest.mark.slow
def test_a_player_signs_up_links_their_record_enters_sends_a_list_resends_it_and_round_1_is_paired_from_entries(
        live_server, new_context, referee, shot, tmp_path):
    from django.contrib.auth import get_user_model
    from django.core import mail
    from django.utils import timezone
    from playwright.sync_api import expect

    from players.claims import claim_token_issue
    from players.models import Player
    from tests.governance.factories import make_tournament
    from tests.live.helpers import federation_players
    from tournaments.models import Announcement, ArmyList, Entry, LiveEntrant, LiveTable

    today = timezone.localdate()
    players = federation_players(8)
    me = players[0]
    played = make_tournament("Tournoi de la semaine dernière", start=today - timedelta(days=6))
    checker = get_user_model().objects.create_user("checker", password="checker-pass-123")
    tournament = make_tournament("Open des Listes", start=today + timedelta(days=30), referees=[referee])
    tournament.referee_name = "Ref Erée"
    tournament.save()
    deadline = tournament.start_date - timedelta(days=10)
    pdf = tmp_path / "carthage.pdf"
    pdf.write_bytes(PDF)
    problems, tabs = [], {}


    # The referee announces the tournament (App. 1 §12) from their tournaments' page.
    ref = _context(new_context, live_server, viewport=DESK, language="en")
    _sign_in(ref, live_server, "referee", "referee-pass-123", "/board/tournaments/mine/")
    ref.get_by_role("link", name="Announcement", exact=True).click()
    expect(ref.get_by_role("heading", name="Announcement: Open des Listes")).to_be_visible()
    ref.get_by_label("Army lists deadline").fill(deadline.isoformat())
    ref.get_by_label("List checker's user name").fill("checker")
    ref.get_by_label("Publish every list on the tournament's page before the start").check()
    ref.get_by_label("Pairing of the first game", exact=True).select_option("draw")
    ref.get_by_label("Theme").fill("Carthage and its enemies")
    ref.get_by_label("Allowed armies and allies").fill("Carthaginian, Roman, Numidian, Syracusan")
    ref.get_by_role("button", name="Save the announcement").click()
    expect(ref.get_by_text("The announcement is saved")).to_be_visible()
    assert Announcement.objects.get().list_checker == checker
    _look(new_context, live_server, ref, "1-announcement-edit", shot, problems, tabs)
    # The other seven players entered already, their lists compliant.
    for player in players[1:]:
        entry = Entry.objects.create(tournament=tournament, player=player, pool="A")
        ArmyList.objects.create(entry=entry, army_name="Roman", army_number=str(player.pk), kind="link",
                                url="https://www.littlearmybuilder.com/", status=ArmyList.COMPLIANT)

    # The player signs up on a phone and confirms the address: the worker (in-process here) sent the email.
    phone = _context(new_context, live_server, viewport=PHONE, language="en")
    phone.goto(f"{live_server.url}/accounts/signup/")
    phone.fill("input[name=email]", EMAIL)
    phone.fill("input[name=password1]", PASSWORD)
    phone.fill("input[name=password2]", PASSWORD)
    phone.click("main button[type=submit]")
    expect(phone).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    sent = [message for message in mail.outbox if EMAIL in message.to]
    assert len(sent) == 1, [m.to for m in mail.outbox]
    phone.goto(re.search(r"https?://\S+/accounts/confirm-email/\S+/", sent[0].body).group(0))
    phone.click("main button[type=submit]")
    expect(phone).to_have_url(re.compile(r"/accounts/$"))
    # The private link of last week's tournament day links the account to their record at once.
    phone.goto(f"{live_server.url}/accounts/claim/token/{claim_token_issue(player=me, tournament=played)}/")
    _look(new_context, live_server, phone, "0-claim-link", shot, problems, tabs)
    phone.get_by_role("button", name="Link my account").click()
    expect(phone).to_have_url(re.compile(r"/accounts/$"))
    assert Player.objects.get(pk=me.pk).user.email == EMAIL

    # The player, on the phone: the announcement, then their entry.
    phone.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(phone.get_by_role("heading", name="Announcement")).to_be_visible()
    expect(phone.locator("#announcement")).to_contain_text("Carthage and its enemies")
    expect(phone.locator("#announcement")).to_contain_text("2\u00a0h\u00a030")
    _look(new_context, live_server, phone, "2-tournament", shot, problems, tabs)
    phone.get_by_role("link", name="Enter this tournament").click()
    _look(new_context, live_server, phone, "3-enter", shot, problems, tabs)
    phone.get_by_label("List me without my name until the tournament starts").check()
    phone.get_by_role("button", name="Enter", exact=True).click()
    expect(phone.get_by_text("You are entered.")).to_be_visible()
    phone.get_by_label("Army", exact=True).fill("Carthaginian")
    phone.get_by_label("Army number").fill("45")
    phone.get_by_label("List file").set_input_files(str(pdf))
    phone.get_by_role("button", name="Send the list").click()
    expect(phone.get_by_text("Your army list is sent")).to_be_visible()
    _look(new_context, live_server, phone, "4-list-sent", shot, problems, tabs)
    mine = Entry.objects.get(player=me)
    assert mine.listed_without_name and ArmyList.objects.get(entry=mine).kind == "pdf"

    # The list checker, at a desk in French, returns it with a comment.
    desk = _context(new_context, live_server, viewport=DESK, language="fr")
    _sign_in(desk, live_server, "checker", "checker-pass-123", f"/tournaments/{tournament.pk}/")
    desk.locator(f"a[href='/board/tournaments/{tournament.pk}/entries/']").click()
    card = desk.locator(f"#entry-{mine.pk}")
    expect(card).to_contain_text("Carthaginian")
    expect(card).to_contain_text("en attente de vérification")
    _look(new_context, live_server, desk, "5-checker", shot, problems, tabs)
    card.get_by_label("Commentaire pour le joueur").fill("Deux généraux de trop : la liste en permet trois.")
    card.get_by_role("button", name="La renvoyer au joueur").click()
    expect(desk.get_by_text(re.compile("est renvoyée au joueur avec votre commentaire"))).to_be_visible()

    # The player reads the comment and sends the list again, as a link this time.
    phone.reload()
    expect(phone.locator("#army-list")).to_contain_text("Deux généraux de trop")
    _look(new_context, live_server, phone, "6-returned", shot, problems, tabs)
    phone.get_by_label("Army", exact=True).fill("Carthaginian")
    phone.get_by_label("Army number").fill("45")
    phone.get_by_label("Or a link to a list builder").fill("https://www.littlearmybuilder.com/list/45")
    phone.get_by_role("button", name="Send the list").click()
    expect(phone.get_by_text("Your army list is sent")).to_be_visible()

    # The checker marks it compliant.
    desk.reload()
    card = desk.locator(f"#entry-{mine.pk}")
    expect(card.locator("a[href='https://www.littlearmybuilder.com/list/45']")).to_have_count(1)
    card.get_by_role("button", name="Conforme", exact=True).click()
    expect(desk.get_by_text(re.compile("est conforme"))).to_be_visible()
    phone.reload()
    expect(phone.locator("#army-list")).to_contain_text("compliant")
    assert ArmyList.objects.filter(entry=mine).order_by("-id").first().status == ArmyList.COMPLIANT
    # Entries are open: no list is public, and the player is listed without the name.
    visitor = _context(new_context, live_server, viewport=PHONE, language="en")
    visitor.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(visitor.locator("#entries")).to_contain_text("name withheld at the player's request")
    expect(visitor.locator("#entries")).not_to_contain_text(me.last_name)
    assert visitor.locator("#army-lists").count() == 0
    visitor.context.close()

    # Entries closed and every list compliant: the lists are published all together (App. 1 §12).
    Announcement.objects.filter(pk=tournament.pk).update(list_deadline=today - timedelta(days=1))
    visitor = _context(new_context, live_server, viewport=DESK, language="en")
    visitor.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(visitor.locator("#army-lists tbody tr")).to_have_count(8)
    expect(visitor.locator("#army-lists")).to_contain_text("Carthaginian")
    expect(visitor.locator("#army-lists")).not_to_contain_text(me.last_name)
    _look(new_context, live_server, visitor, "7-lists-published", shot, problems, tabs)
    visitor.context.close()

    # The day: the referee starts the tournament with the entered players and pairs round 1 from them.
    tournament.start_date = tournament.end_date = today
    tournament.save()
    ref.goto(f"{live_server.url}/board/tournaments/mine/")
    ref.get_by_role("link", name="Run it live").click()
    expect(ref.get_by_text("The 8 players registered in the calendar enter the tournament")).to_be_visible()
    _look(new_context, live_server, ref, "8-start", shot, problems, tabs)
    ref.get_by_role("button", name="Start the tournament").click()
    expect(ref.get_by_role("heading", name="8 players")).to_be_visible()
    ref.get_by_role("button", name="Everyone is here").click()
    expect(ref.locator(".check-in-count")).to_have_count(0)
    _look(new_context, live_server, ref, "9-players", shot, problems, tabs)
    ref.get_by_role("link", name="Go to the rounds").click()
    ref.get_by_label("Draw: a single hat").check()
    ref.get_by_role("button", name="Pair round 1").click()
    expect(ref.get_by_role("heading", name=re.compile("Proposed round 1"))).to_be_visible()
    expect(ref.locator(".proposal .pair")).to_have_count(4)
    _look(new_context, live_server, ref, "10-round-1", shot, problems, tabs)
    ref.get_by_role("button", name="Publish round 1").click()
    expect(ref.get_by_role("heading", name="Results of round 1")).to_be_visible()

    entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    assert set(LiveEntrant.objects.values_list("player_id", flat=True)) == entered == {p.pk for p in players}
    paired = {pk for table in LiveTable.objects.filter(round__live_id=tournament.pk, round__number=1)
              for pk in (table.a.player_id, table.b.player_id)}
    assert paired == entered
    assert not problems, "\n".join(problems)
