"""In production (LIVE_HALL_SETTLE_SECONDS above 0, requests outside transactions) no phone of the hall waits for
a build when there is a version to show: the poll that finds the day's new version missing answers with the version
before, marked behind, and the new one is built in a thread of the process (hall_parts._build_behind), read by the
next poll. Committed data (transactional tests): the thread reads the database on its own connection."""

from __future__ import annotations

import logging
import random
import time

import pytest
from django.urls import reverse

from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live import hall_parts
from tournaments.live.hall_parts import built_behind, forget_kept_here, started
from tournaments.live.hall_row import live_row
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live(settings):
    settings.LIVE_HALL_SETTLE_SECONDS = 3
    live = live_tournament(federation_players(16), rounds=4, players_enter_results=True)
    play_round(live, 1, random.Random(5))
    round_publish(round_pair(live))
    yield live
    built_behind()
    forget_kept_here()


def _enter_a_result(live) -> None:
    table = LiveTable.objects.filter(round__live=live, round__number=2, result="").order_by("table").first()
    results_record(live, 2, [Result(table.table, "A", 10, 60)])


def _later(monkeypatch, seconds: float) -> None:
    """The server's clock moved on past the hall's delay."""
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + seconds)


def _current_etag(live, language: str = "en") -> str:
    row = live_row(live.pk)
    return f'"live-{live.pk}-{started(row)}-{row.version}-{language}"'


def test_the_poll_that_finds_the_new_version_missing_is_answered_at_once_and_the_next_poll_reads_it(
        client, live, monkeypatch):
    now = reverse("live_now", args=[live.pk])
    before = client.get(now)["ETag"]
    _enter_a_result(live)
    _later(monkeypatch, 3.5)
    builds = []
    real_view = hall_parts.selectors.live_view
    monkeypatch.setattr(hall_parts.selectors, "live_view",
                        lambda *args, **kwargs: builds.append(1) or real_view(*args, **kwargs))

    first = client.get(now, HTTP_IF_NONE_MATCH=before)
    built_behind()
    second = client.get(now, HTTP_IF_NONE_MATCH=before)

    assert first.status_code == 304 and first["Live-Behind"] == "true" and first["ETag"] == before
    assert second.status_code == 200 and second["ETag"] == _current_etag(live)
    assert not second.has_header("Live-Behind")
    assert builds == [1]  # once, in the thread: the second poll read what it built
    table = LiveTable.objects.filter(round__live=live, round__number=2).exclude(result="").order_by("table").first()
    assert f"{table.a_losses}" in second.content.decode()


def test_a_french_reader_gets_the_new_version_built_behind_in_french(client, live, monkeypatch):
    now = reverse("live_now", args=[live.pk])
    before = client.get(now, HTTP_ACCEPT_LANGUAGE="fr")["ETag"]
    _enter_a_result(live)
    _later(monkeypatch, 3.5)

    client.get(now, HTTP_IF_NONE_MATCH=before, HTTP_ACCEPT_LANGUAGE="fr")
    built_behind()
    second = client.get(now, HTTP_IF_NONE_MATCH=before, HTTP_ACCEPT_LANGUAGE="fr")

    assert second.status_code == 200 and second["ETag"] == _current_etag(live, "fr")
    assert "Classement après la ronde" in second.content.decode()


def test_many_polls_at_once_start_one_build_behind(client, live, monkeypatch):
    now = reverse("live_now", args=[live.pk])
    before = client.get(now)["ETag"]
    _enter_a_result(live)
    _later(monkeypatch, 3.5)
    started_threads = []
    real_start = hall_parts.threading.Thread.start
    monkeypatch.setattr(hall_parts.threading.Thread, "start",
                        lambda thread: started_threads.append(thread.name) or real_start(thread))

    answers = [client.get(now, HTTP_IF_NONE_MATCH=before).status_code for _ in range(5)]
    built_behind()

    assert started_threads.count("hall-part-live/_now.html") == 1
    assert 304 in answers


def test_a_build_behind_that_fails_is_logged_and_a_later_poll_builds_it_again(client, live, monkeypatch, caplog):
    now = reverse("live_now", args=[live.pk])
    before = client.get(now)["ETag"]
    _enter_a_result(live)
    _later(monkeypatch, 3.5)
    real_view = hall_parts.selectors.live_view

    def gone(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(hall_parts.selectors, "live_view", gone)
    with caplog.at_level(logging.ERROR, logger="tournaments.live.hall_parts"):
        assert client.get(now, HTTP_IF_NONE_MATCH=before).status_code == 304
        built_behind()
    assert "could not be built" in caplog.text

    monkeypatch.setattr(hall_parts.selectors, "live_view", real_view)
    client.get(now, HTTP_IF_NONE_MATCH=before)
    built_behind()
    assert client.get(now, HTTP_IF_NONE_MATCH=before)["ETag"] == _current_etag(live)


def test_a_visitors_page_built_behind_is_the_current_page_with_each_visitors_own_token(client, live, monkeypatch):
    from django.test import Client
    from django.utils.html import escape

    page = reverse("live_page", args=[live.pk])
    before = client.get(reverse("live_now", args=[live.pk]))["ETag"]
    client.get(page)
    _enter_a_result(live)
    _later(monkeypatch, 15.5)  # the whole page settles five times the hall's delay

    first = client.get(page).content.decode()
    built_behind()
    second, other = client.get(page), Client().get(page)

    assert f'data-etag="{escape(before)}" data-behind="true"' in first
    shown = second.content.decode()
    assert f'data-etag="{escape(_current_etag(live))}" data-behind="false"' in shown
    tokens = [response.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
              for response in (second, other)]
    assert tokens[0] != tokens[1]


def test_a_part_another_worker_builds_is_not_built_behind_here_too(client, live, monkeypatch):
    from django.core.cache import cache

    from tournaments.live.hall_parts import building_key, part_key

    now = reverse("live_now", args=[live.pk])
    before = client.get(now)["ETag"]
    _enter_a_result(live)
    _later(monkeypatch, 3.5)
    cache.add(building_key(part_key(live_row(live.pk), "live/_now.html", "en")), 1, 10)
    started_threads = []
    real_start = hall_parts.threading.Thread.start
    monkeypatch.setattr(hall_parts.threading.Thread, "start",
                        lambda thread: started_threads.append(thread.name) or real_start(thread))

    poll = client.get(now, HTTP_IF_NONE_MATCH=before)

    assert poll.status_code == 304 and poll["Live-Behind"] == "true"
    assert started_threads == []
