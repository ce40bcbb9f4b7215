"""What the hall reads on a tournament day costs almost nothing: the live run's row and the parts rendered once per
change of the day come from the cache (tournaments.live.hall_row, hall_parts), a poll with the current ETag
answers 304 without a query, and every change of the day is seen at the next read with exactly what a page
rendered from nothing shows, in the reader's language, with nobody's own header kept for another."""

from __future__ import annotations

import random
import re

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live import clock as clocks
from tournaments.live.clock import clock_start
from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.hall_parts import building_key, forget_kept_here, part_key, started
from tournaments.live.hall_row import live_row
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db

HALL_READS = ("live_page", "live_now", "live_screen", "live_screen_now", "live_clock_face")
NO_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    """The server's time stands still (tournaments.live.clock.clock_now): the clock's time left is the same in a
    page read from the cache and one rendered from nothing."""
    now = timezone.now()
    monkeypatch.setattr(clocks, "clock_now", lambda: now)


@pytest.fixture
def live():
    live = live_tournament(federation_players(16), rounds=4, players_enter_results=True)
    play_round(live, 1, random.Random(5))
    round_publish(round_pair(live))
    return live


def _urls(live) -> dict[str, str]:
    return {name: reverse(name, args=[live.pk]) for name in HALL_READS}


def _shown(response) -> str:
    """The page without what differs at each response whatever the cache (masked CSRF tokens, action keys, the
    wall clock's time the offline banner says the page was shown at)."""
    html = response.content.decode()
    html = re.sub(r'data-updated="\d+"', "", html)
    html = re.sub(r"\b\d\d:\d\d</p>", "</p>", html)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r'name="action_key" value="[0-9a-f]{32}"', "", html)


def _from_nothing(client, settings, url: str, **extra) -> str:
    """The page as it is rendered with no cache at all (nor the process's own copies of the parts)."""
    cached = settings.CACHES
    settings.CACHES = NO_CACHE
    forget_kept_here()
    try:
        return _shown(client.get(url, **extra))
    finally:
        settings.CACHES = cached


def _another_worker_builds(live, name: str) -> str:
    """Another server worker's mark that it is building the English part `name` of the current version (as
    hall_parts.shared sets it); returns the mark's key."""
    from django.core.cache import cache

    key = building_key(part_key(live, name, "en"))
    cache.add(key, 1, 10)
    return key


def test_a_poll_with_the_current_etag_answers_304_without_touching_the_database(client, live,
                                                                                django_assert_num_queries):
    for name in ("live_now", "live_screen_now"):
        url = reverse(name, args=[live.pk])
        etag = client.get(url)["ETag"]
        with django_assert_num_queries(0):
            response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304 and response["ETag"] == etag


def test_the_hall_reads_cost_no_query_once_rendered_and_show_what_a_page_rendered_from_nothing_shows(
        client, live, settings, django_assert_num_queries):
    clock_start(live, 2)
    for name, url in _urls(live).items():
        first = _shown(client.get(url))
        with django_assert_num_queries(0):
            again = client.get(url)
        assert again.status_code == 200, name
        assert _shown(again) == first == _from_nothing(client, settings, url), name


def _change_result(live):
    table = LiveTable.objects.filter(round__live=live, round__number=2, result="").order_by("table").first()
    results_record(live, 2, [Result(table.table, "A", 10, 60)])


def _change_pairing(live):
    tables = LiveTable.objects.filter(round__live=live, round__number=2).order_by("table")
    results_record(live, 2, [Result(t.table, "A", 0, 100) if t.b_id is None else Result(t.table, "B", 70, 20)
                             for t in tables])
    round_pair(live)


def _change_clock(live):
    clock_start(live, 2)


def _change_entrant(live):
    entrant_add(live, NewEntrant(last_name="Latecomer", first_name="Zoé"))


@pytest.mark.parametrize("change", [_change_result, _change_pairing, _change_clock, _change_entrant],
                         ids=["result entered", "round paired", "clock started", "entrant added"])
