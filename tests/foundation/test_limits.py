"""Per-client rate limits (adlg_site.limits): one client address for the whole site, read from the configured
proxy header only; counted atomically in the cache, signed-in accounts too; with Redis down, requests pass at
once. The limits themselves are set here (the test settings raise them out of the suite's way)."""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from adlg_site.client import client_address
from adlg_site.limits import ClientRateThrottle, client_key, limit_wait

pytestmark = pytest.mark.django_db
PROXIED = {"TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXY_COUNT": 1}


@pytest.fixture(autouse=True)
def limits(settings):
    """Small limits, counted under a prefix of the test's own so that no count is shared with another test (not
    cache.clear(): on CI's second pass the cache is the Redis database the worker's broker uses)."""
    settings.RATE_LIMITS = {"api": "3/m", "search": "3/m", "burst": "50/h"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    return settings.RATE_LIMITS


def _statuses(client, url, count, **extra):
    return [client.get(url, **extra).status_code for _ in range(count)]


# --- one client address ------------------------------------------------------------------------------------------


def test_the_api_is_not_escaped_by_a_made_up_forwarded_for(client):
    statuses = [client.get("/api/systems/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


@override_settings(**PROXIED)
def test_behind_our_proxy_the_api_counts_the_address_it_appended_not_what_the_client_wrote(client):
    # The client writes a new address each time; our proxy appends the one it saw, always the same.
    statuses = [client.get("/api/systems/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 203.0.113.7").status_code
                for n in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert client.get("/api/systems/", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 200  # another client


@override_settings(**PROXIED)
def test_the_site_and_drf_read_one_client_address():
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7", REMOTE_ADDR="10.0.0.1")
    assert client_address(request) == "203.0.113.7"
    assert ClientRateThrottle().get_ident(request) == "203.0.113.7"


def test_drfs_own_throttles_never_read_a_forwarded_for_the_site_does_not_trust():
    assert api_settings.NUM_PROXIES == 0  # no proxy configured in the tests
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="1.2.3.4", REMOTE_ADDR="10.0.0.1")
    assert BaseThrottle().get_ident(request) == "10.0.0.1"


def test_sign_in_counts_by_the_same_address(settings):
    assert settings.AXES_CLIENT_IP_CALLABLE == "adlg_site.client.client_address"


def test_an_ipv6_client_is_counted_with_its_whole_network():
    factory = RequestFactory()
    one = factory.get("/", REMOTE_ADDR="2001:db8:1:2::1")
    other = factory.get("/", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    one.user = other.user = AnonymousUser()
    assert client_key("g", one) == client_key("g", other) == "network:2001:db8:1:2::/64"


# --- accounts, pages, answers ------------------------------------------------------------------------------------


def test_a_signed_in_account_is_limited_too_wherever_it_connects_from(client, referee):
    client.force_login(referee)
    statuses = [client.get("/api/systems/", REMOTE_ADDR=f"10.0.1.{n}").status_code for n in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_the_api_says_how_long_to_wait(client):
    _statuses(client, "/api/systems/", 3)
    response = client.get("/api/systems/")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "throttled" in response.json()["detail"].lower()


def test_the_upload_api_counts_against_the_api_limit_too(client, referee):
    client.force_login(referee)
    statuses = _statuses(client, "/api/sheets/1/", 4)
    assert statuses[:3] != [429] * 3 and statuses[3] == 429


def test_the_search_page_is_limited_per_address_with_a_page_saying_how_long_to_wait(client):
    assert _statuses(client, "/search/", 3, data={"q": "Martin"}) == [200, 200, 200]
    response = client.get("/search/", {"q": "Martin"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "Too many requests" in response.content.decode()
    assert client.get("/search/", {"q": "Martin"}, REMOTE_ADDR="10.9.9.9").status_code == 200  # another client


def test_the_search_page_says_it_in_french(client):
    _statuses(client, "/search/", 3)
    page = client.get("/search/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Trop de requêtes" in page


def _message_waiting(client, text: str) -> None:
    """A message the site left for the next page, as a browser holds it (Django's messages cookie)."""
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(constants.INFO, text)
    response = HttpResponse()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"].value


def test_a_refusal_reads_only_the_account_it_counts_and_leaves_a_waiting_message_for_the_next_page(
        client, referee, django_assert_num_queries):
    """A script ignoring Retry-After sends hundreds of refusals a second: each is the bare page, which reads
    nothing but the account the limit counts (its session and user), and a message waiting for the person is not
    spent on it."""
    client.force_login(referee)
    assert _statuses(client, "/search/", 3, data={"q": "Martin"}) == [200, 200, 200]
    _message_waiting(client, "Your sheet is saved.")
    with django_assert_num_queries(2):
        refused = client.get("/search/", {"q": "Martin"}, HTTP_ACCEPT_LANGUAGE="fr")
    page = refused.content.decode()
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Trop de requêtes" in page and '<html lang="fr">' in page
    assert "Your sheet is saved." not in page and "csrfmiddlewaretoken" not in page
    assert "Your sheet is saved." in client.get("/").content.decode()


# --- atomic counting ---------------------------------------------------------------------------------------------


def _concurrent_passes(group: str, attempts: int, *, threads: int = 16) -> int:
    """How many of `attempts` requests of one client, sent from `threads` threads at once, were let through."""
    passed, lock, start = [0], threading.Lock(), threading.Barrier(threads)

    def send(count):
        request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1")
        request.user = AnonymousUser()
        start.wait()
        for _ in range(count):
            if not limit_wait(request, group):
                with lock:
                    passed[0] += 1

    workers = [threading.Thread(target=send, args=(attempts // threads,)) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    return passed[0]


def test_concurrent_requests_never_pass_more_than_the_limit(limits):
    assert _concurrent_passes("burst", 400) == 50


REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.mark.services
def test_concurrent_requests_never_pass_more_than_the_limit_on_redis(settings):
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"limits-test-{uuid.uuid4().hex}",
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
    }}
    assert _concurrent_passes("burst", 800, threads=32) == 50


def test_with_redis_down_requests_pass_at_once(settings):
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:6390/14",  # a closed port
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
    }}
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1")
    request.user = AnonymousUser()
    start = time.monotonic()
    assert [limit_wait(request, "api") for _ in range(10)] == [0] * 10
    assert time.monotonic() - start < 2
