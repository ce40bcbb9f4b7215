"""Load test of a tournament day: phones reading the live page while the referee enters results.

Builds, in its own PostgreSQL database (`<DATABASE_URL name>_live`, created afresh), a federation and a
128-player, 5-round tournament run live: rounds 1 and 2 played, round 3 published without results. Starts
gunicorn as docker-compose.yml runs it (production settings, 3 workers, static files collected and served by
WhiteNoise), then runs locust headless (bench/live_locustfile.py): PHONES phones open the public live page, then
poll its fragment every 10 s as the page's script does (with If-None-Match); one referee signs in and enters
round 3's results table by table, which changes what the phones read; the players of the last LINK_TABLES tables
open their private links (no account), enter their table's result (both the same: it counts) and look at their
link again every 30 s. Prints requests per second, p50 / p95 /
p99 in milliseconds and the errors; with --json the last line is one JSON object. Target: p95 under 100 ms with
no error.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/adlg python bench/live_load.py [--phones 300]
        [--seconds 60] [--link-tables 24] [--json]

REDIS_URL, when set, gives gunicorn the Redis cache as in production; without it the cache is local memory.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.replay import _recreate, bench_url  # noqa: E402

PLAYERS = 128
ROUNDS = 5
REFEREE, PASSWORD = "bench-referee", "bench-referee-password-1"


def build(url: str, *, link_tables: int) -> tuple[int, list[dict]]:
    """The federation and the tournament, written through the live services (players may enter their results);
    returns the tournament ID and the private links of the players of round 3's last `link_tables` tables, each
    with the result its table's two players will enter."""
    os.environ["DATABASE_URL"] = url
    # Not the test settings: their fast password hasher is one production does not accept.
    os.environ["DJANGO_SETTINGS_MODULE"] = "adlg_site.settings.local"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from adlg_site.reference_data import ensure_reference_data
    from players.models import Club, Player
    from ratings.models import PlayerRating
    from tournaments.live.entrants import NewEntrant
    from tournaments.live.links import entrant_link_path
    from tournaments.live.results import Result, results_record
    from tournaments.live.rounds import round_pair, round_publish
    from tournaments.live.start import live_begin
    from tournaments.models import LiveTable, Tournament

    call_command("migrate", verbosity=0)
    ensure_reference_data()
    rng = random.Random(20261124)
    clubs = Club.objects.bulk_create([Club(name=f"Club {n}", country_id="FR") for n in range(40)])
    players = Player.objects.bulk_create([
        Player(id=1000 + n, last_name=f"Joueur{n:04d}", first_name=rng.choice(["Ann", "Luc", "Eva", "Paul"]),
               club=rng.choice(clubs), country_id="FR") for n in range(3000)])
    PlayerRating.objects.bulk_create([
        PlayerRating(system_id="adlg", player=p, rating=rng.randint(800, 1900), games=rng.randint(5, 200),
                     rank_code="", last_played=date(2026, 10, 1)) for p in players])
    referee = get_user_model().objects.create_user(REFEREE, password=PASSWORD)
    tournament = Tournament.objects.create(
        system_id="adlg", name="Bench day", start_date=date(2026, 11, 21), end_date=date(2026, 11, 22),
        city="Paris", country_id="FR", rounds=ROUNDS, status=Tournament.REGISTERED, referee_name="Bench")
    tournament.referees.add(referee)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in rng.sample(players, PLAYERS)],
                      user=referee, players_enter_results=True)
    for number in (1, 2, 3):
        round_ = round_pair(live, seed=7 if number == 1 else None, user=referee)
        round_publish(round_, user=referee)
        if number < 3:
            results = []
            for table in LiveTable.objects.filter(round=round_):
                # The winner lost less than the loser: the service asks the referee to confirm the other way round.
                low, high = sorted(rng.sample(range(0, 101, 5), 2))
                code = rng.choice("AB")
                results.append(Result(table.table, code, *((low, high) if code == "A" else (high, low))))
            results_record(live, number, results, user=referee)
    links = []
    for table in LiveTable.objects.filter(round__live=live, round__number=3, table__gt=PLAYERS // 2 - link_tables,
                                          b__isnull=False).select_related("a", "b"):
        a_losses, b_losses = sorted(rng.sample(range(0, 101, 5), 2))
        for entrant in (table.a, table.b):
            links.append({"path": entrant_link_path(entrant), "table": table.table, "result": "A",
                          "a_losses": a_losses, "b_losses": b_losses})
    return tournament.pk, links


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(url: str, port: int, access_log: Path) -> subprocess.Popen:
    """gunicorn as the compose file's web service runs it, with production settings, and an access log of each
    request's time in the server (microseconds)."""
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "adlg_site.settings.production",
           "SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "EMAIL_URL": "console://"}  # production requires one; nothing of the day sends an email
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    log = tempfile.TemporaryFile()  # noqa: SIM115 - gunicorn's log, read only if it fails to start
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "adlg_site.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "3", "--timeout", "60", "--access-logfile", str(access_log),
         "--access-logformat", "%(U)s %(s)s %(D)s"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    # As through the federation's proxy: without it the production settings redirect to HTTPS.
    health = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"X-Forwarded-Proto": "https"})
    for _ in range(60):
        try:
            urllib.request.urlopen(health, timeout=1)  # noqa: S310 - our own http URL
            return server
        except OSError:
            time.sleep(0.5)
    server.kill()
    log.seek(0)
    raise SystemExit("gunicorn did not start: " + log.read().decode()[-2000:])


