"""A hall is never refused: 300 phones behind the venue's one address open the live page, poll its fragment every
10 s and the clock's face every 20 s, and all open the page again when the next round is published; for two
minutes, on the site's real limits (settings.RATE_LIMITS), while an abusive client from another address searches
and claims without a pause and is refused. Time is simulated (the limits' clock moved by the test): no sleeping."""

from __future__ import annotations

import heapq
import random
import types
import uuid
from collections import Counter

import pytest
from django.urls import reverse

from players.models import Player
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.clock import clock_start
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

pytestmark = pytest.mark.django_db

HALL, ABUSER = "198.51.100.20", "203.0.113.66"
PHONES, SECONDS = 300, 120


@pytest.fixture
def real_limits(settings, monkeypatch):
    """The site's own limits, counted under this test's prefix, on a clock the test moves."""
    import django_ratelimit.core as ratelimit_core

    from adlg_site.settings import base

    settings.RATE_LIMITS = dict(base.RATE_LIMITS)
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    now = {"t": 1_800_000_000.0}
    monkeypatch.setattr(ratelimit_core, "time", types.SimpleNamespace(time=lambda: now["t"]))
    # A count expires in the cache's real time: a simulated minute may take several real ones on a busy machine,
    # and a count gone mid-window would let the abusive client through. Each window has its own key anyway.
    monkeypatch.setattr(ratelimit_core, "EXPIRATION_FUDGE", 3600)
    return now


@pytest.mark.slow  # 6,000 requests of the hall through the test client
def test_300_phones_behind_one_address_are_never_refused_while_an_abusive_client_is(client, real_limits,
                                                                                    django_user_model):
    live = live_tournament(federation_players(32), rounds=4, players_enter_results=True)
    rng = random.Random(42)
    play_round(live, 1, rng)
    round_publish(round_pair(live))
    clock_start(live, 2)
    claimed = LiveTable.objects.filter(round__live=live, round__number=2, b__isnull=False).select_related("a").last()
    abuser = django_user_model.objects.create_user("abuser", password="x-pass-123")
    Player.objects.filter(pk=claimed.a.player_id).update(user=abuser)

    page, fragment = reverse("live_page", args=[live.pk]), reverse("live_now", args=[live.pk])
    face = reverse("live_clock_face", args=[live.pk])
    claim_url = reverse("live_claim", args=[live.pk, claimed.pk])
    events: list[tuple[float, int, str, int]] = []  # (second, order, what, phone)
    order = iter(range(10**9))
    for phone in range(PHONES):
        opened = rng.uniform(0, 10)
        heapq.heappush(events, (opened, next(order), "page", phone))
        for n, at in enumerate(range(10, SECONDS, 10)):
            heapq.heappush(events, (opened + at, next(order), "poll", phone))
            if n % 2 == 0:
                heapq.heappush(events, (opened + at + 0.5, next(order), "clock", phone))
        heapq.heappush(events, (60 + rng.uniform(0, 10), next(order), "page", phone))  # the round published
    for tick in range(SECONDS * 6):  # the abusive client: 6 searches a second and a claim every 2 s, no pause
        heapq.heappush(events, (tick / 6, next(order), "search", -1))
        if tick % 12 == 0:
            heapq.heappush(events, (tick / 6, next(order), "claim", -1))
    heapq.heappush(events, (59.9, next(order), "publish", -1))

    abusive = client_class_for(client)
    abusive.force_login(abuser)
    etags: dict[int, str] = {}
    hall, abuse = Counter(), Counter()
    start = real_limits["t"]
    while events:
        second, _n, what, phone = heapq.heappop(events)
        real_limits["t"] = start + second
        if what == "publish":  # round 2's results in, round 3 paired and published: every phone reloads
            tables = LiveTable.objects.filter(round__live=live, round__number=2).exclude(pk=claimed.pk)
            results_record(live, 2, [Result(t.table, "A", 0, 100) for t in tables])
            results_record(live, 2, [Result(claimed.table, "B", 60, 20)])
            round_publish(round_pair(live))
            continue
        if what == "page":
            status = client.get(page, REMOTE_ADDR=HALL).status_code
        elif what == "poll":
            response = client.get(fragment, HTTP_IF_NONE_MATCH=etags.get(phone, ""), REMOTE_ADDR=HALL)
            etags[phone] = response.get("ETag", "")
            status = response.status_code
        elif what == "clock":
            status = client.get(face, REMOTE_ADDR=HALL).status_code
        elif what == "search":
            abuse[("search", abusive.get(page, {"q": "Player"}, REMOTE_ADDR=ABUSER).status_code)] += 1
            continue
        else:
            abuse[("claim", abusive.post(claim_url, {"result": "A", "a_losses": "40", "b_losses": "100"},
                                         REMOTE_ADDR=ABUSER).status_code)] += 1
            continue
        hall[(what, status)] += 1

    assert not [key for key in hall if key[1] not in (200, 304)], hall
    assert sum(hall.values()) == PHONES * 2 + PHONES * 11 + PHONES * 6
    assert hall[("poll", 304)] > hall[("poll", 200)]  # mostly nothing new
    assert abuse[("search", 429)] > 0 and abuse[("search", 200)] > 0
    assert abuse[("claim", 429)] > 0


def client_class_for(client):
    """Another browser: its own cookies."""
    return type(client)()
