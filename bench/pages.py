"""Benchmark of the public rating list on a large federation: server time per page and queries per page.

Creates (or reuses) PLAYERS players with a PlayerRating row each in the database of DATABASE_URL, then times
REQUESTS GETs of /ratings/adlg/ through Django's test Client, across pages (first, middle, last), filters
(country, club, rank, active, search) and sorts, and prints p50 / p95 / max in milliseconds and the queries
each page took. The target is p95 under 50 ms with the same number of queries on every page.

When DATABASE_URL is not set the data goes to db.sqlite3.bench-pages in the project (git-ignored), never
into the development database. The tables are ANALYZEd before timing (see main).

`python bench/pages.py [--players N] [--requests N] [--seed S] [--json]`; with --json the last line is one
JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'db.sqlite3.bench-pages'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.test")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from players.models import SPARE_ID, Club, Player, RetiredId  # noqa: E402
from ratings.models import PlayerRating, RatingSystem  # noqa: E402
from ratings.positions import rating_counts_recount  # noqa: E402
from rules.ranks import rank_for  # noqa: E402

SYSTEM = "adlg"
COUNTRIES = ["FR", "BE", "IT", "ES", "GB", "DE", "CH", "NL", "US", "AU", "PT", "PL"]
LAST_NAMES = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
              "Simon", "Laurent", "Lefebvre", "Michel", "Garcia", "Rossi", "Peeters", "Smith", "Jones", "Müller"]
FIRST_NAMES = ["Jean", "Pierre", "Marie", "Luc", "Anne", "Paul", "Marc", "Julie", "Hugo", "Léa", "Tom", "Eva"]


def seed(players: int, rng: random.Random) -> None:
    """Bulk-creates the players, clubs and ratings missing for `players` rated players (idempotent)."""
    have = PlayerRating.objects.filter(system_id=SYSTEM).count()
    if have >= players:
        print(f"reusing {have} ratings already in the database", file=sys.stderr)
        _rating_counts()
        return
    started = time.perf_counter()
    clubs = list(Club.objects.filter(name__startswith="Bench club "))
    if not clubs:
        Club.objects.bulk_create([Club(name=f"Bench club {i:03d}", country_id=COUNTRIES[i % len(COUNTRIES)])
                                  for i in range(300)])
        clubs = list(Club.objects.filter(name__startswith="Bench club "))
    ruleset = RatingSystem.objects.get(code=SYSTEM).get_ruleset()
    first_id = (Player.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    ids = [i for i in range(first_id, first_id + players - have + 1) if i != SPARE_ID][: players - have]
    today = date.today()
    now = timezone.now()
    with transaction.atomic():
        for start in range(0, len(ids), 5000):
            chunk = ids[start:start + 5000]
            rows, ratings, retired = [], [], []
            for pid in chunk:
                club = rng.choice(clubs)
                # A few players excluded since the last replay (their rating row is still there, their ID is
                # retired as players.governance does), so the public filter has work to do.
                excluded = now if rng.random() < 0.0002 else None
                if excluded:
                    retired.append(RetiredId(id=pid, reason="bench: excluded"))
                rows.append(Player(id=pid, last_name=f"{rng.choice(LAST_NAMES)}{pid}",
                                   first_name=rng.choice(FIRST_NAMES), club=club, country_id=club.country_id,
                                   excluded_at=excluded))
                value = int(rng.gauss(1000, 150))
                games = rng.randint(1, 200)
                played = today - timedelta(days=rng.randint(0, 1500))
                ratings.append(PlayerRating(system_id=SYSTEM, player_id=pid, rating=value, games=games,
                                            rank_code=rank_for(ruleset, value, games).code, last_played=played))
            Player.objects.bulk_create(rows, batch_size=1000)
            PlayerRating.objects.bulk_create(ratings, batch_size=1000)
            RetiredId.objects.bulk_create(retired)
        _rating_counts()
    print(f"seeded {len(ids)} players in {time.perf_counter() - started:.1f}s", file=sys.stderr)


def _rating_counts() -> None:
    rating_counts_recount(SYSTEM)


def scenarios(rng: random.Random, total: int, requests: int) -> list[tuple[str, str]]:
    club_ids = list(Club.objects.filter(name__startswith="Bench club ").values_list("id", flat=True))
    ranks = ["soldier", "knight", "champion", "reservist"]
    last_page = max(1, total // 50)
    makers = [
        ("first page", lambda: ""),
        ("random page", lambda: f"page={rng.randint(1, last_page)}"),
        ("last page", lambda: f"page={last_page}"),
        ("country", lambda: f"country={rng.choice(COUNTRIES)}&page={rng.randint(1, 20)}"),
        ("club", lambda: f"club={rng.choice(club_ids)}"),
        ("rank", lambda: f"rank={rng.choice(ranks)}&page={rng.randint(1, 5)}"),
        ("active", lambda: f"active=on&page={rng.randint(1, 50)}"),
        ("search name and ID", lambda: f"q={rng.choice(LAST_NAMES)}{rng.randint(1, total)}"),
        ("search part of a name", lambda: f"q={rng.choice(LAST_NAMES)[:4]}{rng.randint(10, 99)}"),
        ("search a common name", lambda: f"q={rng.choice(LAST_NAMES)}"),
        ("sort name", lambda: f"sort=name&page={rng.randint(1, 40)}"),
        ("sort games", lambda: f"sort=games&page={rng.randint(1, 20)}"),
        ("sort last played", lambda: f"sort=last_played&page={rng.randint(1, 20)}"),
        ("country + rank + active", lambda: f"country={rng.choice(COUNTRIES)}&rank=soldier&active=on"),
    ]
    return [(name, make()) for name, make in (makers[i % len(makers)] for i in range(requests))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    call_command("migrate", verbosity=0)
    seed(args.players, rng)
    # Table statistics, as PostgreSQL's autovacuum keeps them and `PRAGMA optimize` gives SQLite: without them
    # SQLite walks the (system) index for filters it should scan (170 ms instead of 17 ms for a rank filter).
    with connection.cursor() as cursor:
        # PostgreSQL: VACUUM too, as autovacuum does after a bulk load (visibility map for index-only counts).
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    total = PlayerRating.objects.filter(system_id=SYSTEM).count()
    client = Client()
    for query in ("", "page=2", "sort=name"):  # warm the caches (templates, SQLite pages)
        client.get(f"/ratings/{SYSTEM}/?{query}")

    timings: list[float] = []
    by_scenario: dict[str, list[float]] = defaultdict(list)
    queries: Counter = Counter()
    for name, query in scenarios(rng, total, args.requests):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(f"/ratings/{SYSTEM}/?{query}")
            elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            print(f"{name} ?{query}: HTTP {response.status_code}", file=sys.stderr)
            return 1
        timings.append(elapsed)
        by_scenario[name].append(elapsed)
        queries[len(captured.captured_queries)] += 1

    # Outside the mix: a page in the middle of the alphabet walks half the name index (reported, not hidden).
    deep = []
    for _ in range(5):
        started = time.perf_counter()
        client.get(f"/ratings/{SYSTEM}/?sort=name&page={max(1, total // 100)}")
        deep.append((time.perf_counter() - started) * 1000)

    def pct(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

    result = {
        "benchmark": "rating_list_page",
        "database": connection.vendor,
        "players": total,
        "requests": len(timings),
        "p50_ms": round(statistics.median(timings), 2),
        "p95_ms": round(pct(timings, 95), 2),
        "max_ms": round(max(timings), 2),
        "queries_per_page": sorted(queries),
        "by_scenario_p95_ms": {name: round(pct(values, 95), 2) for name, values in by_scenario.items()},
        "middle_of_alphabet_page_ms": round(statistics.median(deep), 2),
    }
    print(f"rating list of {total} players on {connection.vendor}, {len(timings)} requests")
    print(f"  p50 {result['p50_ms']} ms   p95 {result['p95_ms']} ms   max {result['max_ms']} ms")
    print(f"  queries per page: {', '.join(f'{n} ({c} pages)' for n, c in sorted(queries.items()))}")
    for name, value in result["by_scenario_p95_ms"].items():
        print(f"  {name:<26} p95 {value:7.2f} ms")
    print(f"  (outside the mix) a page in the middle of the alphabet, sorted by name: "
          f"{result['middle_of_alphabet_page_ms']} ms")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
