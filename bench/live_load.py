"""Load test of a tournament day: phones reading the live page while the referee enters results, then the same
with an abusive client beside them.

Builds, in its own PostgreSQL database (`<DATABASE_URL name>_live`, created afresh), a federation and a
128-player, 5-round tournament run live, players entering their own results: rounds 1 and 2 played, round 3
published without results. Starts gunicorn as docker-compose.yml runs it (gunicorn.conf.py: 3 workers of 8
threads, timeout 30 s; production settings, behind one trusted proxy as the federation's; static files collected
and served by WhiteNoise), then runs locust headless (bench/live_locustfile.py), twice on the same server:

1. the hall: PHONES phones behind the venue's one address open the public live page, then poll its fragment every
   10 s as the page's script does (with If-None-Match) and the round clock's face every 20 s as static/js/clock.js
   does (the clock of round 3 is started when the tournament is built); one referee signs in and enters round 3's
   results table by table, which changes what the phones read; the players of the LINK_TABLES tables before the
   last (--link-tables) open their private links (no account, from the hall's address), enter their table's result
   (both the same: it counts) and look at their link again every 30 s;
2. the hall again (the referee on further tables) and, from another address, an abusive client in a second
   locust process: 6 connections searching the live page and a signed-in player claiming their table's result on
   2 connections, all without a pause (with --no-abuse, only the first run).

The load generator must not take the cores the site is measured on: on a machine of two cores or more with
`taskset` (util-linux), gunicorn and its workers are pinned to the last core and the generators (both locusts
and the outside phone, this process) to the others (--no-pin: neither pinned). PostgreSQL and Redis run as the
machine runs them, unpinned. The load average is recorded before and after each run: on a shared machine it says
how much of the figures is the machine's.

Prints, for each run, requests per second, p50 / p95 / p99 in milliseconds and the errors of the hall's requests
as locust times them, as one more phone outside locust sees them, and inside the server; and what became of the
abusive client's requests (how many refused with 429). With --json the last line is one JSON object. Target: the
phones' p95 under 100 ms with no error, with the abusive client as without it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/adlg python bench/live_load.py [--phones 300]
        [--seconds 60] [--link-tables 16] [--no-abuse] [--no-pin] [--json]

REDIS_URL, when set, gives gunicorn the Redis cache as in production (the limits' counts live there); without it
the cache is each worker's local memory.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import secrets
import shutil
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
# The abusive client's account: the player of round 3's last table, which the referee never enters.
PLAYER, PLAYER_PASSWORD = "bench-player", "bench-player-password-1"
# The abusive client's locust sends without a pause and would take the generators' core from the hall's locust and
# the outside phone, whose times are what is measured: it runs at a lower priority there (the server's core is
# not shared with it), as it would be another machine on a real network.
ABUSE_NICENESS = 10
HALL = "198.51.100.20"  # the venue's address, as bench/live_locustfile.py gives it
# gunicorn's access log: the path, the status, the time in the server (microseconds) and who sent it (the address
# the locust users put in X-Forwarded-For); "probe" for the outside phone's (its X-Probe header), whose time outside
# the server is then what it waited for a thread and the network.
ACCESS_FORMAT = "%(U)s %(s)s %(D)s %({x-forwarded-for}i)s %({x-probe}i)s"


def build(url: str, *, link_tables: int) -> tuple[int, int, list[dict]]:
    """The federation and the tournament, written through the live services, round 3's clock started; returns the
    tournament's ID, the ID of the table the abusive player claims (the last) and the private links of the players
    of the `link_tables` tables before it, each with the result both players of its table enter."""
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
    from tournaments.live.clock import clock_start
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
                low, high = sorted(rng.sample(range(0, 101, 5), 2))  # the winner lost less (the sheet's rule)
                winner = rng.choice("AB")
                results.append(Result(table.table, winner, *((low, high) if winner == "A" else (high, low))))
            results_record(live, number, results, user=referee)
    clock_start(live, 3, user=referee)  # the hall's phones poll the round's clock too
    claimed = LiveTable.objects.select_related("a").get(round=round_, table=PLAYERS // 2)
    player = get_user_model().objects.create_user(PLAYER, password=PLAYER_PASSWORD)
    Player.objects.filter(pk=claimed.a.player_id).update(user=player)
    links = []
    for table in LiveTable.objects.filter(round=round_, table__gte=PLAYERS // 2 - link_tables,
                                          table__lt=PLAYERS // 2).select_related("a", "b"):
        for entrant in (table.a, table.b):
            links.append({"path": entrant_link_path(entrant), "table": table.table, "result": "A",
                          "a_losses": (table.table * 7) % 60, "b_losses": 100})
    return tournament.pk, claimed.pk, links


def cores(pin: bool) -> tuple[str, str] | None:
    """(the server's cores, the generators' cores) as taskset names them, or None when nothing is pinned."""
    count = os.cpu_count() or 1
    if not pin or count < 2 or shutil.which("taskset") is None:
        return None
    return str(count - 1), f"0-{count - 2}" if count > 2 else "0"


def _pinned(command: list[str], where: str | None) -> list[str]:
    return ["taskset", "-c", where, *command] if where else command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(url: str, port: int, access_log: Path, *, core: str | None = None) -> subprocess.Popen:
    """gunicorn as the compose file's web service runs it (gunicorn.conf.py, read from the project's folder; only the
    address and the access log given here), with production settings, and an access log of each request's time in
    the server (microseconds)."""
    # Behind one proxy of the federation's, which appends the client's address (the locust users say theirs).
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "adlg_site.settings.production",
           "SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "127.0.0.1,localhost",
           "EMAIL_URL": "console://", "TRUSTED_PROXY_HEADER": "X-Forwarded-For", "TRUSTED_PROXY_COUNT": "1"}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    log = tempfile.TemporaryFile()  # noqa: SIM115 - gunicorn's log, read only if it fails to start
    server = subprocess.Popen(
        _pinned([str(Path(sys.executable).with_name("gunicorn")), "adlg_site.wsgi:application", "--bind",
                 f"127.0.0.1:{port}", "--access-logfile", str(access_log),
                 "--access-logformat", ACCESS_FORMAT], core),
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
                                             headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": HALL})
            urllib.request.urlopen(request, timeout=60).read()  # noqa: S310 - a busy machine; our own URL


class Probe(threading.Thread):
    """One more phone of the hall, outside locust: polls the fragment every half second as a browser would and times
    it; a poll refused (429) is counted apart."""

    def __init__(self, port: int, tournament: int):
        super().__init__(daemon=True)
        self.url = f"http://127.0.0.1:{port}/tournaments/{tournament}/live/now/"
        self.times: list[float] = []
        self.refused = 0
        self.failed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        etag = ""
        while not self.stop.wait(0.5):
            headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": HALL, "Accept-Encoding": "gzip",
                       "If-None-Match": etag, "X-Probe": "1"}
            request = urllib.request.Request(self.url, headers=headers)  # noqa: S310 - our own http URL
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - our own http URL
                    response.read()
                    etag = response.headers.get("ETag", etag)
            except urllib.error.HTTPError as answer:  # 304: nothing new
                answer.read()
                self.refused += answer.code == 429
            except OSError:  # no answer within 10 s (a saturated machine): counted, timed at the wait
                self.failed += 1
            self.times.append((time.perf_counter() - started) * 1000)


def _percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {"p50_ms": 0.0, "p95_ms": 0.0, "p99_ms": 0.0}
    return {f"p{q}_ms": round(values[min(len(values) - 1, int(len(values) * q / 100))], 1) for q in (50, 95, 99)}


def _access(access_log: Path) -> list[tuple[str, str, float, str]]:
    """(path, status, milliseconds, address) of each request, the outside phone's with the address "probe"."""
    rows = []
    for line in access_log.read_text().splitlines():
        path, status, micros, address, probe = (line.split() + ["-", "-"])[:5]
        rows.append((path, status, int(micros) / 1000, "probe" if probe == "1" else address))
    return rows