def test_every_change_of_the_day_is_read_at_the_next_poll_as_a_page_rendered_from_nothing(client, live, settings,
                                                                                          change):
    urls = _urls(live)
    before = {name: client.get(url) for name, url in urls.items()}  # all cached
    version = live_row(live.pk).version
    change(live)
    assert live_row(live.pk).version > version
    for name in ("live_now", "live_screen_now"):
        response = client.get(urls[name], HTTP_IF_NONE_MATCH=before[name]["ETag"])
        assert response.status_code == 200 and response["ETag"] != before[name]["ETag"], name
    for name, url in urls.items():
        assert _shown(client.get(url)) == _from_nothing(client, settings, url), name
    face = client.get(urls["live_clock_face"]).content.decode()
    if change is _change_clock:
        assert "Not started yet" in _shown(before["live_clock_face"]) and "Not started yet" not in face
    if change is _change_result:
        assert _shown(client.get(urls["live_now"])) != _shown(before["live_now"])


def test_french_and_english_readers_each_get_their_language_from_the_cache(client, live):
    url = reverse("live_now", args=[live.pk])
    english = client.get(url)
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert english["ETag"] != french["ETag"]
    assert "Round 2" in english.content.decode() and "Ronde 2" in french.content.decode()
    assert "Ronde 2" in client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Round 2" in client.get(url).content.decode()


def test_a_signed_in_accounts_header_is_never_shown_to_another_reader(client, live, django_user_model):
    url = reverse("live_page", args=[live.pk])
    client.force_login(django_user_model.objects.create_user("rosalind-hall", password="x-pass-123"))
    assert "Signed in as" in client.get(url).content.decode()
    client.logout()
    visitor = client.get(url).content.decode()
    assert "Signed in as" not in visitor and "Sign in" in visitor


def test_a_tournament_changed_elsewhere_is_read_again(client, live):
    url = reverse("live_page", args=[live.pk])
    client.get(url)
    tournament = Tournament.objects.get(pk=live.pk)
    tournament.name = "Open renamed"
    tournament.save()
    assert "Open renamed" in client.get(url).content.decode()


def test_what_is_read_inside_a_transaction_is_not_kept(client, live):
    """A page rendered inside a change that then rolls back must not leave what rolled back for the hall."""
    url = reverse("live_now", args=[live.pk])
    shown = client.get(url)
    with pytest.raises(RuntimeError), transaction.atomic():
        _change_result(live)
        assert client.get(url)["ETag"] != shown["ETag"]  # the changing request sees its change
        raise RuntimeError("the change fails")
    again = client.get(url, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert again.status_code == 304


def test_a_row_another_process_changed_is_read_within_a_second_and_one_changed_here_at_once(live, monkeypatch):
    import copy
    import time

    from django.core.cache import cache

    from tournaments.live import hall_row

    row = live_row(live.pk)
    newer = copy.copy(row)
    newer.version = row.version + 5
    cache.set(hall_row._key(live.pk), newer, 60)  # another process wrote the row again after a change

    assert live_row(live.pk).version == row.version  # this process's copy, for a second
    real_monotonic = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real_monotonic() + hall_row.ROW_KEPT_HERE + 0.1)
    assert live_row(live.pk).version == row.version + 5
    monkeypatch.setattr(time, "monotonic", real_monotonic)

    _change_result(live)  # a change made in this process
    assert live_row(live.pk).version == LiveTournament.objects.get(pk=live.pk).version


