"""The round clock and the hall's big screen, in Debian's Chromium.

The server's time is set by the test (tournaments.live.clock.clock_now: the live server runs in this process) and
the page's own clock moved with Playwright's fake clock by as much, as a phone sees the minutes go by: the clock
counts down between two answers of the server, then takes the server's. Screenshots in
test-artifacts/screenshots/clock-*.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

SCREENSHOT_PREFIX = "clock"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def _server_time(monkeypatch):
    from tournaments.live import clock as clocks

    now = {"at": T0}
    monkeypatch.setattr(clocks, "clock_now", lambda: now["at"])

    def move(minutes: float) -> None:
        now["at"] = T0 + timedelta(minutes=minutes)

    return move


def _day(referee, *, players: int, rounds: int, army_points: int):
    from tests.live.helpers import federation_players, live_tournament
    from tournaments.live.rounds import round_pair, round_publish

    live = live_tournament(federation_players(players, clubs=8), rounds=rounds)
    live.tournament.army_points = army_points
    live.tournament.save(update_fields=["army_points"])
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, pool="A", seed=11))
    return live


def _sign_in(page, live_server, next_url: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")


def test_the_clock_counts_down_and_announces_deployment_30_15_and_the_end(live_server, referee, new_context,
                                                                          monkeypatch, shot):
    from playwright.sync_api import expect

    move = _server_time(monkeypatch)
    live = _day(referee, players=8, rounds=3, army_points=200)

    # The referee starts round 1's clock: 2 h 30 for 200 points.
    desk = new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
    desk.set_default_timeout(15_000)
    _sign_in(desk, live_server, f"/referee/live/{live.pk}/rounds/1/")
    expect(desk.get_by_role("heading", name="The clock of round 1")).to_be_visible()
    expect(desk.get_by_label("Game time, in minutes")).to_have_value("150")
    expect(desk.get_by_text("The charter's game time for 200 army points.")).to_be_visible()
    desk.get_by_role("button", name="Start the clock").click()
    expect(desk.get_by_text("The clock of round 1 is running.")).to_be_visible()
    expect(desk.locator("[data-clock-time]")).to_have_text(re.compile(r"^2:(30:00|29:5\d)$"))
    expect(desk.get_by_text("Deployment ends in")).to_be_visible()
    shot(desk, "1-referee-started")

    # A player's phone on the public page, its time moved by Playwright as the server's is moved by the test.
    phone = new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True).new_page()
    phone.set_default_timeout(15_000)
    phone.clock.install()
    phone.goto(f"{live_server.url}/tournaments/{live.pk}/live/")
    clock = phone.locator("[data-clock]")
    banner = phone.locator("[data-clock-banner]")
    expect(clock.locator("[data-clock-time]")).to_have_text(re.compile(r"^2:(30:00|29:5\d)$"))
    expect(banner).to_be_hidden()  # nothing announced yet

    # Between two answers of the server the phone counts down alone: 10 minutes go by on the phone only, the hall's
    # network down (with it up, the poll falling due in those 10 minutes would bring the server's time back at once).
    phone.context.set_offline(True)
    phone.clock.fast_forward("10:00")
    expect(clock.locator("[data-clock-time]")).to_have_text(re.compile(r"^2:(20:00|19:\d\d)$"))
    phone.context.set_offline(False)

    # After 20 % of the game time (30 minutes): deployment is over.
    move(31)
    phone.clock.fast_forward("21:00")
    expect(clock.get_by_text("Deployment is over.")).to_be_visible()
    expect(banner).to_have_text("Deployment is over: every game should be under way.")
    shot(phone, "2-phone-deployment-over")

    move(121)
    phone.clock.fast_forward("01:30:00")
    expect(banner).to_have_text("End of game time in 30 minutes.")
    expect(clock.locator("[data-clock-time]")).to_have_text(re.compile(r"^(29:00|28:\d\d)$"))
    shot(phone, "3-phone-30-minutes")

    move(136)
    phone.clock.fast_forward("15:00")
    expect(banner).to_have_text("End of game time in 15 minutes.")
    assert banner.get_attribute("aria-live") == "polite"

    move(151)
    phone.clock.fast_forward("15:00")
    expect(banner).to_have_text("End of game time: the game stops at the end of the defender's turn.")
    expect(clock.locator("[data-clock-time]")).to_have_text("0:00")
    shot(phone, "4-phone-end")

    # The server is the reference: shown again (a phone woken up), the page takes the server's time at once.
    move(100)  # the test winds the server back: an obviously different answer
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(clock.locator("[data-clock-time]")).to_have_text(re.compile(r"^(50:00|49:\d\d)$"))
    expect(banner).to_have_text("Deployment is over: every game should be under way.")  # 30 minutes: not yet

    # The referee pauses: the phone says so at its next poll, and the time stands still.
    desk.reload()
    desk.get_by_role("button", name="Pause").click()
    expect(desk.get_by_text("The clock of round 1 is paused.")).to_be_visible()
    phone.clock.fast_forward("00:21")
    expect(clock.get_by_text("Paused")).to_be_visible()
    shown = clock.locator("[data-clock-time]").text_content()
    phone.clock.fast_forward("05:00")
    expect(clock.locator("[data-clock-time]")).to_have_text(shown)

    # Resumed and extended by 5 minutes: 55 minutes left, the 30-minute announcement no longer due.
    desk.get_by_role("button", name="Resume").click()
    desk.get_by_role("button", name="+5 min").click()
    expect(desk.get_by_text("Round 1's game time is 5 minutes longer.")).to_be_visible()
    expect(desk.locator("[data-clock-time]")).to_have_text(re.compile(r"^(55:00|54:\d\d)$"))
    expect(desk.get_by_text("(extended by 5 minutes)")).to_be_visible()
    shot(desk, "5-referee-extended")


def test_the_big_screen_updates_itself_and_cycles_to_the_standings(live_server, referee, new_context,
                                                                   monkeypatch, shot):
    from playwright.sync_api import expect

    from tournaments.live.clock import clock_start
    from tournaments.live.results import Result, results_record
    from tournaments.models import LiveTable

    move = _server_time(monkeypatch)
    live = _day(referee, players=64, rounds=6, army_points=200)
    clock_start(live, 1)
    move(12)

    screen = new_context(viewport=SCREEN, locale="en-GB").new_page()
    screen.set_default_timeout(15_000)
    screen.clock.install()
    screen.goto(f"{live_server.url}/tournaments/{live.pk}/live/screen/")
    seats = screen.locator("[data-screen-panel=seats]")
    expect(seats).to_be_visible()
    expect(seats.locator(".screen-seat")).to_have_count(64)
    expect(screen.locator("[data-clock-time]")).to_have_text(re.compile(r"^2:(18:00|17:5\d)$"))
    assert screen.locator("main a, main button").count() == 0  # a projector: nothing to click
    # Every name fits on the one screen, in columns, without scrolling.
    assert screen.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    assert screen.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    names = seats.locator(".screen-name strong").all_text_contents()
    assert names == sorted(names, key=str.casefold)
    shot(screen, "6-screen-tables")

    # A result entered: the screen shows it at its next poll, without a reload.
    tables = list(LiveTable.objects.filter(round__live=live).order_by("table"))
    results_record(live, 1, [Result(tables[0].table, "A", 10, 40)])
    screen.clock.fast_forward("00:11")
    expect(seats.locator(".screen-seat.done")).to_have_count(2)

    # Every result in: the standings appear, and the screen cycles to them.
    results_record(live, 1, [Result(t.table, "A", 20, 60) for t in tables[1:]])
    screen.clock.fast_forward("00:11")
    standings = screen.locator("[data-screen-panel=standings]")
    expect(standings.locator(".screen-line")).to_have_count(64)
    screen.clock.fast_forward("00:15")
    expect(standings).to_be_visible()
    expect(seats).to_be_hidden()
    expect(standings.get_by_role("heading", name="Standings after round 1")).to_be_visible()
    assert screen.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
    shot(screen, "7-screen-standings")
    screen.clock.fast_forward("00:15")
    expect(seats).to_be_visible()