def server_times(access_log: Path) -> dict:
    """The time each of the hall's requests for the live page and fragment spent in gunicorn; and the abusive
    client's requests by status."""
    rows = _access(access_log)
    hall = [ms for path, _status, ms, address in rows if address == HALL and "/live/" in path
            and "/live/me/" not in path and not path.endswith("/live/clock/")]
    clock = [ms for path, _status, ms, address in rows if address == HALL and path.endswith("/live/clock/")]
    links = [ms for path, _status, ms, address in rows if address == HALL and "/live/me/" in path]
    abuse: dict[str, int] = {}
    abusive_ms: list[float] = []
    for _path, status, ms, address in rows:
        if address not in (HALL, "probe", "-"):
            abuse[status] = abuse.get(status, 0) + 1
            abusive_ms.append(ms)
    probe = [ms for _path, _status, ms, address in rows if address == "probe"]
    return {**_percentiles(hall), "clock": _percentiles(clock), "links": _percentiles(links),
            "probe": _percentiles(probe),
            "hall_refused": sum(1 for _p, status, _m, address in rows
                                                      if address == HALL and status == "429"),
            "abusive_by_status": dict(sorted(abuse.items())),
            # What the abusive client cost the server's core: its requests' time there, summed.
            "abusive": {**_percentiles(abusive_ms), "seconds": round(sum(abusive_ms) / 1000, 1)}}