def test_threads_that_want_a_part_while_it_is_built_wait_for_it_instead_of_building_it_too():
    """A change of the day, then 300 phones' polls within moments: one build a process, not one a poll."""
    import threading
    import time
    from types import SimpleNamespace

    from tournaments.live.hall_parts import shared

    day = SimpleNamespace(pk=987654, started_at=timezone.now(), version=3)
    builds = []

    def build():
        builds.append(1)
        time.sleep(0.2)  # long enough for every thread to miss the cache first
        return "the part"

    got = []
    threads = [threading.Thread(target=lambda: got.append(shared(day, "herd", build, language="en")))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert got == ["the part"] * 8
    assert len(builds) == 1


def test_the_parts_of_a_version_are_built_from_one_view_of_the_day_and_the_next_version_from_a_new_one(
        live, monkeypatch):
    from tournaments.live import hall_parts, selectors

    built = []
    real = selectors.live_view
    monkeypatch.setattr(selectors, "live_view", lambda day, **kw: built.append(day.version) or real(day, **kw))
    row = live_row(live.pk)

    first = hall_parts.day_view(row, language="fr")
    again = hall_parts.day_view(row, language="fr")
    results_record(live, 2, [Result(t.table, "A", 10, 40) for t in
                             LiveTable.objects.filter(round__live=live, round__number=2)[:1]])
    changed = live_row(live.pk)
    after = hall_parts.day_view(changed, language="fr")

    assert again is first
    assert changed.version > row.version
    assert after is not first
    assert built == [row.version, changed.version]


def test_a_part_another_process_is_building_is_waited_for_not_built_again():
    """Another server worker building the part (its mark in the shared cache): this one waits for it."""
    import threading
    from types import SimpleNamespace

    from django.core.cache import cache

    from tournaments.live.hall_parts import shared

    day = SimpleNamespace(pk=987655, started_at=timezone.now(), version=4)
    key = part_key(day, "herd", "en")
    cache.add(building_key(key), 1, 10)
    other = threading.Timer(0.2, lambda: (cache.set(key, ("built by the other worker",)),
                                          cache.delete(building_key(key))))
    other.start()
    built_here = []

    value = shared(day, "herd", lambda: built_here.append(1) or "built here", language="en")

    other.join()
    assert value == "built by the other worker"
    assert built_here == []


def test_a_poll_while_the_new_version_is_being_built_gets_the_version_before_at_once():
    """The day changed and another worker is building the new part: the poll is answered with the version built
    before it (and that version's ETag, so the phone asks again at its next poll), not held until the build ends."""
    from types import SimpleNamespace

    from django.core.cache import cache

    from tournaments.live.hall_parts import shared, shared_or_earlier

    day = SimpleNamespace(pk=987656, started_at=timezone.now(), version=5)
    shared(day, "herd", lambda: "version 5", language="en")
    day.version = 6
    building = _another_worker_builds(day, "herd")
    built_here = []

    during = shared_or_earlier(day, "herd", lambda: built_here.append(1) or "version 6", language="en")
    cache.delete(building)
    after = shared_or_earlier(day, "herd", lambda: built_here.append(1) or "version 6", language="en")

    assert during == ("version 5", 5)
    assert after == ("version 6", 6)
    assert built_here == [1]


def test_a_live_page_opened_while_the_new_version_is_built_is_the_version_before_and_polls_from_it(client, live):
    """A visitor's page opened while another worker builds the new version's page is the version before, at once,
    and its first poll sends that version's ETag: never taken for the current one, the phone gets the change at
    that poll."""
    from django.utils.html import escape

    url = reverse("live_page", args=[live.pk])
    client.get(url)
    before = client.get(reverse("live_now", args=[live.pk]))["ETag"]
    _change_result(live)
    row = live_row(live.pk)
    _another_worker_builds(row, f"live-page-{row.stamp}")

    shown = client.get(url).content.decode()

    assert f'data-etag="{escape(before)}"' in shown
    poll = client.get(reverse("live_now", args=[live.pk]), HTTP_IF_NONE_MATCH=before)
    assert poll.status_code == 200 and poll["ETag"] != before


def test_a_searched_live_page_shown_while_its_fragment_is_rebuilt_polls_from_the_version_it_shows(client, live):
    """A page rendered for its reader (here, a search) shows the fragment of the version before while another
    worker builds the new one, with that version's ETag: never taken for the current one."""
    from django.core.cache import cache
    from django.utils.html import escape

    url = reverse("live_page", args=[live.pk]) + "?q=nobody"
    before = client.get(reverse("live_now", args=[live.pk]))["ETag"]
    _change_result(live)
    building = _another_worker_builds(live_row(live.pk), "live/_now.html")

    shown = client.get(url).content.decode()

    assert f'data-etag="{escape(before)}"' in shown
    poll = client.get(reverse("live_now", args=[live.pk]), HTTP_IF_NONE_MATCH=before)
    assert poll.status_code == 304 and poll["ETag"] == before  # still building: nothing newer to send yet
    cache.delete(building)
    poll = client.get(reverse("live_now", args=[live.pk]), HTTP_IF_NONE_MATCH=before)
    assert poll.status_code == 200 and poll["ETag"] != before


def test_while_the_day_keeps_changing_the_hall_reads_a_version_built_once_in_a_few_seconds(client, live, settings,
                                                                                           monkeypatch):
    """Production's delay (LIVE_HALL_SETTLE_SECONDS): within it after a build, a poll gets the version built (a 304
    for the phone that has it) and a visitor's page that version's page; after it, the latest change at once."""
    import time

    from django.utils.html import escape

    settings.LIVE_HALL_SETTLE_SECONDS = 3
    page, now = reverse("live_page", args=[live.pk]), reverse("live_now", args=[live.pk])
    client.get(page)
    before = client.get(now)["ETag"]
    _change_result(live)
    _change_entrant(live)

    poll = client.get(now, HTTP_IF_NONE_MATCH=before)
    assert poll.status_code == 304 and poll["ETag"] == before and poll["Live-Behind"] == "true"
    shown = client.get(page).content.decode()
    assert f'data-etag="{escape(before)}" data-behind="true"' in shown  # its script asks again in a few seconds

    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 3.5)
    row = live_row(live.pk)
    current = f'"live-{live.pk}-{started(row)}-{row.version}-en"'
    poll = client.get(now, HTTP_IF_NONE_MATCH=before)
    assert poll.status_code == 200 and poll["ETag"] == current and not poll.has_header("Live-Behind")
    # The whole page (its rounds below, which no poll brings: the bulk of its cost) settles five times as long.
    assert f'data-etag="{escape(before)}" data-behind="true"' in client.get(page).content.decode()
    monkeypatch.setattr(time, "time", lambda: real_time() + 15.5)
    assert f'data-etag="{escape(current)}" data-behind="false"' in client.get(page).content.decode()


