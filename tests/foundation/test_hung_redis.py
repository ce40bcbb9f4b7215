"""A Redis that accepts connections and never answers costs what a closed port costs: every call is bounded by a
short socket timeout, and the cache's breaker (adlg_site.cache) stops calling it for a few seconds after a
failure; enqueueing a replay gives up as it does on a closed port. An outage logs one line, not a traceback per
request.

"Hung" is a listener of this test's own on 127.0.0.1 that accepts every connection and never writes a byte; the
shared Redis is never touched."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from copy import deepcopy
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

from adlg_site.cache import breaker_for
from tests import factories
from tests.live.helpers import federation_players, live_tournament

ROOT = Path(__file__).resolve().parents[2]
CLOSED = "redis://127.0.0.1:6390/14"

pytestmark = pytest.mark.django_db


@pytest.fixture
def hung_redis():
    """redis://… of a listener that accepts connections and never answers; closed at the end of the test."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.2)
    held, stop = [], threading.Event()

    def accept():
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            held.append(connection)  # kept open, never read, never answered

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join(2)
    for connection in held:
        connection.close()
    server.close()


def _redis_cache_at(location: str) -> dict:
    """The production cache settings (base.py, as with REDIS_URL set), at another location."""
    options = {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25}
    return {"default": {"BACKEND": "adlg_site.cache.BreakerRedisCache", "LOCATION": location, "KEY_PREFIX": "adlg",
                        "OPTIONS": options}}


def test_the_production_settings_bound_every_cache_call_and_put_it_behind_the_breaker():
    base = deepcopy(django_settings.CACHES["default"])
    expected = _redis_cache_at("x")["default"]
    if base["BACKEND"] == expected["BACKEND"]:  # CI's second pass, with REDIS_URL
        assert base["OPTIONS"] == expected["OPTIONS"]
    source = (ROOT / "adlg_site" / "settings" / "base.py").read_text()
    assert '"BACKEND": "adlg_site.cache.BreakerRedisCache"' in source
    assert '"SOCKET_CONNECT_TIMEOUT": 0.25' in source and '"SOCKET_TIMEOUT": 0.25' in source
    assert django_settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_timeout"] <= 0.5
    assert django_settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS is False


def _timed_gets(client, url: str, count: int) -> tuple[list[int], float]:
    client.get(url)  # warm: templates compiled, the breaker opened if Redis fails
    start = time.monotonic()
    statuses = [client.get(url).status_code for _ in range(count)]
    return statuses, time.monotonic() - start


def _with_and_without_redis(client, settings, location: str, url: str, count: int) -> dict[str, float]:
    """Seconds for `count` GETs of `url` on the local-memory cache, then on the Redis at `location`. Compared,
    not bounded: the machine may be busy, and a hung Redis used to cost half a second per cache call."""
    timings = {}
    for name, caches in (("memory", {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}),
                         ("redis", _redis_cache_at(location))):
        settings.CACHES = caches
        statuses, timings[name] = _timed_gets(client, url, count)
        assert statuses == [200] * count
    return timings


def test_the_rating_list_answers_at_once_with_a_redis_that_never_answers(client, settings, hung_redis):
    player = factories.player("Martin")
    factories.rating(player, value=1500)
    factories.renumber_positions()
    timings = _with_and_without_redis(client, settings, hung_redis, "/ratings/adlg/", 10)
    assert timings["redis"] < timings["memory"] + 1.0, timings  # before: +10 s, two cache calls a page


def test_the_live_fragment_answers_at_once_with_a_redis_that_never_answers(client, settings, hung_redis):
    live = live_tournament(federation_players(6))
    timings = _with_and_without_redis(client, settings, hung_redis, f"/tournaments/{live.pk}/live/now/", 30)
    assert timings["redis"] < timings["memory"] + 1.0, timings  # before: +30 s


def test_a_hung_redis_costs_about_what_a_closed_port_costs(client, settings, hung_redis):
    factories.rating(factories.player("Martin"), value=1500)
    timings = {}
    for name, location in (("closed", CLOSED), ("hung", hung_redis)):
        settings.CACHES = _redis_cache_at(location)
        timings[name] = _timed_gets(client, "/ratings/adlg/", 10)[1]
    assert timings["hung"] < timings["closed"] + 1.0, timings


def test_the_cache_tries_redis_again_after_the_breakers_pause(settings, hung_redis):
    settings.CACHES = _redis_cache_at(hung_redis)
    settings.CACHE_RETRY_SECONDS = 0.3
    start = time.monotonic()
    assert cache.get("k") is None  # times out: the breaker opens
    assert time.monotonic() - start >= 0.2
    quick = time.monotonic()
    assert cache.get("k") is None  # answered without Redis
    assert time.monotonic() - quick < 0.05
    time.sleep(0.35)
    again = time.monotonic()
    assert cache.get("k") is None  # tried again, times out again
    assert time.monotonic() - again >= 0.2


def test_redis_down_logs_one_line_not_a_traceback_per_request(client, settings, caplog):
    settings.CACHES = _redis_cache_at(CLOSED)
    settings.CACHE_RETRY_SECONDS = 0  # every request tries Redis, and fails
    caplog.set_level(logging.INFO)
    factories.rating(factories.player("Martin"), value=1500)
    for _ in range(20):
        assert client.get("/ratings/adlg/").status_code == 200
    about_redis = [r for r in caplog.records if "redis" in r.name.lower() or "redis" in r.getMessage().lower()]
    assert len(about_redis) <= 1, [r.getMessage() for r in about_redis]
    assert not any(r.exc_info for r in caplog.records)
    if about_redis:
        assert len(about_redis[0].getMessage()) < 400


def test_the_log_line_names_no_password():
    assert breaker_for("redis://:s3cret@redis.example:6380/2").server == "redis.example:6380/2"


def test_enqueueing_a_replay_gives_up_with_a_redis_that_never_answers(hung_redis):
    code = ("import time, django; django.setup(); from ratings.tasks import _send\n"
            "start = time.monotonic(); _send('adlg'); print(time.monotonic() - start)")
    env = {**os.environ, "REDIS_URL": hung_redis, "DJANGO_SETTINGS_MODULE": "adlg_site.settings.test",
           "DATABASE_URL": "sqlite:///unused.sqlite3"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert float(result.stdout.strip().splitlines()[-1]) < 2.5  # before: waited for ever
