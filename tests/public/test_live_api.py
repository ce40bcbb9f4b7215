"""The read API of tournaments run live: shapes, only published rounds, a fixed number of queries."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.rulesets import SPARE_ID
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import NewEntrant, entrant_add
from tournaments.live.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    """The live endpoints are throttled per address through the cache: every test starts with a fresh count."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def test_the_list_shows_running_and_published_live_tournaments(client):
    live = live_tournament(federation_players(6))
    body = client.get("/api/live/").json()
    assert body["count"] == 1
    row = body["results"][0]
    assert row["id"] == live.pk and row["running"] is True and row["published_at"] is None
    assert row["url"].endswith(f"/api/live/{live.pk}/")
    assert row["tournament_url"].endswith(f"/api/tournaments/{live.pk}/")
    assert {"name", "system", "start_date", "end_date", "city", "country", "rounds", "version"} <= set(row)
    assert client.get("/api/live/?running=false").json()["count"] == 0
    assert client.get("/api/live/?running=true").json()["count"] == 1
    assert client.get("/api/live/?runing=true").status_code == 400  # unknown parameters are refused
    assert "live" in client.get("/api/").json()


def test_one_tournament_with_pools_rounds_tables_and_standings(client):
    players = federation_players(7)
    live = live_tournament(players)
    round_ = play_round(live, 1, random.Random(3), seed=99)
    body = client.get(f"/api/live/{live.pk}/").json()
    assert body["id"] == live.pk and body["running"] is True
    (pool,) = body["pools"]
    assert pool["pool"] == "A" and pool["complete_rounds"] == 1
    assert {p["id"] for p in pool["players"]} == {p.pk for p in players}
    (first,) = pool["rounds"]
    assert first["number"] == 1 and first["seed"] == 99 and first["system"] == round_.system
    assert first["complete"] is True and first["published_at"]
    assert len(first["tables"]) == 4
    spare_table = first["tables"][-1]
    assert spare_table["b"] == {"id": SPARE_ID, "tag": None, "name": "Spare"}
    assert all(t["result"] for t in first["tables"])
    standings = pool["standings"]
    assert [s["rank"] for s in standings] == list(range(1, 8))
    assert {s["id"] for s in standings} == {p.pk for p in players}
    assert {"score", "opponents_score", "wins", "draws", "losses", "games", "tiebreak", "name", "tag"} <= set(
        standings[0])


def test_a_proposed_round_is_not_public(client):
    live = live_tournament(federation_players(6))
    play_round(live, 1, random.Random(1))
    round_pair(live)  # round 2 proposed, not published
    body = client.get(f"/api/live/{live.pk}/").json()
    assert [r["number"] for r in body["pools"][0]["rounds"]] == [1]
    assert client.get(f"/api/live/{live.pk}/rounds/1/").status_code == 200
    assert client.get(f"/api/live/{live.pk}/rounds/2/").status_code == 404


def test_one_round_across_its_pools(client):
    live = live_tournament(federation_players(8))
    for n, entrant in enumerate(live.entrants.order_by("pk")):
        entrant.pool = "A" if n < 4 else "B"
        entrant.save()
    for pool in ("A", "B"):
        round_publish(round_pair(live, pool=pool, seed=5))
    body = client.get(f"/api/live/{live.pk}/rounds/1/").json()
    assert body["tournament"] == live.pk and body["round"] == 1
    assert [r["pool"] for r in body["pools"]] == ["A", "B"]
    tables = [t["table"] for r in body["pools"] for t in r["tables"]]
    assert sorted(tables) == [1, 2, 3, 4]  # numbered across the pools
    assert all(t["result"] is None for r in body["pools"] for t in r["tables"])


def test_a_player_new_to_the_federation_has_a_tag_until_publication(client):
    live = live_tournament(federation_players(5))
    new = entrant_add(live, NewEntrant(last_name="Nouveau", first_name="Paul", country="FR"))
    round_publish(round_pair(live, seed=1))
    body = client.get(f"/api/live/{live.pk}/").json()
    (player,) = [p for p in body["pools"][0]["players"] if p["id"] is None]
    assert player["tag"] == f"N{new.pk}" and player["name"] == "Nouveau Paul"
    refs = [ref for t in body["pools"][0]["rounds"][0]["tables"] for ref in (t["a"], t["b"])]
    assert {"id": None, "tag": f"N{new.pk}", "name": "Nouveau Paul"} in refs


def test_unknown_tournaments_answer_404_in_json(client):
    live = live_tournament(federation_players(4))
    assert client.get("/api/live/424242/").status_code == 404
    assert client.get("/api/live/28277628319619203072/").status_code == 404  # past what the database holds
    assert client.get(f"/api/live/{live.pk}/rounds/1/").status_code == 404  # nothing published yet
    response = client.get("/api/live/abc/")
    assert response.status_code == 404 and response.json()["detail"]


def test_the_detail_is_read_in_a_fixed_number_of_queries(client):
    small = live_tournament(federation_players(4, first_id=3001), name="Small")
    play_round(small, 1, random.Random(2))
    big = live_tournament(federation_players(16, first_id=4001), name="Big", rounds=4)
    rng = random.Random(2)
    for number in (1, 2, 3):
        play_round(big, number, rng)
    counts = []
    for live in (small, big):
        for url in (f"/api/live/{live.pk}/", f"/api/live/{live.pk}/rounds/1/"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
    assert counts[:2] == counts[2:]  # the same for 4 players and 1 round as for 16 players and 3 rounds
    assert max(counts) <= 6
    with CaptureQueriesContext(connection) as few:
        client.get("/api/live/")
    live_tournament(federation_players(4, first_id=5001), name="Third")
    with CaptureQueriesContext(connection) as more:
        client.get("/api/live/")
    assert len(few) == len(more) <= 3
