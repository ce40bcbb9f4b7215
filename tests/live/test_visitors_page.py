"""A visitor's live page is rendered once per version of the day and language for the whole hall
(tournaments.live.visitor_page): what it shows is exactly the page rendered for that visitor alone, compressed or
not, in either language; what is each request's own (the CSRF token of the language switch, the time the page was
read, the round clock's time left) is each request's; and whoever gets more than the hall's page (a message
waiting, a search, a signed-in account) gets a page of their own."""

from __future__ import annotations

import gzip
import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live import clock as clocks
from tournaments.live import public_views, visitor_page
from tournaments.live.clock import clock_start
from tournaments.live.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    now = timezone.now()
    monkeypatch.setattr(clocks, "clock_now", lambda: now)
    return now


@pytest.fixture
def live():
    live = live_tournament(federation_players(12), rounds=4, players_enter_results=True)
    play_round(live, 1, random.Random(3))
    round_publish(round_pair(live))
    clock_start(live, 2)
    return live


def _shown(html: str) -> str:
    """The page without what is each response's own (the masked CSRF token, the time it was read)."""
    html = re.sub(r'data-updated="\d+"', "", html)
    html = re.sub(r"\b\d\d:\d\d</p>", "</p>", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def _alone(client, monkeypatch, url: str, **headers) -> str:
    """The page rendered for this request alone, as a signed-in reader's or a search's is."""
    with monkeypatch.context() as patch:
        patch.setattr(public_views, "kept_page_applies", lambda request: False)
        return client.get(url, **headers).content.decode()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_hall_page_shows_exactly_the_page_rendered_for_the_visitor_alone_compressed_or_not(
        client, live, monkeypatch, language):
    url = reverse("live_page", args=[live.pk])
    plain = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    packed = client.get(url, HTTP_ACCEPT_LANGUAGE=language, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    unpacked = gzip.decompress(packed.content).decode()
    alone = _alone(client, monkeypatch, url, HTTP_ACCEPT_LANGUAGE=language)
    assert _shown(unpacked) == _shown(plain.content.decode()) == _shown(alone)
    assert ("Ronde 2" if language == "fr" else "Round 2") in unpacked
    assert len(packed.content) < len(plain.content) / 4


def test_each_compressed_response_differs_in_its_random_header_as_djangos_gzip_does(client, live):
    """BREACH: the compressed length must not tell an attacker what the page holds."""
    url = reverse("live_page", args=[live.pk])
    lengths = {len(client.get(url, HTTP_ACCEPT_ENCODING="gzip").content) for _ in range(12)}
    assert len(lengths) > 1


def test_the_language_switch_of_the_hall_page_carries_this_visitors_own_valid_token(live):
    url = reverse("live_page", args=[live.pk])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    tokens = []
    for visitor in (first, second):
        html = visitor.get(url).content.decode()
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1])
    assert tokens[0] != tokens[1]

    switched = first.post(reverse("set_language"), {"csrfmiddlewaretoken": tokens[0], "language": "fr",
                                                    "next": url})
    assert switched.status_code == 302
    assert "Ronde 2" in first.get(url).content.decode()
    refused = second.post(reverse("set_language"), {"csrfmiddlewaretoken": tokens[0], "language": "fr",
                                                    "next": url})
    assert refused.status_code == 403  # another visitor's token is no good


def test_the_clock_and_the_time_read_are_those_of_each_request_not_of_the_page_kept(client, live, server_time,
                                                                                    monkeypatch):
    url = reverse("live_page", args=[live.pk])
    first = client.get(url).content.decode()
    later = server_time + timedelta(minutes=7)
    monkeypatch.setattr(clocks, "clock_now", lambda: later)
    real_localtime = timezone.localtime
    monkeypatch.setattr(timezone, "localtime", lambda value=None, *zone: real_localtime(value or later, *zone))

    again = client.get(url).content.decode()

    left = [int(re.search(r'data-left="(\d+)"', html)[1]) for html in (first, again)]
    assert left[0] - left[1] == 7 * 60
    assert re.search(r'data-updated="(\d+)"', again)[1] == str(int(later.timestamp()))
    assert f"Updated at {real_localtime(later):%H:%M}" in again


def test_a_visitor_with_a_message_waiting_a_search_or_an_account_is_not_given_the_hall_page(live,
                                                                                             django_user_model):
    url = reverse("live_page", args=[live.pk])
    def visitor(query=None, user=None):
        request = RequestFactory().get(url, query)
        request.user, request.session = user or AnonymousUser(), SessionStore()
        request._messages = FallbackStorage(request)
        return request

    assert visitor_page.kept_page_applies(visitor())
    waiting = visitor()
    get_messages(waiting).add(20, "Signed out.")
    assert not visitor_page.kept_page_applies(waiting)
    assert not visitor_page.kept_page_applies(visitor({"q": "Smith"}))
    assert not visitor_page.kept_page_applies(visitor(user=django_user_model.objects.create_user("ada-hall")))


@pytest.mark.parametrize("name", ["Open de printemps", "Open\x1e:csrf\x1e de printemps"],
                         ids=["a name", "a name with the character of the marks"])
def test_a_tournament_renamed_elsewhere_renames_the_hall_page_without_a_change_of_the_day(client, live, name):
    url = reverse("live_page", args=[live.pk])
    client.get(url)
    live.tournament.name = name
    live.tournament.save()
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and f"<h1>{name} " in gzip.decompress(response.content).decode()


def test_the_hall_page_once_kept_costs_no_query(client, live, django_assert_num_queries):
    url = reverse("live_page", args=[live.pk])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert _shown(gzip.decompress(again.content).decode()) == _shown(gzip.decompress(first.content).decode())
