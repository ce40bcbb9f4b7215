"""The referee types a round of 12 tables in the keyboard grid, with the keyboard only (typing and Tab), on a laptop
and at 390 px: every table saved as its row is left, no page reload, every result stored; a wrong row refused with
its words on the row, then corrected; the row states announced (aria-live); axe finds nothing serious.

Debian's Chromium; screenshots test-artifacts/screenshots/results-grid-<step>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.checks import axe_problems, fits
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

SCREENSHOT_PREFIX = "results-grid"  # see tests/browser/conftest.py
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _typed(table: int) -> tuple[str, str, str]:
    """Table n's result as the referee types it: wins both ways and draws, losses that differ per table."""
    if table % 3 == 0:
        return "d", str(table), str(table + 5)
    if table % 3 == 1:
        return "A", str(table), str(40 + table)
    return "B", str(45 + table), str(table)


def _stored(pk: int) -> dict[int, tuple]:
    return {t.table: (t.result, t.a_losses, t.b_losses)
            for t in LiveTable.objects.filter(round__live_id=pk, round__number=1)}


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_referee_types_a_round_of_twelve_tables_with_the_keyboard_only(live_server, new_context, referee, shot,
                                                                         viewport):
    live = live_tournament(federation_players(24, clubs=24), rounds=3, name="Open du clavier")
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=4))
    pk = live.pk
    name = "laptop" if viewport is LAPTOP else "phone"
    page = new_context(viewport=viewport, locale="en-GB").new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{pk}/rounds/1/grid/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.locator("#results-grid[data-grid-ready]")).to_have_count(1)
    expect(page.locator("tr[data-table]")).to_have_count(12)
    assert fits(page), "the grid's page scrolls sideways"
    problems = axe_problems(page)
    assert not problems, problems
    page.evaluate("window.notReloaded = true")

    # Table 5 typed wrong (a code that is no code): refused on its row, in words; the others go on.
    page.locator("#g1-result").focus()
    started = time.monotonic()
    for table in range(1, 13):
        code, a, b = ("Q", "10", "20") if table == 5 else _typed(table)
        for value in (code, a, b):
            page.keyboard.type(value)
            page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # out of the last row: to the button
    for table in range(1, 13):
        expect(page.locator(f"#grid-{table}")).to_have_attribute("data-state", "error" if table == 5 else "saved")
    typed_in = time.monotonic() - started
    assert typed_in < 60, f"12 tables took {typed_in:.0f} s"
    assert page.evaluate("window.notReloaded") is True  # each row saved without a page load
    state = page.locator("#g5-state")
    expect(state).to_have_attribute("aria-live", "polite")
    expect(state).to_contain_text("Refused: Type one of the codes A, B, D, DD, FA, FB")
    expect(page.locator("#g5-result")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#g1-state")).to_contain_text("Saved:")
    expect(page.locator("#grid-count")).to_have_text("11 of 12 results are in.")
    shot(page, f"{name}-refused")
    problems = axe_problems(page)
    assert not problems, problems

    stored = _stored(pk)
    for table in range(1, 13):
        if table == 5:
            assert stored[table] == ("", None, None)
        else:
            code, a, b = _typed(table)
            assert stored[table] == (code.upper(), int(a), int(b)), table

    # The wrong row corrected with the keyboard: saved as it is left.
    page.locator("#g5-result").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("B")
    for value in ("50", "5"):
        page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    page.keyboard.press("Tab")
    expect(page.locator("#grid-5")).to_have_attribute("data-state", "saved")
    expect(page.locator("#g5-state")).to_contain_text("Saved:")
    expect(page.locator("#g5-result")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#grid-count")).to_have_text("12 of 12 results are in.")
    assert _stored(pk)[5] == ("B", 50, 5)
    assert fits(page)
    shot(page, f"{name}-saved")
    problems = axe_problems(page)
    assert not problems, problems


def _two_rows_typed_offline(live_server, new_context, referee, settings, language: str, name: str):
    """A round of 4 tables published, the referee signed in on the grid at phone width; the network drops and
    tables 1 and 2 are typed (A 10/40, B 60/15). Returns the tournament, the browser context and the page."""
    live = live_tournament(federation_players(8, clubs=8), rounds=3, name=name)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=4))
    context = new_context(viewport=PHONE, locale="fr-FR" if language == "fr" else "en-GB")
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{live.pk}/rounds/1/grid/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.locator("#results-grid[data-grid-ready]")).to_have_count(1)
    context.set_offline(True)
    page.locator("#g1-result").focus()
    for value in ("A", "10", "40", "B", "60", "15"):
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    return live, context, page


