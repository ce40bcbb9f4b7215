"""The hall's big screen fits a projector, whatever the field: 8 to 128 players in one to four pools, at 1920x1080
and 1280x720, in every phase of a round (its pairings with the clock running and its banner up, the round over
with the standings, the next round with both), by pages and letters sized to the window, never by a scroll.

Each phase is watched through a whole turn of the screen's pages (Playwright's clock moved by one page's time at
a time): every row shown lies inside the window, the document is no taller nor wider than the window, and every
player appears on some page of the players and of the standings. Debian's Chromium; screenshots
test-artifacts/screenshots/screen-fit-<players>-<pools>-<phase>-<width>-<page>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.browser.checks import axe_problems
from tests.live.helpers import federation_players
from tournaments.live.entrants import NewEntrant
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import LiveTable, Tournament

SCREENSHOT_PREFIX = "screen-fit"  # see tests/browser/conftest.py
SIZES = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
PAGE_SECONDS = 15  # static/js/screen.js CYCLE_MS
T0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
# The longest names a field brings: cut short with an ellipsis, never wider than their column.
LONG = ("DE LA TOUR D'AUVERGNE-LAURAGUAIS", "Marie-Christine Bénédicte")
SHOTS = {(23, 2), (128, 4)}  # the fields whose screenshots are kept for a person to look at

# What the page shows now: the panel and page shown, the rows shown with their boxes, what else is drawn.
SEEN = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const panel = document.querySelector('[data-screen-panel]:not([hidden])');
  const rows = [...panel.querySelectorAll('li')].filter(li => li.offsetParent !== null);
  return {
    panel: panel.getAttribute('data-screen-panel'), page: panel.getAttribute('data-page'),
    pages: panel.getAttribute('data-pages'),
    pageNo: panel.querySelector('[data-screen-page-no]:not([hidden])')?.textContent || '',
    rows: rows.map(li => ({name: li.querySelector('.screen-name').textContent.trim(), box: box(li),
                           clipped: [...li.children].some(c => c.scrollWidth > c.clientWidth + 1
                                                             && getComputedStyle(c).textOverflow !== 'ellipsis')})),
    drawn: [...document.querySelectorAll('h1, h2, h3, [data-clock], [data-screen-page-no]')]
      .filter(e => e.offsetParent !== null && !e.closest('[hidden]')).map(e => ({what: e.tagName, box: box(e)})),
    scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def _pool_names(pools: int) -> list[str]:
    return ["A", "B", "C", "D"][:pools]


def _field(players: int, pools: int, referee):
    """`players` of the federation in `pools` pools of sizes as even as they come, round 1 published."""
    made = federation_players(players, clubs=12, first_id=5001)
    for n, player in enumerate(made[::9]):
        player.last_name, player.first_name = f"{LONG[0]} {n + 1}", LONG[1]
        player.save(update_fields=["last_name", "first_name"])
    names = _pool_names(pools)
    tournament = factories.tournament(f"Open du grand écran {players}", start=date(2026, 11, 21),
                                      end=date(2026, 11, 21), rounds=5, status=Tournament.REGISTERED)
    tournament.army_points = 200
    tournament.save(update_fields=["army_points"])
    tournament.referees.add(referee)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk, pool=names[i % pools])
                                            for i, p in enumerate(made)])
    for n, pool in enumerate(names):
        round_publish(round_pair(live, pool=pool, seed=11 + n))
    return live


def _finish(live, number: int) -> None:
    results_record(live, number, [Result(t.table, "A", 0, 100) if t.b_id is None else
                                  Result(t.table, "A" if t.table % 3 else "D", 10 + t.table % 40, 60)
                                  for t in LiveTable.objects.filter(round__live=live, round__number=number)])


def _a_whole_turn(screen, size, label: str, shoot) -> dict[str, list[str]]:
    """Every page of every panel once, from the first page of the players: the rows each panel showed in all."""
    width, height = size["width"], size["height"]
    shown: dict[str, list[str]] = {}
    turn = []
    for _ in range(40):
        seen = screen.evaluate(SEEN)
        step = (seen["panel"], seen["page"])
        if turn and step == turn[0]:
            break
        turn.append(step)
        where = f"{label} {width}x{height} {seen['panel']} page {seen['page']}/{seen['pages']}"
        assert seen["scrollHeight"] <= height and seen["scrollWidth"] <= width, f"{where}: the screen scrolls"
        assert seen["rows"] or seen["panel"] == "seats", f"{where}: an empty page"
        for row in seen["rows"]:
            left, top, right, bottom = row["box"]
            assert left >= 0 and right <= width and top >= 0 and bottom <= height, \
                f"{where}: {row['name']} at {row['box']} is outside the window"
            assert not row["clipped"], f"{where}: {row['name']} is cut without an ellipsis"
        for drawn in seen["drawn"]:
            left, top, right, bottom = drawn["box"]
            assert left >= 0 and right <= width and top >= 0 and bottom <= height, \
                f"{where}: a {drawn['what']} at {drawn['box']} is outside the window"
        if int(seen["pages"] or 1) > 1:
            assert seen["pageNo"] == f"Page {seen['page']}/{seen['pages']}", where
        shown.setdefault(seen["panel"], []).extend(_who(row["name"]) for row in seen["rows"])
        shoot(f"{width}-{seen['panel']}-{seen['page']}")
        screen.clock.fast_forward(f"00:{PAGE_SECONDS:02d}")
        screen.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    else:
        raise AssertionError(f"{label}: the pages never came back to the first")
    return shown


def _who(name: str) -> str:
    """A name as either panel writes it (the players: last name first; the standings: first name first)."""
    return " ".join(sorted(name.split()))


def _rows_per_panel(screen) -> dict[str, int]:
    return screen.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-screen-panel]')]
        .map(p => [p.getAttribute('data-screen-panel'), p.querySelectorAll('li').length]))""")