def _locust(classes: list[str], users: int, *, port: int, seconds: int, env: dict, prefix: Path,
            core: str | None = None, niceness: int = 0):
    command = _pinned([str(Path(sys.executable).with_name("locust")), "-f", str(ROOT / "bench" / "live_locustfile.py"),
                       "--headless", "--users", str(users), "--spawn-rate", str(max(10, users // 10)),
                       "--run-time", f"{seconds}s", "--host", f"http://127.0.0.1:{port}", "--csv", str(prefix),
                       "--only-summary", "--loglevel", "WARNING", "--stop-timeout", "5", *classes], core)
    if niceness:
        command = ["nice", "-n", str(niceness), *command]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _rows(prefix: Path) -> list[dict]:
    with open(f"{prefix}_stats.csv", newline="") as f:
        return list(csv.DictReader(f))


def load(port: int, tournament: int, *, phones: int, seconds: int, first_table: int, referee_tables: int,
         links: list[dict], claim_table: int | None = None, core: str | None = None) -> dict:
    """One run: the hall (phones, the referee from `first_table` on and the players at the private `links`, each
    table's two) and, with `claim_table`, the abusive client in a locust of its own, so that its loop does not slow
    locust's timing of the phones."""
    load_before = [round(x, 2) for x in os.getloadavg()]
    probe = Probe(port, tournament)
    probe.start()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "LIVE_TOURNAMENT": str(tournament), "LIVE_REFEREE": REFEREE,
               "LIVE_PASSWORD": PASSWORD, "LIVE_FIRST_TABLE": str(first_table), "LIVE_PLAYER": PLAYER,
               "LIVE_PLAYER_PASSWORD": PLAYER_PASSWORD, "LIVE_CLAIM_TABLE": str(claim_table or 0),
               "LIVE_REFEREE_TABLES": str(referee_tables)}
        classes = ["Phone", "Referee"]
        if links:
            links_file = Path(folder) / "links.json"
            links_file.write_text(json.dumps(links))
            env["LIVE_LINKS"] = str(links_file)
            classes.append("LinkPlayer")
        runs = {"hall": _locust(classes, phones + 1 + len(links), port=port, seconds=seconds, env=env,
                                prefix=Path(folder) / "hall", core=core)}
        if claim_table:
            runs["abuse"] = _locust(["Searcher", "Claimer"], 8, port=port, seconds=seconds, env=env,
                                    prefix=Path(folder) / "abuse", core=core, niceness=ABUSE_NICENESS)
        used_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for run in runs.values():
            run.communicate()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows = {name: _rows(Path(folder) / name) for name in runs}
    probe.stop.set()
    probe.join(15)
    total = next(r for r in rows["hall"] if r["Name"] == "Aggregated")
    figures = {
        "phones": phones, "seconds": seconds, "abusive_client": bool(claim_table),
        "requests": int(total["Request Count"]), "errors": int(total["Failure Count"]),
        "requests_per_s": round(float(total["Requests/s"]), 1),
        "p50_ms": float(total["50%"]), "p95_ms": float(total["95%"]), "p99_ms": float(total["99%"]),
        "by_request": {(r["Name"] if run == "hall" else f"{run}: {r['Name']}"): {
            "requests": int(r["Request Count"]), "p95_ms": float(r["95%"]), "errors": int(r["Failure Count"])}
            for run, table in rows.items() for r in table if r["Name"] != "Aggregated"},
        "probe": {"requests": len(probe.times), "refused": probe.refused, "failed": probe.failed,
                  **_percentiles(probe.times)},
        "load_average": {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]},
        # The CPU the locust processes used, as a share of one core over the run: what the generators cost.
        "generators_cpu": round((used.ru_utime + used.ru_stime - used_before.ru_utime - used_before.ru_stime)
                                / seconds, 2),
    }
    return figures


