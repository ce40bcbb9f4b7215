"""Benchmark of a tournament day's pages one request at a time, as the server spends on them (Django's test Client
through the whole middleware, no network): the hall's reads (a visitor's live page, its fragment, a poll
answered 304, the big screen, the clock's face, a private link's page) and the referee's pages (the run page,
the results page, the players page) at round ROUNDS of a PLAYERS-player pool with every result in.

Builds the day through the live services in its own database: the SQLite file db.sqlite3.bench-live-pages in the
project (made afresh, git-ignored), or a database `<DATABASE_URL name>_pages` made afresh on PostgreSQL. Prints
p50 / p95 / max in milliseconds and the queries of each page; with --json the last line is one JSON object.
Targets: a cached read <= 5 ms p95, a 304 <= 2 ms, a private link's page <= 15 ms, each referee's page < 300 ms.

    python bench/live_pages.py [--players 128] [--rounds 6] [--requests 50] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REFEREE = "bench-referee"


def _database() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        from bench.replay import _recreate, bench_url

        name, url = bench_url(url, suffix="_pages")
        _recreate(url, name)
        return url
    path = ROOT / "db.sqlite3.bench-live-pages"
    for part in ROOT.glob("db.sqlite3.bench-live-pages*"):
        part.unlink()
    return f"sqlite:///{path}"


def build(players: int, rounds: int):
    """The federation and the day: `rounds` rounds paired, published and entered, the clock of the last started."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from adlg_site.reference_data import ensure_reference_data
    from players.models import Club, Player
    from ratings.models import PlayerRating
    from tournaments.live.clock import clock_start
    from tournaments.live.entrants import NewEntrant
    from tournaments.live.results import Result, results_record
    from tournaments.live.rounds import round_pair, round_publish
    from tournaments.live.start import live_begin
    from tournaments.models import LiveTable, Tournament

    call_command("migrate", verbosity=0)
    ensure_reference_data()
    rng = random.Random(20261202)
    clubs = Club.objects.bulk_create([Club(name=f"Club {n}", country_id="FR") for n in range(40)])
    people = Player.objects.bulk_create([
        Player(id=1000 + n, last_name=f"Joueur{n:04d}", first_name=rng.choice(["Ann", "Luc", "Eva", "Paul"]),
               club=rng.choice(clubs), country_id="FR") for n in range(players)])
    PlayerRating.objects.bulk_create([
        PlayerRating(system_id="adlg", player=p, rating=rng.randint(800, 1900), games=rng.randint(5, 200),
                     rank_code="", last_played=date(2026, 10, 1)) for p in people])
    referee = get_user_model().objects.create_user(REFEREE, password="bench-referee-password-1")
    tournament = Tournament.objects.create(
        system_id="adlg", name="Bench day", start_date=date(2026, 11, 21), end_date=date(2026, 11, 22),
        city="Paris", country_id="FR", rounds=rounds, status=Tournament.REGISTERED, referee_name="Bench")
    tournament.referees.add(referee)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in people], user=referee,
                      players_enter_results=True)
    for number in range(1, rounds + 1):
        round_ = round_pair(live, seed=7 if number == 1 else None, user=referee)
        round_publish(round_, user=referee)
        results = []
        for table in LiveTable.objects.filter(round=round_):
            low, high = sorted(rng.sample(range(0, 101, 5), 2))
            winner = "A" if table.b_id is None else rng.choice("AB")
            results.append(Result(table.table, winner, *((low, high) if winner == "A" else (high, low))))
        results_record(live, number, results, user=referee)
    clock_start(live, rounds, user=referee)
    return live, referee


def _time(client, url: str, requests: int, **headers) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url, **headers)  # the first read: the parts of this version worked out, templates compiled
    times = []
    queries = 0
    status = 0
    for _ in range(requests):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, **headers)
            times.append((time.perf_counter() - started) * 1000)
        queries, status = len(captured), response.status_code
    times.sort()
    return {"status": status, "queries": queries, "p50_ms": round(times[len(times) // 2], 2),
            "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2), "max_ms": round(times[-1], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = _database()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.test")
    import django

    django.setup()
    from django.test import Client
    from django.urls import reverse

    from tournaments.live.links import entrant_link_path

    started = time.perf_counter()
    live, referee = build(args.players, args.rounds)
    print(f"{args.players} players, {args.rounds} rounds entered ({time.perf_counter() - started:.1f} s)")
    # What the site has loaded is set aside from the collector's full passes, as gunicorn.conf.py does in each
    # worker; what the build made and dropped is collected first (a server never held it).
    gc.collect()
    gc.freeze()
    visitor, signed_in = Client(), Client()
    signed_in.force_login(referee)
    pk = live.pk
    fragment = reverse("live_now", args=[pk])
    etag = visitor.get(fragment)["ETag"]
    hall = {
        "live page": (reverse("live_page", args=[pk]), {}),
        "fragment": (fragment, {}),
        "fragment 304": (fragment, {"HTTP_IF_NONE_MATCH": etag}),
        "big screen": (reverse("live_screen", args=[pk]), {}),
        "clock's face": (reverse("live_clock_face", args=[pk]), {}),
        "private link": (entrant_link_path(live.entrants.order_by("pk").first()), {}),
    }
    referee_pages = {
        "run page": reverse("referee:live_run", args=[pk]),
        "results page": reverse("referee:live_results", args=[pk, args.rounds]),
        "players page": reverse("referee:live_players", args=[pk]),
    }
    figures = {"players": args.players, "rounds": args.rounds, "requests": args.requests,
               "load_average": [round(x, 2) for x in os.getloadavg()], "hall": {}, "referee": {}}
    for name, (url, headers) in hall.items():
        figures["hall"][name] = _time(visitor, url, args.requests, **headers)
    for name, url in referee_pages.items():
        figures["referee"][name] = _time(signed_in, url, max(5, args.requests // 5))
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    from django.db import connection

    figures["database"] = connection.vendor
    print(f"on {connection.vendor}, load average {figures['load_average']} before, "
          f"{figures['load_average_after']} after")
    for part in ("hall", "referee"):
        for name, row in figures[part].items():
            print(f"  {name:<14} HTTP {row['status']}  {row['queries']:>2} queries  p50 {row['p50_ms']:7.2f} ms  "
                  f"p95 {row['p95_ms']:7.2f} ms  max {row['max_ms']:7.2f} ms")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