@pytest.mark.parametrize("language", ["en", "fr"])
def test_rows_typed_with_the_network_gone_are_sent_once_when_it_returns(live_server, new_context, referee, shot,
                                                                         settings, language):
    """The hall's network drops while the referee types two rows: each says it is not saved and will be sent when
    the network returns; it returns, and both are saved with nothing more typed or clicked, each once."""
    live, context, page = _two_rows_typed_offline(live_server, new_context, referee, settings, language,
                                                  f"Open sans fil {language}")
    waiting = ("Not saved: the site did not answer. The row is kept on this device and sent again when the network "
               "returns" if language == "en" else
               "Non enregistré\u00a0: le site n’a pas répondu. La ligne est gardée sur cet appareil et renvoyée au "
               "retour du réseau")
    for table in (1, 2):
        expect(page.locator(f"#grid-{table}")).to_have_attribute("data-state", "error")
        expect(page.locator(f"#g{table}-state")).to_contain_text(waiting)
    assert _stored(live.pk)[1] == ("", None, None)
    shot(page, f"offline-{language}")
    problems = axe_problems(page)
    assert not problems, problems

    context.set_offline(False)
    for table in (1, 2):
        expect(page.locator(f"#grid-{table}")).to_have_attribute("data-state", "saved")
    stored = _stored(live.pk)
    assert stored[1] == ("A", 10, 40) and stored[2] == ("B", 60, 15)
    revisions = dict(LiveTable.objects.filter(round__live=live, round__number=1).values_list("table", "revision"))
    assert revisions[1] == revisions[2] == 1  # each row saved once
    context.close()


def test_rows_typed_with_the_network_gone_survive_the_page_being_closed(live_server, new_context, referee, shot,
                                                                       settings):
    """The referee types two rows with the network gone and the tab is closed (a reload, a flat battery); the
    network returns and the grid is opened again on the same device: both rows are put back and sent by themselves,
    the one nobody touched saved once, the one the other referee's tab entered meanwhile reported on its row and
    not replaced; nothing is kept on the device afterwards."""
    live, context, page = _two_rows_typed_offline(live_server, new_context, referee, settings, "fr",
                                                  "Open batterie à plat")
    grid = f"{live_server.url}/referee/live/{live.pk}/rounds/1/grid/"
    for table in (1, 2):
        expect(page.locator(f"#g{table}-state")).to_contain_text("gardée sur cet appareil")
    page.close()

    results_record(live, 1, [Result(table=2, result="D", a_losses=20, b_losses=25)], user=referee)
    context.set_offline(False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/referee/live/{live.pk}/")  # the run page says where the rows wait
    waiting = page.locator("[data-offline-grid='1']")
    expect(waiting).to_contain_text("Lignes de la grille de la ronde 1 gardées sur cet appareil, pas encore "
                                    "envoyées\u00a0: 2.")
    shot(page, "waiting-on-run-page-fr")
    problems = axe_problems(page)
    assert not problems, problems
    waiting.get_by_role("link", name="Ouvrir la grille").click()
    expect(page).to_have_url(grid)
    expect(page.locator("#grid-1")).to_have_attribute("data-state", "saved")
    expect(page.locator("#grid-2")).to_have_attribute("data-state", "error")
    expect(page.locator("#g2-state")).to_contain_text("Refusé")
    expect(page.locator("#g2-result")).to_have_value("B")  # what was typed stays on the row, to send again
    expect(page.locator("#grid-count")).to_have_text("Résultats saisis\u00a0: 2 sur 4.")  # table 2 holds one
    stored = _stored(live.pk)
    assert stored[1] == ("A", 10, 40) and stored[2] == ("D", 20, 25)
    revisions = dict(LiveTable.objects.filter(round__live=live, round__number=1).values_list("table", "revision"))
    assert revisions[1] == 1 and revisions[2] == 1
    assert page.evaluate("Object.keys(window.localStorage).filter(k => k.startsWith('results-grid:'))") == []
    shot(page, "put-back-fr")
    problems = axe_problems(page)
    assert not problems, problems

    page.goto(f"{live_server.url}/referee/live/{live.pk}/")
    expect(page.locator("[data-offline-grid]")).to_have_count(0)
    page.goto(grid)  # opened once more: nothing is put back a second time
    expect(page.locator("#results-grid[data-grid-ready]")).to_have_count(1)
    expect(page.locator("#grid-2")).to_have_attribute("data-state", "saved")
    expect(page.locator("#g2-result")).to_have_value("D")
    for field in ("result", "a_losses", "b_losses"):  # a row emptied does not take its result back
        page.fill(f"#g2-{field}", "")
    page.locator("#g3-result").focus()
    expect(page.locator("#g2-state")).to_contain_text("Laissée vide\u00a0: la table garde son résultat")
    expect(page.locator("#grid-2")).to_have_attribute("data-state", "saved")
    assert _stored(live.pk)[2] == ("D", 20, 25)
    context.close()