def warm(port: int, tournament: int) -> None:
    """A few requests first, as the site's workers have served long before a tournament day: the figures are
    those of a running site, not of workers compiling their templates."""
    for path in (f"/tournaments/{tournament}/live/", f"/tournaments/{tournament}/live/now/", "/accounts/login/"):
        for _ in range(9):
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                             headers={"X-Forwarded-Proto": "https"})
            urllib.request.urlopen(request, timeout=10).read()  # noqa: S310 - our own http URL


class Probe(threading.Thread):
    """One more phone, outside locust: polls the fragment every half second as a browser would and times it."""

    def __init__(self, port: int, tournament: int):
        super().__init__(daemon=True)
        self.url = f"http://127.0.0.1:{port}/tournaments/{tournament}/live/now/"
        self.times: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        etag = ""
        while not self.stop.wait(0.5):
            headers = {"X-Forwarded-Proto": "https", "Accept-Encoding": "gzip", "If-None-Match": etag}
            request = urllib.request.Request(self.url, headers=headers)  # noqa: S310 - our own http URL
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - our own http URL
                    response.read()
                    etag = response.headers.get("ETag", etag)
            except urllib.error.HTTPError as answer:  # 304: nothing new
                answer.read()
            self.times.append((time.perf_counter() - started) * 1000)


def _percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {"p50_ms": 0.0, "p95_ms": 0.0, "p99_ms": 0.0}
    return {f"p{q}_ms": round(values[min(len(values) - 1, int(len(values) * q / 100))], 1) for q in (50, 95, 99)}


def server_times(access_log: Path, *, links: bool = False) -> dict[str, float]:
    """The time each request spent in gunicorn (from its access log), for the pages the phones read (the live
    page and its fragment), or with `links` for the private links' pages and entries."""
    times = [int(line.split()[2]) / 1000 for line in access_log.read_text().splitlines()
             if "/live/" in line.split()[0] and ("/live/me/" in line.split()[0]) == links]
    return _percentiles(times)


