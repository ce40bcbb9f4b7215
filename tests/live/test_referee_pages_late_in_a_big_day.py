"""The referee's pages stay cheap late in a big day: the run page, the results page and the players page at round 6
of a 128-player pool with every result in cost the queries they cost at round 2 of 16 players (a handful, no query
per table, round or player); their time is bench/referee_pages.py's."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.live.helpers import federation_players, live_tournament, play_round

pytestmark = pytest.mark.django_db

# What each page costs at most, whatever the day's size: the session, the account and its roles, the live run, its
# entrants, rounds, tables and discarded draws, the clock, the page's own few.
MOST = 30


def _queries_per_page(client, referee, *, players: int, rounds: int, first_id: int) -> dict[str, int]:
    live = live_tournament(federation_players(players, clubs=12, first_id=first_id), rounds=rounds,
                           name=f"Open {players}")
    live.tournament.referees.add(referee)
    rng = random.Random(players)
    for number in range(1, rounds + 1):
        play_round(live, number, rng)
    urls = {"run": reverse("referee:live_run", args=[live.pk]),
            "results": reverse("referee:live_results", args=[live.pk, rounds]),
            "players": reverse("referee:live_players", args=[live.pk])}
    counts = {}
    for name, url in urls.items():
        assert client.get(url).status_code == 200, name  # the first read of a page: what a process does once
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, name
        counts[name] = len(queries)
    return counts


@pytest.mark.slow  # six rounds of 128 players paired and entered
def test_the_referees_pages_at_round_6_of_128_players_cost_the_queries_of_round_2_of_16(client, referee):
    client.force_login(referee)
    small = _queries_per_page(client, referee, players=16, rounds=2, first_id=7001)
    large = _queries_per_page(client, referee, players=128, rounds=6, first_id=8001)
    assert large == small
    assert max(large.values()) <= MOST, large