def _report(figures: dict) -> None:
    title = "with the abusive client" if figures["abusive_client"] else "the hall alone"
    print(f"-- {title}: {figures['phones']} phones for {figures['seconds']} s: {figures['requests']} requests of "
          f"the hall, {figures['requests_per_s']} per second, errors {figures['errors']}")
    pinned = figures.get("pinned")
    print(f"load average (1, 5, 15 min) {figures['load_average']['before']} before, "
          f"{figures['load_average']['after']} after; "
          + (f"server on core {pinned['server']}, generators on {pinned['generators']}" if pinned
             else "nothing pinned"))
    print(f"the locust processes used {figures['generators_cpu']:.0%} of a core")
    print(f"as locust times the hall's: p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, "
          f"p99 {figures['p99_ms']:.0f} ms (target: p95 under 100 ms, no error)")
    probe, server = figures["probe"], figures["server"]
    print(f"one more phone polling every 0.5 s meanwhile ({probe['requests']} requests, {probe['refused']} refused, "
          f"{probe['failed']} unanswered): "
          f"p50 {probe['p50_ms']:.0f} ms, p95 {probe['p95_ms']:.0f} ms, p99 {probe['p99_ms']:.0f} ms")
    print(f"time in the server for the hall's live page and fragment: p50 {server['p50_ms']:.0f} ms, "
          f"p95 {server['p95_ms']:.0f} ms, p99 {server['p99_ms']:.0f} ms; refused {server['hall_refused']}")
    for label, key in (("the outside phone's polls", "probe"), ("the round's clock", "clock"),
                       ("the private links (page and entry)", "links")):
        if any(server[key].values()):  # there were such requests
            print(f"time in the server for {label}: p50 {server[key]['p50_ms']:.0f} ms, "
                  f"p95 {server[key]['p95_ms']:.0f} ms, p99 {server[key]['p99_ms']:.0f} ms")
    if "links_counted" in figures:
        print(f"tables entered by their players at their private links: {figures['links_counted']['counted']} of "
              f"{figures['links_counted']['tables']} count")
    for request, row in figures["by_request"].items():
        print(f"  {request}: {row['requests']} requests, p95 {row['p95_ms']:.0f} ms, errors {row['errors']}")
    if figures["abusive_client"]:
        print(f"  the abusive client's requests by status: {server['abusive_by_status']}")
        abusive = server["abusive"]
        print(f"  the abusive client's time in the server: p50 {abusive['p50_ms']:.1f} ms, "
              f"p95 {abusive['p95_ms']:.1f} ms, {abusive['seconds']} s in all")


def links_counted(tournament: int, links: list[dict]) -> dict[str, int]:
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
    parser.add_argument("--no-abuse", action="store_true", help="only the hall, without the abusive client")
    parser.add_argument("--link-tables", type=int, default=16,
                        help="round 3's tables (before the abusive player's, the last) whose players enter their "
                             "result at their private links in the first run; the referee enters the others")
    parser.add_argument("--no-pin", action="store_true",
                        help="pin neither the server nor the generators to their cores (taskset)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pinned = cores(not args.no_pin)
    name, url = bench_url(os.environ.get("DATABASE_URL", ""), suffix="_live")
    _recreate(url, name)
    started = time.perf_counter()
    tournament, claim_table, links = build(url, link_tables=args.link_tables)
    print(f"tournament {tournament}: {PLAYERS} players, rounds 1-2 played, round 3 published and its clock "
          f"started, {len(links)} players entering their result at their private links "
          f"({time.perf_counter() - started:.1f} s)")
    port = _free_port()
    access_log = Path(tempfile.mkdtemp()) / "access.log"
    server = serve(url, port, access_log, core=pinned[0] if pinned else None)
    if pinned:  # this process is a generator too: the outside phone
        first, _, last = pinned[1].partition("-")
        os.sched_setaffinity(0, set(range(int(first), int(last or first) + 1)))
    runs = []
    # The referee never enters the link players' tables nor the abusive player's, in either run.
    referee_tables = PLAYERS // 2 - 1 - len({link["table"] for link in links})
    try:
        warm(port, tournament)
        # The referee enters round 3 from table 1 in the first run, from table 33 in the second: each entry is new.
        for first_table, claims in ((1, None), (PLAYERS // 4 + 1, claim_table)):
            if claims and args.no_abuse:
                break
            access_log.write_text("")  # the warm-up's and the previous run's requests are not this run's
            # The players at their links enter their results in the first run (each table's entry once).
            figures = load(port, tournament, phones=args.phones, seconds=args.seconds, first_table=first_table,
                           referee_tables=referee_tables, links=[] if claims else links, claim_table=claims,
                           core=pinned[1] if pinned else None)
            figures["server"] = server_times(access_log)
            figures["pinned"] = {"server": pinned[0], "generators": pinned[1]} if pinned else None
            if not claims and links:
                figures["links_counted"] = links_counted(tournament, links)
            runs.append(figures)
            _report(figures)
    finally:
        server.terminate()
        server.wait(60)  # gunicorn's graceful_timeout (30 s) on a busy machine
    if args.json:
        print(json.dumps(runs[0] if len(runs) == 1 else {"hall": runs[0], "with_abuse": runs[1]}))


if __name__ == "__main__":
    main()