@pytest.mark.parametrize(("players", "pools"), [(8, 1), (23, 2), (64, 3), (128, 4), (128, 1)])
def test_the_big_screen_fits_both_projectors_by_pages_for_any_field(live_server, referee, new_context,
                                                                    monkeypatch, shot, players, pools):
    from tournaments.live import clock as clocks

    now = {"at": T0}
    monkeypatch.setattr(clocks, "clock_now", lambda: now["at"])
    live = _field(players, pools, referee)
    everyone = sorted(_who(f"{e.last_name} {e.first_name}") for e in live.entrants.all())
    clocks.clock_start(live, 1)
    now["at"] = T0 + timedelta(minutes=31)  # deployment over: the clock's banner up, the tallest it gets

    screen = new_context(viewport=SIZES[0], locale="en-GB").new_page()
    screen.set_default_timeout(15_000)
    screen.clock.install()
    url = f"{live_server.url}/tournaments/{live.pk}/live/screen/"

    def phase(name: str, *, clock: bool, standings: bool) -> None:
        screen.goto(url)
        expect(screen.locator("[data-screen-panel=seats]")).to_be_visible()
        expect(screen.locator("[data-clock-time]")).to_have_count(1 if clock else 0)
        if clock:
            expect(screen.locator("[data-clock-banner]")).to_have_text(
                "Deployment is over: every game should be under way.")
        for size in SIZES:
            screen.set_viewport_size(size)
            screen.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            label = f"{players} players in {pools} pool(s), {name}"

            def shoot(step: str, size=size) -> None:
                if (players, pools) in SHOTS:
                    shot(screen, f"{players}-{pools}-{name}-{step}", full_page=False)

            shown = _a_whole_turn(screen, size, label, shoot)
            # Every player once: on one page of the players, on one page of the standings.
            assert sorted(shown["seats"]) == everyone, f"{label}: the players shown are not the field"
            assert _rows_per_panel(screen)["seats"] == players
            if standings:
                assert sorted(shown["standings"]) == everyone, f"{label}: the standings shown are not the field"
            else:
                assert "standings" not in shown
            problems = axe_problems(screen)
            assert not problems, problems
        screen.set_viewport_size(SIZES[0])

    # Round 1 paired and under way: the players by name, the clock with its banner.
    phase("pairings", clock=True, standings=False)
    # Every result in: round 1 is over (no clock) and the standings of each pool come up.
    _finish(live, 1)
    phase("standings", clock=False, standings=True)
    # Round 2 published and its clock started: the players, the standings after round 1, the clock.
    for pool in _pool_names(pools):
        round_publish(round_pair(live, pool=pool))
    now["at"] = T0 + timedelta(hours=3)
    clocks.clock_start(live, 2)
    now["at"] = T0 + timedelta(hours=3, minutes=31)
    phase("round-2", clock=True, standings=True)