def load(port: int, tournament: int, *, phones: int, seconds: int, links: list[dict]) -> dict:
    probe = Probe(port, tournament)
    probe.start()
    with tempfile.TemporaryDirectory() as folder:
        prefix = Path(folder) / "live"
        links_file = Path(folder) / "links.json"
        links_file.write_text(json.dumps(links))
        env = {**os.environ, "LIVE_TOURNAMENT": str(tournament), "LIVE_REFEREE": REFEREE,
               "LIVE_PASSWORD": PASSWORD, "LIVE_LINKS": str(links_file),
               "LIVE_REFEREE_TABLES": str(PLAYERS // 2 - len({link["table"] for link in links}))}
        subprocess.run(
            [str(Path(sys.executable).with_name("locust")), "-f", str(ROOT / "bench" / "live_locustfile.py"),
             "--headless", "--users", str(phones + 1 + len(links)), "--spawn-rate", str(max(10, phones // 10)),
             "--run-time", f"{seconds}s", "--host", f"http://127.0.0.1:{port}", "--csv", str(prefix),
             "--only-summary", "--loglevel", "WARNING", "--stop-timeout", "5"],
            cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with open(f"{prefix}_stats.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    probe.stop.set()
    probe.join(15)
    total = next(r for r in rows if r["Name"] == "Aggregated")
    figures = {
        "phones": phones, "seconds": seconds,
        "requests": int(total["Request Count"]), "errors": int(total["Failure Count"]),
        "requests_per_s": round(float(total["Requests/s"]), 1),
        "p50_ms": float(total["50%"]), "p95_ms": float(total["95%"]), "p99_ms": float(total["99%"]),
        "by_request": {r["Name"]: {"requests": int(r["Request Count"]), "p95_ms": float(r["95%"]),
                                  "errors": int(r["Failure Count"])} for r in rows if r["Name"] != "Aggregated"},
        "probe": {"requests": len(probe.times), **_percentiles(probe.times)},
    }
    return figures


def links_counted(url: str, tournament: int, links: list[dict]) -> dict[str, int]:
    """How many of the tables entered at the private links count now (both players' entries agreed)."""
    from tournaments.models import LiveTable

    tables = {link["table"] for link in links}
    counted = LiveTable.objects.filter(round__live_id=tournament, round__number=3, table__in=tables).exclude(
        result="").count()
    return {"tables": len(tables), "counted": counted}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--link-tables", type=int, default=24,
                        help="round 3's tables whose players enter their result at their private links")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    name, url = bench_url(os.environ.get("DATABASE_URL", ""), suffix="_live")
    _recreate(url, name)
    started = time.perf_counter()
    tournament, links = build(url, link_tables=args.link_tables)
    print(f"tournament {tournament}: {PLAYERS} players, rounds 1-2 played, round 3 published, {len(links)} players "
          f"entering their result at their private links ({time.perf_counter() - started:.1f} s)")
    port = _free_port()
    access_log = Path(tempfile.mkdtemp()) / "access.log"
    server = serve(url, port, access_log)
    try:
        warm(port, tournament)
        access_log.write_text("")  # the warm-up's requests are not the day's
        figures = load(port, tournament, phones=args.phones, seconds=args.seconds, links=links)
        figures["links_counted"] = links_counted(url, tournament, links)
        figures["server"] = server_times(access_log)
        figures["server_links"] = server_times(access_log, links=True)
    finally:
        server.terminate()
        server.wait(10)
    print(f"{figures['phones']} phones for {figures['seconds']} s: {figures['requests']} requests, "
          f"{figures['requests_per_s']} per second, errors {figures['errors']}")
    print(f"as locust times them: p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, "
          f"p99 {figures['p99_ms']:.0f} ms (target: p95 under 100 ms, no error)")
    probe, server = figures["probe"], figures["server"]
    print(f"one more phone polling every 0.5 s meanwhile ({probe['requests']} requests): p50 {probe['p50_ms']:.0f} ms, "
          f"p95 {probe['p95_ms']:.0f} ms, p99 {probe['p99_ms']:.0f} ms")
    print(f"time in the server for the live page and fragment: p50 {server['p50_ms']:.0f} ms, "
          f"p95 {server['p95_ms']:.0f} ms, p99 {server['p99_ms']:.0f} ms")
    print(f"time in the server for the private links (page and entry): p50 {figures['server_links']['p50_ms']:.0f} "
          f"ms, p95 {figures['server_links']['p95_ms']:.0f} ms, p99 {figures['server_links']['p99_ms']:.0f} ms")
    print(f"tables entered by their players at their private links: {figures['links_counted']['counted']} of "
          f"{figures['links_counted']['tables']} count")
    for request, row in figures["by_request"].items():
        print(f"  {request}: {row['requests']} requests, p95 {row['p95_ms']:.0f} ms, errors {row['errors']}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
