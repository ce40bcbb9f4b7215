"""The tournament day's per-client limits (adlg_site.limits, settings.RATE_LIMITS): the live page's searches, a
signed-in account's live page and the draw checks, the players' claims, the referee's player search and the live
API. Each is refused past its limit with 429 and Retry-After while another client goes on; what the hall reads
from the cache (a visitor's page, its polled fragment) is never counted, so that one client searching at full
speed from a hall's address leaves the hall alone. The real rates are checked for the hall they must let
through (and tests/live/test_hall_never_refused.py runs a hall of 300 phones against them)."""

from __future__ import annotations

import random
import uuid

import pytest
from django.urls import reverse
from django_ratelimit.core import _split_rate

from players.models import Player
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db
HALL, OTHER = "198.51.100.20", "203.0.113.9"
GROUPS = ("live_page", "live_claim", "live_find", "live_api")


@pytest.fixture(autouse=True)
def limits(settings):
    """Three requests an hour in every group of the day (an hour, not a minute: a test's few slow requests must not
    straddle the edge of a window, where the count starts again), counted under a prefix of this test's own (the
    cache may be the Redis the suite shares: never cleared)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **dict.fromkeys(GROUPS, "3/h")}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8), players_enter_results=True)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    return live


def _refused_after_three(client, url, *, method="get", data=None, **extra):
    send = getattr(client, method)
    statuses = [send(url, data, **extra).status_code for _ in range(3)]
    assert 429 not in statuses, statuses
    refused = send(url, data, **extra)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    return refused


def test_the_live_search_is_limited_per_address_and_says_how_long_to_wait(client, live):
    url = reverse("live_page", args=[live.pk])
    refused = _refused_after_three(client, url, data={"q": "Martin"}, REMOTE_ADDR=HALL)
    assert "Too many requests" in refused.content.decode()
    assert client.get(url, {"q": "Martin"}, REMOTE_ADDR=OTHER).status_code == 200


def test_a_visitors_live_page_is_never_counted(client, live):
    url = reverse("live_page", args=[live.pk])
    assert [client.get(url, REMOTE_ADDR=HALL).status_code for _ in range(10)] == [200] * 10
    _refused_after_three(client, url, data={"q": "Martin"}, REMOTE_ADDR=HALL)
    assert client.get(url, REMOTE_ADDR=HALL).status_code == 200  # searches refused, the page still shown


def test_a_signed_in_accounts_live_page_is_counted_per_account(client, live, django_user_model):
    url = reverse("live_page", args=[live.pk])
    someone = django_user_model.objects.create_user("someone", password="x-pass-123")
    client.force_login(someone)
    _refused_after_three(client, url, REMOTE_ADDR=HALL)
    client.logout()
    assert client.get(url, REMOTE_ADDR=HALL).status_code == 200  # the address's visitors are not refused


def test_the_public_draw_check_counts_as_the_page(client, referee):
    live = live_tournament(federation_players(8))
    play_round(live, 1, random.Random(4))
    url = reverse("live_check", args=[live.pk, 1])
    _refused_after_three(client, url, data={"pool": "A"}, REMOTE_ADDR=HALL)
    assert client.get(url, {"pool": "A"}, REMOTE_ADDR=OTHER).status_code == 200


def test_the_fragment_is_never_limited(client, live):
    url = reverse("live_now", args=[live.pk])
    etag = client.get(url, REMOTE_ADDR=HALL)["ETag"]
    statuses = {client.get(url, HTTP_IF_NONE_MATCH=etag, REMOTE_ADDR=HALL).status_code for _ in range(10)}
    assert statuses == {304}


def test_a_client_searching_at_full_speed_leaves_the_hall_behind_its_address_alone(client, live):
    page, fragment = reverse("live_page", args=[live.pk]), reverse("live_now", args=[live.pk])
    for _ in range(10):
        client.get(page, {"q": "Martin"}, REMOTE_ADDR=HALL)
    assert client.get(page, {"q": "Martin"}, REMOTE_ADDR=HALL).status_code == 429
    assert client.get(page, REMOTE_ADDR=HALL).status_code == 200
    assert client.get(fragment, REMOTE_ADDR=HALL).status_code == 200


def test_claims_are_limited_per_account_wherever_it_connects_from(client, live, django_user_model):
    table = live.rounds.get().tables.select_related("a", "b").first()
    a_user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    b_user = django_user_model.objects.create_user("b-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=a_user)
    Player.objects.filter(pk=table.b.player_id).update(user=b_user)
    url = reverse("live_claim", args=[live.pk, table.pk])
    claim = {"result": "B", "a_losses": "60", "b_losses": "20"}
    client.force_login(a_user)
    statuses = [client.post(url, claim, REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(4)]
    assert statuses == [302, 302, 302, 429]
    client.force_login(b_user)  # the opponent, from the same address: their own count
    assert client.post(url, claim, REMOTE_ADDR="10.0.0.3").status_code == 302
    table.refresh_from_db()
    assert table.result == "B"  # the refused claim changed nothing; the two that agree count


def test_the_referees_player_search_is_limited_per_account(client, live, referee, board):
    url = reverse("referee:live_players", args=[live.pk])
    client.force_login(referee)
    refused = _refused_after_three(client, url, data={"q": "Joueur"})
    assert "Too many requests" in refused.content.decode()
    client.force_login(board)  # another account, from the same address
    assert client.get(url, {"q": "Joueur"}).status_code == 200


def test_the_live_api_is_limited_per_address_on_the_sites_count(client, live):
    url = reverse("api:live-detail", args=[live.pk])
    # A made-up X-Forwarded-For does not make another client: the site's one client address is read.
    statuses = [client.get(url, REMOTE_ADDR=HALL, HTTP_X_FORWARDED_FOR=f"10.1.0.{n}").status_code
                for n in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = client.get(url, REMOTE_ADDR=HALL)
    assert int(refused["Retry-After"]) >= 1 and "throttled" in refused.json()["detail"].lower()
    assert client.get(url, REMOTE_ADDR=OTHER).status_code == 200
    # Its own count: the rest of the API is not refused to that address.
    assert client.get("/api/systems/", REMOTE_ADDR=HALL).status_code == 200


def test_the_live_api_limits_signed_in_accounts_too(client, live, referee):
    client.force_login(referee)
    url = reverse("api:live-detail", args=[live.pk])
    statuses = [client.get(url, REMOTE_ADDR=f"10.2.0.{n}").status_code for n in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_the_page_says_when_its_polls_are_refused(client, live):
    page = client.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "data-live-busy hidden" in page and "Too many requests from your connection" in page
    client.cookies["django_language"] = "fr"
    french = client.get(reverse("live_page", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Trop de requêtes depuis votre connexion" in french


# --- the real rates --------------------------------------------------------------------------------------------------


def _per_minute(group: str) -> float:
    from adlg_site.settings import base

    count, seconds = _split_rate(base.RATE_LIMITS[group])
    return count * 60 / seconds


def test_a_hall_of_128_players_searching_behind_one_address_is_never_refused():
    assert _per_minute("live_page") >= 2 * 128  # each player searching twice in the same minute


def test_one_client_at_full_speed_is_held_to_a_few_requests_a_second():
    assert _per_minute("live_page") <= 5 * 60  # pages rendered for each request, tens of ms each on a busy machine
    assert _per_minute("live_claim") <= 30  # writes under the tournament's lock


def test_searches_of_one_version_build_the_tournaments_view_once(client, live, monkeypatch):
    """A search matched names against the whole tournament's view, built afresh for each: the cost a client
    searching at full speed turned against the phones."""
    from tournaments.live import public_views, selectors
    from tournaments.live.results import Result, results_record

    built = []
    real = selectors.live_view
    monkeypatch.setattr(public_views.selectors, "live_view", lambda *a, **k: built.append(1) or real(*a, **k))
    table = live.rounds.get().tables.select_related("a").first()
    url = reverse("live_page", args=[live.pk])
    client.get(url, {"q": table.a.last_name}, REMOTE_ADDR=HALL)  # the page's shared parts and the tables, once
    first = len(built)
    for number in range(3):
        page = client.get(url, {"q": table.a.last_name}, REMOTE_ADDR=f"10.3.0.{number}")
        assert f"Table {table.table}, round 1" in page.content.decode()
    assert len(built) == first
    results_record(live, 1, [Result(table.table, "A", 10, 50)])  # a new version: the tables read again
    client.get(url, {"q": table.a.last_name}, REMOTE_ADDR=OTHER)
    assert len(built) > first


def test_a_players_repeated_claims_do_not_make_the_hall_download_the_page_again(client, live, django_user_model):
    from tournaments.models import LiveTournament

    table = live.rounds.get().tables.select_related("a", "b").first()
    a_user = django_user_model.objects.create_user("a-player", password="x-pass-123")
    Player.objects.filter(pk=table.a.player_id).update(user=a_user)
    url = reverse("live_claim", args=[live.pk, table.pk])
    fragment = reverse("live_now", args=[live.pk])
    client.force_login(a_user)
    assert client.post(url, {"result": "A", "a_losses": "40", "b_losses": "100"}).status_code == 302
    etag = client.get(fragment)["ETag"]  # "one player entered a result": a change the pages show
    version = LiveTournament.objects.get(pk=live.pk).version
    for claim in ({"result": "A", "a_losses": "40", "b_losses": "100"}, {"result": "B", "a_losses": "100",
                                                                         "b_losses": "30"}):
        assert client.post(url, claim).status_code == 302
    assert LiveTournament.objects.get(pk=live.pk).version == version
    assert client.get(fragment, HTTP_IF_NONE_MATCH=etag).status_code == 304
    table.refresh_from_db()
    assert table.claim_a["result"] == "B"  # the changed claim is kept, for the opponent to agree with
