"""The rounds of a real day on a phone, in English and in French at 390 px: pair round 1, swap two players
with a reason (the tables keep their numbers), give a pair a chosen table, publish, enter the results (one win
with more losses than the loser's, confirmed), withdraw round 2 after its results with the confirmation, pair it
again, see the withdrawn draw and the check-this-draw page publicly, see the preview, download the workbook so
far, publish.

Debian's Chromium; screenshots test-artifacts/screenshots/live-rounds-<language>-<step>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.browser.checks import axe_problems, fits
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.pools import key_of
from tournaments.models import LiveDiscardedDraw, LiveRound, LiveTable, LiveTournament

SCREENSHOT_PREFIX = "live-rounds"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}

WORDS = {
    "en": {
        "proposed": "Proposed round 1", "swapped": "every table keeps its number", "chosen": "now plays at table 1",
        "results": "Results of round 1", "confirm": "wins with more losses", "counts": "Counts as:",
        "refused": "Refused; nothing was changed:", "discard": "confirm that they are discarded",
        "withdrawn": "Round 2 withdrawn", "check": "Check this draw", "verdict": "but for the changes below",
        "preview": "This is what publishing changes", "published": "Published: the tournament",
        "reason_swap": "Ann and Bob came together", "reason_table": "Table 1 is by the door (a wheelchair)",
        "reason_withdraw": "Table 3's result was typed on table 2",
    },
    "fr": {
        "proposed": "Ronde 1 proposée", "swapped": "chaque table garde son numéro",
        "chosen": "joue maintenant à la table 1",
        "results": "Résultats de la ronde 1", "confirm": "gagne avec plus de pertes", "counts": "Compte pour",
        "refused": "rien n’a changé", "discard": "confirmez qu’ils sont effacés",
        "withdrawn": "Ronde 2 retirée", "check": "Vérifier ce tirage", "verdict": "aux changements ci-dessous près",
        "preview": "Voici ce que la publication change", "published": "le tournoi et les nouvelles cotes",
        "reason_swap": "Anne et Bruno sont venus ensemble", "reason_table": "La table 1 est près de la porte",
        "reason_withdraw": "Le résultat de la table 3 saisi sur la table 2",
    },
}


def _context(new_context, live_server, language: str):
    context = new_context(viewport=PHONE, locale="fr-FR" if language == "fr" else "en-GB", is_mobile=True,
                                  has_touch=True, accept_downloads=True)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    return context


def _tables(number: int) -> list[tuple[int, int, int]]:
    return [(t.table, key_of(t.a), key_of(t.b) if t.b else 99) for t in
            LiveTable.objects.filter(round__number=number, round__published_at__isnull=False)
            .select_related("a", "b").order_by("table")]


def _enter(page, table: int, code: str, a_losses: int, b_losses: int) -> None:
    card = page.locator(f"#table-{table}")
    card.locator(f"input[name=result][value='{code}']").check()
    card.locator(f"#t{table}-a_losses").fill(str(a_losses))
    card.locator(f"#t{table}-b_losses").fill(str(b_losses))
    card.locator("button[type=submit]").click()


def _enter_round(page, number: int, words, *, odd_first: bool = False) -> None:
    for n, (table, _, _) in enumerate(_tables(number)):
        if n == 0 and odd_first:
            continue
        _enter(page, table, "A", 10 + n, 40 + n)
        expect(page.locator(f"#table-{table} .entered")).to_contain_text(words["counts"])


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_referee_changes_undoes_and_publishes_a_day_on_a_phone(live_server, new_context, referee, shot, language):
    words = WORDS[language]
    live = live_tournament(federation_players(8, clubs=8), rounds=3, name=f"Open des rondes {language}")
    live.tournament.referees.add(referee)
    pk = live.pk
    run_url = f"{live_server.url}/referee/live/{pk}/"

    def snap(page, step: str) -> None:
        assert fits(page), f"{step}: the page scrolls sideways"
        shot(page, f"{language}-{step}")

    page = _context(new_context, live_server, language).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{pk}/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")

    # 1. Pair round 1 by a draw: the site draws the seed; each player shows their place and rating.
    expect(page.locator("input[name=seed]")).to_have_count(0)
    page.locator("form[action$='/pair/'] input[name=method][value=draw]").check()
    page.locator("form[action$='/pair/'] button.big").click()
    expect(page.get_by_role("heading", name=re.compile(words["proposed"]))).to_be_visible()
    expect(page.locator(".proposal .seat").first).to_be_visible()
    snap(page, "1-proposal")
    problems = axe_problems(page)
    assert not problems, problems

    # 2. Swap the B players of tables 1 and 2, with a reason: every table keeps its number.
    round_ = LiveRound.objects.get(live_id=pk, number=1)
    before = [(t.table, key_of(t.a), key_of(t.b)) for t in round_.tables.select_related("a", "b").order_by("table")]
    page.locator("details.swap:has(form[action$='/swap/']) > summary").click()
    page.select_option("#swap-first-A", str(before[0][2]))
    page.select_option("#swap-second-A", str(before[1][2]))
    page.fill("#swap-reason-A", words["reason_swap"])
    page.locator("form[action$='/swap/'] button").click()
    expect(page.locator(".message.success")).to_contain_text(words["swapped"])
    after = [t.table for t in round_.tables.order_by("table")]
    assert after == [t for t, _, _ in before]
    expect(page.locator(".proposal .changes")).to_contain_text(words["reason_swap"])
    snap(page, "2-swapped")

    # 3. Give the pair of table 4 the accessible table 1.
    page.locator("details.swap:has(form[action$='/table/']) > summary").click()
    page.select_option("#table-pair-A", "4")
    page.select_option("#table-to-A", "1")
    page.fill("#table-reason-A", words["reason_table"])
    page.locator("form[action$='/table/'] button").click()
    expect(page.locator(".message.success")).to_contain_text(words["chosen"])
    snap(page, "3-chosen-table")

    # 4. Publish round 1; enter its results, one a win with more losses than the loser's: asked, confirmed.
    page.locator(".proposal form[action*='/publish/'] button").click()
    expect(page.get_by_role("heading", name=words["results"])).to_be_visible()
    first_table = _tables(1)[0][0]
    _enter(page, first_table, "A", 60, 20)
    expect(page.locator(f"#table-{first_table}")).to_contain_text(words["confirm"])
    snap(page, "4-confirm")
    page.locator(f"#table-{first_table} input[name=confirm]").check()
    page.locator(f"#table-{first_table} button[type=submit]").click()
    expect(page.locator(f"#table-{first_table} .entered")).to_contain_text(words["counts"])
    _enter_round(page, 1, words, odd_first=True)
    snap(page, "5-results")
    problems = axe_problems(page)
    assert not problems, problems

    # 5. Round 2 paired, published, its results in; then withdrawn: refused until its results are discarded.
    page.goto(run_url)
    page.locator("form[action$='/pair/'] button.big").click()
    expect(page.locator(".proposal .seat").first).to_contain_text("·")
    snap(page, "5b-round-2-proposal")
    page.locator(".proposal form[action*='/publish/'] button").click()
    _enter_round(page, 2, words)
    second = _tables(2)
    page.goto(run_url)
    page.locator("details.withdraw-round > summary").click()
    page.fill("#withdraw-reason-A", words["reason_withdraw"])
    page.locator("form[action$='/withdraw-round/'] button").click()
    expect(page.locator(".form-errors")).to_contain_text(words["refused"])
    expect(page.locator(".form-errors")).to_contain_text(words["discard"])
    snap(page, "6-withdraw-asks")
    page.locator("form[action$='/withdraw-round/'] input[name=discard_results]").check()
    page.locator("form[action$='/withdraw-round/'] button").click()
    expect(page.locator(".discarded summary").first).to_contain_text(words["withdrawn"])
    assert not LiveRound.objects.filter(live_id=pk, number=2).exists()
    snap(page, "7-withdrawn")

    # 6. Paired again from the same results: the same pairs.
    page.locator("form[action$='/pair/'] button.big").click()
    page.locator(".proposal form[action*='/publish/'] button").click()
    assert _tables(2) == second
    _enter_round(page, 2, words)

    # 7. The public page lists the withdrawn round with its reason; the check of round 1 shows the changes.
    public = _context(new_context, live_server, language).new_page()
    public.set_default_timeout(15_000)
    public.goto(f"{live_server.url}/tournaments/{pk}/live/")
    expect(public.locator("#live-now")).to_contain_text(words["withdrawn"])
    public.locator("#live-now .discarded summary").first.click()
    expect(public.locator("#live-now .discarded").first).to_contain_text(words["reason_withdraw"])
    snap(public, "8-public-withdrawn")
    problems = axe_problems(public)
    assert not problems, problems
    public.goto(f"{live_server.url}/tournaments/{pk}/live/rounds/1/check/")
    expect(public.locator(".check-verdict")).to_contain_text(words["verdict"])
    expect(public.locator("main")).to_contain_text(words["reason_swap"])
    expect(public.locator("main")).to_contain_text(words["reason_table"])
    snap(public, "9-check-draw")
    problems = axe_problems(public)
    assert not problems, problems
    assert LiveDiscardedDraw.objects.filter(live_id=pk, kind="withdrawn").count() == 1

    # 8. The last round; the workbook so far; the preview; publish.
    page.goto(run_url)
    page.locator("form[action$='/pair/'] button.big").click()
    page.locator(".proposal form[action*='/publish/'] button").click()
    _enter_round(page, 3, words)
    page.goto(run_url)
    with page.expect_download() as download:
        page.locator("a[href$='workbook.xlsx']").first.click()
    assert download.value.suggested_filename == f"live-{pk}-so-far.xlsx"
    assert Path(download.value.path()).read_bytes()[:2] == b"PK"
    page.locator(f"a[href$='/referee/live/{pk}/publish/']").first.click()
    expect(page.get_by_text(words["preview"])).to_be_visible()
    snap(page, "10-preview")
    problems = axe_problems(page)
    assert not problems, problems
    page.locator("form[action$='/publish/'] button").click()
    expect(page.get_by_text(words["published"])).to_be_visible(timeout=30_000)
    snap(page, "11-published")

    assert LiveTournament.objects.get(pk=pk).published_at is not None