def test_a_signed_in_players_live_page_reads_their_table_not_the_whole_day(client, live, django_user_model,
                                                                            monkeypatch):
    """A hall of signed-in players opening the page at a round's publication: each reads their own table (what
    each player entered, afresh), the rest from the hall's parts; the day's view is not worked out for them."""
    from players.models import Player
    from tournaments.live import selectors

    table = LiveTable.objects.filter(round__live=live, round__number=2).select_related("a").order_by("table").first()
    user = django_user_model.objects.create_user("hall-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=user)
    client.force_login(user)
    url = reverse("live_page", args=[live.pk])
    client.get(url)  # the hall's parts of this version, as the first phone of the hall builds them

    def whole_day(*args, **kwargs):
        raise AssertionError("the whole day worked out for one player's page")

    monkeypatch.setattr(selectors, "live_view", whole_day)
    page = client.get(url).content.decode()

    assert f"Your table: {table.table} (round 2)" in page


def test_a_build_that_fails_leaves_nothing_being_built_so_the_next_poll_builds_it_again():
    """A part whose build raised is not taken as still being built: the next poll does not get the version before
    for good, it builds the current one."""
    from types import SimpleNamespace

    from tournaments.live.hall_parts import shared, shared_or_earlier

    day = SimpleNamespace(pk=987657, started_at=timezone.now(), version=7)
    shared(day, "herd", lambda: "version 7", language="en")
    day.version = 8

    def fails():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        shared(day, "herd", fails, language="en")

    assert shared_or_earlier(day, "herd", lambda: "version 8", language="en") == ("version 8", 8)
