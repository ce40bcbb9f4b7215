"""A lost connection on the tournament day, on a phone (390x844): the referee enters three tables'
results with the network gone (one of them tapped twice); they wait on the phone, the banner counts them, and once
the network returns each is applied exactly once. The public live page says when it was last updated, says it is
offline and which moment it shows while the network is gone, and catches up when it returns.

Two players entering their table's result through their private links without network see, once the network
returns and the queue is sent, where their table stands (waiting for the opponent, counted), without a reload.

Debian's Chromium; screenshots test-artifacts/screenshots/offline-<step>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

from players.models import AuditEntry
from tests.browser.checks import axe_problems, fits
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.links import entrant_link_path
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.selectors import entrant_name
from tournaments.models import LiveAction, LiveTable

SCREENSHOT_PREFIX = "offline"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}
NBSP = "\u00a0"
WORDS = {
    "en": {"results": "Results of round 1", "waiting": "Waiting to be sent", "count": "Waiting to be sent: 3.",
           "offline": r"Offline — showing the page of \d\d:\d\d", "counts": "Counts as:",
           "sent": "Sent once the network returned", "in": "3 of 4 results are in"},
    "fr": {"results": "Résultats de la ronde 1", "waiting": "En attente d’envoi",
           "count": f"En attente d’envoi{NBSP}: 3.", "offline": r"Hors ligne — la page affichée date de \d\d:\d\d",
           "counts": f"Compte pour{NBSP}:", "sent": "Envoyé au retour du réseau",
           "in": f"Résultats saisis{NBSP}: 3 sur 4"},
}


def _phone(new_context, live_server=None, language: str = "en"):
    context = new_context(viewport=PHONE, locale="fr-FR" if language == "fr" else "en-GB",
                          timezone_id="Europe/Paris", is_mobile=True, has_touch=True)
    if live_server is not None:
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _started(referee, name: str):
    live = live_tournament(federation_players(8, clubs=8), rounds=3, name=name)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, pool="A", seed=3, user=referee), user=referee)
    return live


def _fill(page, table: int, a_losses: int, b_losses: int) -> None:
    card = page.locator(f"#table-{table}")
    card.locator("input[name=result][value='A']").check()
    card.locator(f"#t{table}-a_losses").fill(str(a_losses))
    card.locator(f"#t{table}-b_losses").fill(str(b_losses))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_results_typed_offline_wait_on_the_phone_and_are_applied_once_when_the_network_returns(
        live_server, new_context, referee, shot, language):
    words = WORDS[language]
    live = _started(referee, f"Open sans réseau {language}")
    results_url = f"/referee/live/{live.pk}/rounds/1/"
    context, page = _phone(new_context, live_server, language)
    page.goto(f"{live_server.url}/accounts/login/?next={results_url}")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name=words["results"])).to_be_visible()
    banner = page.locator("[data-offline-banner]")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    entered = {1: (10, 40), 2: (15, 45), 3: (20, 50)}
    for table, (a_losses, b_losses) in entered.items():
        _fill(page, table, a_losses, b_losses)
        page.locator(f"#table-{table} button[type=submit]").click()
        expect(page.locator(f"#table-{table} .offline-status")).to_contain_text(words["waiting"])
    page.locator("#table-2 button[type=submit]").click()  # a double tap: the same action key, queued once
    page.locator("#table-2 button[type=submit]").click()

    expect(banner).to_be_visible()
    expect(banner).to_contain_text(words["count"])
    expect(banner).to_contain_text(re.compile(words["offline"]))
    assert not LiveTable.objects.filter(round__live=live, result__gt="").exists()
    assert fits(page), "the offline page scrolls sideways"
    shot(page, f"1-referee-waiting-{language}")
    problems = axe_problems(page)
    assert not problems, problems

    context.set_offline(False)
    expect(banner).to_be_hidden()
    for table in entered:
        expect(page.locator(f"#table-{table} .entered")).to_contain_text(words["counts"])
        expect(page.locator(f"#table-{table} .offline-status")).to_contain_text(words["sent"])
    expect(page.locator("#results-count")).to_contain_text(words["in"])
    shot(page, f"2-referee-sent-{language}")

    tables = {t.table: (t.result, t.a_losses, t.b_losses)
              for t in LiveTable.objects.filter(round__live=live, round__number=1)}
    assert {n: tables[n] for n in entered} == {n: ("A", a, b) for n, (a, b) in entered.items()}
    assert tables[4] == ("", None, None)
    assert LiveAction.objects.filter(live=live).count() == 3
    assert AuditEntry.objects.filter(action="live_results").count() == 3
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('offline-queue:')).length") == 0


def test_a_refusal_of_a_waiting_result_is_shown_on_its_table(live_server, new_context, referee, shot):
    """Another referee entered table 1 meanwhile: the waiting result is refused when sent, not lost silently."""
    live = _started(referee, "Open du conflit")
    context, page = _phone(new_context)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{live.pk}/rounds/1/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Results of round 1")).to_be_visible()
    results_record(live, 1, [Result(1, "D", 30, 30)])

    context.set_offline(True)
    _fill(page, 1, 10, 40)
    page.locator("#table-1 button[type=submit]").click()
    expect(page.locator("#table-1 .offline-status")).to_contain_text("Waiting to be sent")
    context.set_offline(False)

    expect(page.locator("#table-1 .offline-status")).to_contain_text("was refused when it was sent")
    expect(page.locator("#table-1 [role=alert]")).to_contain_text("Refused; nothing was changed")
    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    assert LiveTable.objects.get(round__live=live, round__number=1, table=1).result == "D"
    shot(page, "3-referee-refused")


def test_the_public_page_says_when_it_was_updated_and_that_it_is_offline(live_server, new_context, referee, shot):
    live = _started(referee, "Open public hors ligne")
    context, page = _phone(new_context)
    page.goto(f"{live_server.url}/tournaments/{live.pk}/live/")
    # A referee's result left waiting on this phone is not this visitor's to send: not counted, not sent, kept.
    waiting = json.dumps({"a" * 32: {"url": f"{live_server.url}/referee/live/{live.pk}/rounds/1/tables/1/",
                                     "fields": [["result", "A"]], "user": str(referee.pk), "label": "Table 1",
                                     "page": "", "queued": 1}})
    page.evaluate("([name, value]) => localStorage.setItem(name, value)", [f"offline-queue:{live.pk}", waiting])
    page.reload()
    clock = page.locator("[data-offline-clock]")
    expect(clock).to_have_text(re.compile(r"Updated at \d\d:\d\d"))
    time = re.search(r"\d\d:\d\d", clock.inner_text()).group(0)

    context.set_offline(True)
    state = page.locator("[data-offline-state]")
    expect(state).to_have_text(f"Offline — showing the page of {time}")
    expect(clock).to_be_hidden()
    assert fits(page), "the offline page scrolls sideways"
    shot(page, "4-public-offline")
    problems = axe_problems(page)
    assert not problems, problems

    results_record(live, 1, [Result(1, "A", 10, 40)])  # what happened in the hall meanwhile
    context.set_offline(False)
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"Updated at \d\d:\d\d"))
    expect(state).to_have_text("")
    expect(page.locator("#live-now")).to_contain_text("1/4 results")
    expect(page.locator("[data-offline-banner]")).not_to_contain_text("Waiting to be sent")
    assert page.evaluate(f"localStorage.getItem('offline-queue:{live.pk}')") == waiting
    assert LiveTable.objects.get(round__live=live, round__number=1, table=1).a_losses == 10
    shot(page, "5-public-back")


def test_a_hall_wifi_that_lets_nothing_out_queues_too_and_a_correction_replaces_what_waits(
        live_server, new_context, referee, shot):
    """navigator.onLine stays true on a Wi-Fi with no way out: the probe finds no site, the result waits; typed
    again (a correction) it replaces the waiting entry; the retry every few seconds sends it once the site answers."""
    live = _started(referee, "Open du wifi muet")
    context, page = _phone(new_context)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{live.pk}/rounds/1/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Results of round 1")).to_be_visible()

    def unreachable(route):
        route.abort("connectionrefused")

    page.route("**/healthz", unreachable)
    page.route("**/tables/**", unreachable)
    _fill(page, 1, 10, 40)
    page.locator("#table-1 button[type=submit]").click()
    expect(page.locator("#table-1 .offline-status")).to_contain_text("Waiting to be sent")
    banner = page.locator("[data-offline-banner]")
    expect(banner).to_contain_text("Offline — showing the page of")
    _fill(page, 1, 12, 40)
    page.locator("#table-1 button[type=submit]").click()
    expect(banner).to_contain_text("Waiting to be sent: 1.")
    assert page.evaluate("navigator.onLine")
    shot(page, "6-wifi-without-way-out")

    page.unroute("**/healthz")
    page.unroute("**/tables/**")
    expect(page.locator("#table-1 .entered")).to_contain_text("Counts as:", timeout=20_000)
    expect(banner).to_be_hidden()
    table = LiveTable.objects.get(round__live=live, round__number=1, table=1)
    assert (table.result, table.a_losses, table.b_losses) == ("A", 12, 40)
    assert LiveAction.objects.filter(live=live).count() == 1
    assert AuditEntry.objects.filter(action="live_results").count() == 1


def test_a_result_sent_from_a_private_link_when_the_network_returns_shows_the_tables_state_at_once(
        live_server, new_context, referee, shot):
    """Two players' phones at a table with no network: each entry waits; once the network returns and the queue is
    sent, each phone shows where the table stands (waiting for the opponent, then counted) without a reload, not
    the form still filled in."""
    live = live_tournament(federation_players(4, clubs=4), rounds=3, name="Open des liens sans réseau",
                           players_enter_results=True)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    table = LiveTable.objects.filter(round__live=live, b__isnull=False).select_related("a", "b").order_by("table")[0]
    phones = {}
    for side in ("a", "b"):
        context, page = _phone(new_context)
        page.goto(live_server.url + entrant_link_path(getattr(table, side)))
        expect(page.locator("#my-table form")).to_be_visible()
        phones[side] = (context, page)

    def send_offline(side: str) -> None:
        context, page = phones[side]
        context.set_offline(True)
        form = page.locator("form[data-offline-queue]")
        form.locator("input[name=result][value='A']").check()
        form.locator("input[name=a_losses]").fill("20")
        form.locator("input[name=b_losses]").fill("60")
        form.locator("button[type=submit]").click()
        expect(page.locator("#my-table .offline-status")).to_contain_text("Waiting to be sent")
        expect(page.locator("[data-offline-banner]")).to_contain_text("Waiting to be sent: 1.")

    # A enters offline; back online, the queue goes and the phone says it waits for B, no reload.
    send_offline("a")
    context, phone_a = phones["a"]
    phone_a.evaluate("window.notReloaded = true")
    context.set_offline(False)
    expect(phone_a.locator(".claim-state")).to_contain_text(f"Waiting for {entrant_name(table.b)}")
    expect(phone_a.locator(".claim-state")).to_contain_text("You entered:")
    expect(phone_a.locator("#my-table legend")).to_have_text("Correct your entry")
    expect(phone_a.locator("#my-table .offline-status")).to_contain_text("Sent once the network returned")
    expect(phone_a.locator("[data-offline-banner]")).not_to_contain_text("Waiting to be sent")
    assert phone_a.evaluate("window.notReloaded") is True
    shot(phone_a, "7-link-sent-waiting")
    problems = axe_problems(phone_a)
    assert not problems, problems

    # B enters the same offline; back online, B's phone shows the table counted, its form gone.
    send_offline("b")
    context, phone_b = phones["b"]
    phone_b.evaluate("window.notReloaded = true")
    context.set_offline(False)
    expect(phone_b.locator(".claim-state")).to_contain_text("Counted.")
    expect(phone_b.locator("#my-table form")).to_have_count(0)
    assert phone_b.evaluate("window.notReloaded") is True
    assert fits(phone_b), "the page scrolls sideways"
    shot(phone_b, "8-link-sent-counted")
    table.refresh_from_db()
    assert (table.result, table.a_losses, table.b_losses) == ("A", 20, 60)
