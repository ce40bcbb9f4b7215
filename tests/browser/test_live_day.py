"""The tournament day on phones: the referee runs a 9-player, 3-round tournament from a calendar
tournament to its publication, a player finds their table on the public live page, which updates itself.

Debian's Chromium at 390x844; screenshots in test-artifacts/screenshots/live-*.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.checks import axe_problems, fits

SCREENSHOT_PREFIX = "live"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


@pytest.mark.slow
def test_a_referee_runs_the_day_on_a_phone_and_a_player_follows_it(live_server, referee, new_context, shot):
    from playwright.sync_api import expect

    from ratings.models import RatingSystem
    from ratings.services import replay_from_scratch
    from tests import factories
    from tests.live.helpers import federation_players
    from tests.live.test_live_service import _standings_and_ratings, live_workbook_of_games
    from tournaments.models import LiveRound, LiveTable, LiveTournament, Registration, Tournament
    from tournaments.sheets.services import sheet_import_bytes

    players = federation_players(9)
    tournament = factories.tournament("Open du Direct", status=Tournament.REGISTERED, rounds=3)
    tournament.referees.add(referee)
    for player in players[:3]:  # registered in the calendar: they start in the tournament
        Registration.objects.create(tournament=tournament, player=player)
    rng = random.Random(23)

    page = new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(15_000)

    # Sign in and start from the calendar tournament.
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Run a tournament live")).to_be_visible()
    page.get_by_role("link", name="Run it live").click()
    page.get_by_role("button", name="Start the tournament").click()  # its dates confirmed: today's
    expect(page.get_by_text("The tournament runs live: check in the players who are here")).to_be_visible()
    page.get_by_role("button", name="Everyone is here").click()  # the three registered in the calendar

    # The other six players: found by name, or by ID.
    for n, player in enumerate(players[3:]):
        page.fill("#find-q", player.last_name if n % 2 else str(player.pk))
        page.get_by_role("button", name="Find", exact=True).click()
        row = page.locator(".found li", has_text=player.last_name)
        row.get_by_role("button").click()
        expect(page.get_by_text("plays in pool A.")).to_be_visible()
    expect(page.get_by_role("heading", name="9 players")).to_be_visible()
    assert fits(page)
    shot(page, "1-players")

    # Round 1: 9 players for 8 ideal, the charter requires Elo levels; a draw is refused with its reason.
    page.get_by_role("link", name="Go to the rounds").click()
    expect(page.get_by_text("the charter requires Elo levels in round 1")).to_be_visible()
    page.get_by_label("Draw: a single hat").check()
    page.get_by_role("button", name="Pair round 1").click()
    expect(page.get_by_text("Refused; nothing was changed:")).to_be_visible()
    expect(page.get_by_text("the charter requires pairing round 1 by Elo levels")).to_be_visible()
    assert not LiveRound.objects.exists()
    page.get_by_label("Elo levels: three groups by rating, a draw inside each").check()
    page.get_by_role("button", name="Pair round 1").click()
    expect(page.get_by_role("heading", name=re.compile("Proposed round 1"))).to_be_visible()
    expect(page.locator(".proposal .pair")).to_have_count(5)  # 9 players and the spare
    shot(page, "2-proposal")

    public = None
    for number in (1, 2, 3):
        if number > 1:
            page.get_by_role("link", name="Rounds", exact=True).click()
            page.get_by_role("button", name=f"Pair round {number}").click()
        page.get_by_role("button", name=f"Publish round {number}").click()
        expect(page.get_by_role("heading", name=f"Results of round {number}")).to_be_visible()
        if number == 3:
            public = _player_finds_their_table(new_context, live_server, tournament, shot)
        tables = list(LiveTable.objects.filter(round__live_id=tournament.pk, round__number=number)
                      .order_by("table"))
        for table in tables:
            card = page.locator(f"#table-{table.table}")
            losses = sorted(rng.sample(range(0, 101, 5), 2))
            code = "A" if table.b_id is None or rng.random() < .5 else rng.choice(["B", "D"])
            a_losses, b_losses = (losses[1], losses[0]) if code == "B" else (losses[0], losses[1])
            if table.b_id is None:
                a_losses, b_losses = 0, 100
            card.locator(f"input[name=result][value='{code}']").check()
            card.get_by_label(re.compile("^A losses")).fill(str(a_losses))
            card.get_by_label(re.compile("^B losses")).fill(str(b_losses))
            card.get_by_role("button", name="Save the result").click()
            expect(page.locator(f"#table-{table.table} .entered")).to_contain_text("Counts as:")
        if number == 1:
            assert fits(page)
            problems = axe_problems(page)
            assert not problems, problems
            shot(page, "3-results")
        if number == 3:
            # The player's page updated itself with the results, without a reload.
            expect(public.locator("#live-now")).to_contain_text("5/5 results", timeout=30_000)
            shot(public, "6-public-updated")
            public.context.close()

    # Every round complete: publish the tournament; it is imported as an uploaded sheet would be.
    page.get_by_role("link", name="Rounds", exact=True).click()
    expect(page.get_by_role("heading", name="Standings after round 3")).to_be_visible()
    shot(page, "4-complete")
    page.get_by_role("link", name="See the preview, then publish").click()
    expect(page.get_by_text("This is what publishing changes")).to_be_visible()
    page.get_by_role("button", name="Publish the tournament").click()
    expect(page.get_by_text("Published: the tournament and the new ratings are on the site.")).to_be_visible(
        timeout=30_000)
    shot(page, "5-published")

    live = LiveTournament.objects.get(pk=tournament.pk)
    assert live.published_sheet is not None
    published_tournament = Tournament.objects.get(pk=tournament.pk)
    assert published_tournament.games.count() == 15
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    published = _standings_and_ratings(tournament.pk)
    assert published[0]

    # The same games uploaded as a sheet give the same standings and ratings.
    workbook = live_workbook_of_games(published_tournament)
    published_tournament.delete()
    uploaded = sheet_import_bytes(data=workbook, file_name="same.xlsx")
    assert uploaded.ok, uploaded.report.as_dict()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert _standings_and_ratings(uploaded.tournament_id) == published


def _player_finds_their_table(new_context, live_server, tournament, shot):
    """A player on their own phone, not signed in: the public live page, their table found by name. The page is
    left open: it must update itself as the referee enters the results."""
    from playwright.sync_api import expect

    from tournaments.models import LiveTable

    table = (LiveTable.objects.filter(round__live_id=tournament.pk, round__number=3, b__isnull=False)
             .select_related("a", "b").order_by("-table").first())
    page = new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Follow the tournament live: tables and standings").click()
    expect(page.get_by_role("heading", name="Round 3 of 3")).to_be_visible()
    expect(page.get_by_role("heading", name="Standings after round 2")).to_be_visible()
    # Typing filters the tables at once (JavaScript); sending the form finds them on the server.
    page.get_by_label("Find your table by name").fill(table.b.last_name)
    visible = page.locator("#live-now .live-now > .live-pool > .pairs > .pair:visible")
    expect(visible).to_have_count(1)
    expect(visible).to_contain_text(table.b.last_name)
    page.get_by_role("button", name="Find", exact=True).click()
    expect(page.get_by_text(f"Table {table.table}, round 3")).to_be_visible()
    assert fits(page)
    problems = axe_problems(page)
    assert not problems, problems
    shot(page, "7-public-find")
    page.get_by_role("link", name="Show every table").click()
    expect(page.locator("#live-now")).to_contain_text("0/5 results")
    return page
