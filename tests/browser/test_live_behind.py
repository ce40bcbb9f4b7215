"""A phone shown a version of the day before the current one asks again within seconds, not at its usual pace
(static/js/live.js): the page marked behind (data-behind, the version being built or settling when it was served)
polls after 3 s, a poll answered with Live-Behind asks again within 3 to 6 s, and one answered without it waits the
usual 10 s. The page's own timers run on Playwright's clock; the polls' answers are the server's, marked as a
building server marks them.

Debian's Chromium, at phone width.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from tests.live.helpers import federation_players, live_tournament
from tournaments.live.rounds import round_pair, round_publish

PHONE = {"width": 390, "height": 844}


def _polls_seen(polls: list, count: int, page, *, within: float = 5) -> bool:
    """Whether the page has sent `count` polls, each answered, within `within` real seconds (the answer crosses the
    network; the page's clock stands still meanwhile)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if len(polls) >= count:
            page.wait_for_timeout(150)  # the answer read and the next poll's timer set
            return True
        page.wait_for_timeout(50)
    return False


def _phone_on_the_live_page(live_server, new_context, live, *, behind: bool, answers_behind: list[bool]):
    """A phone on the public live page, the page served marked behind or not; its polls counted, the n-th answered
    with Live-Behind when answers_behind[n] is true."""
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    polls: list[int] = []

    def page_served(route):
        response = route.fetch()
        html = response.text().replace('data-behind="false"', f'data-behind="{"true" if behind else "false"}"')
        route.fulfill(response=response, body=html)

    def poll_answered(route):
        if route.request.method != "GET":  # the connection banner's probe (static/js/offline.js), not a poll
            route.continue_()
            return
        response = route.fetch()
        marked = answers_behind[len(polls)] if len(polls) < len(answers_behind) else False
        polls.append(1)
        headers = {key: value for key, value in response.headers.items() if key.lower() != "live-behind"}
        if marked:
            headers["Live-Behind"] = "true"
        route.fulfill(response=response, headers=headers)

    page.route(f"**/tournaments/{live.pk}/live/", page_served)
    page.route(f"**/tournaments/{live.pk}/live/now/", poll_answered)
    # The page's time stands still (installed, it would flow with the real one): only run_for moves it.
    now = datetime.now(UTC)
    page.clock.install(time=now)
    page.clock.pause_at(now + timedelta(seconds=1))
    page.goto(f"{live_server.url}/tournaments/{live.pk}/live/")
    return context, page, polls


def _live():
    live = live_tournament(federation_players(8, clubs=8), rounds=3, name="Open en retard")
    round_publish(round_pair(live, pool="A", seed=3))
    return live


def test_a_page_shown_behind_asks_again_within_seconds_until_it_is_current(live_server, new_context):
    live = _live()
    context, page, polls = _phone_on_the_live_page(live_server, new_context, live, behind=True,
                                                   answers_behind=[True, False])
    assert 'data-behind="true"' in page.content()

    page.clock.run_for(2_500)
    assert not _polls_seen(polls, 1, page, within=1)  # not before 3 s
    page.clock.run_for(1_000)
    assert _polls_seen(polls, 1, page)  # the first poll after 3 s, answered "still behind"
    page.clock.run_for(6_100)
    assert _polls_seen(polls, 2, page)  # asked again within 3 to 6 s; now current
    page.clock.run_for(9_000)
    assert not _polls_seen(polls, 3, page, within=1)  # current: back to its usual pace
    page.clock.run_for(1_200)
    assert _polls_seen(polls, 3, page)
    context.close()


def test_a_current_page_polls_at_its_usual_pace(live_server, new_context):
    live = _live()
    context, page, polls = _phone_on_the_live_page(live_server, new_context, live, behind=False,
                                                   answers_behind=[])

    page.clock.run_for(9_000)
    assert not _polls_seen(polls, 1, page, within=1)
    page.clock.run_for(1_200)
    assert _polls_seen(polls, 1, page)
    context.close()
