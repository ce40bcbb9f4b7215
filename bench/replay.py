"""The replay on PostgreSQL, timed where a person waits: a synthetic federation loaded, then

- a full replay from scratch into empty derived tables (`replay_games_per_s`, the rated games per second end to
  end: read the facts, run the rules, write every derived row), and a second one over the stored rows
  (`rescratch_s`, what `replay_ratings` costs once the site runs);
- a 64-player, 6-round sheet imported at the head of history until its ratings are readable (`append_s`);
- a tournament five years back corrected, until everything after it is replayed (`old_correction_s`);
- what the worker does after a replay, in tasks of its own that nobody waits for: the calibration page's numbers
  (`calibration_s`) and the open-data downloads built again (`open_data_s`). Here, with no broker, the tasks would
  run inside the import; they are timed on their own instead, as the worker runs them after the ratings are
  readable.

It works in its own database (`<DATABASE_URL name>_bench`, created afresh), never in the one DATABASE_URL names,
and refuses anything but PostgreSQL. The last line of `--json` is one JSON object with every figure.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/adlg python bench/replay.py [--games N] [--players M] [--json]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.names import fold_name  # noqa: E402 - the project's root is on the path from here


def bench_url(url: str, *, suffix: str = "_bench") -> tuple[str, str]:
    """The name and URL of a benchmark's own database, next to the one DATABASE_URL names."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise SystemExit("this benchmark runs on PostgreSQL only: set DATABASE_URL=postgres://…")
    bench = f"{parts.path.lstrip('/') or 'postgres'}{suffix}"
    return bench, urlunsplit((parts.scheme, parts.netloc, f"/{bench}", parts.query, parts.fragment))


def _recreate(url: str, bench: str) -> None:
    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit((parts.scheme, parts.netloc, "/postgres", "", "")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{bench}"')


def _copy(cursor, model, columns: tuple[str, ...], rows) -> None:
    with cursor.copy(f'COPY {model._meta.db_table} ({", ".join(columns)}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row(row)


def federation_load(federation) -> None:
    """The synthetic facts, written with COPY: clubs, players, tournaments, registrations, games, openings."""
    from django.db import connection

    from players.models import Club, OpeningBalance, Player
    from tournaments.models import Game, Registration, Tournament

    countries = ["FR", "GB", "ES", "IT", "BE", "DE", "US"]
    names = sorted({e.club for t in federation.tournaments for e in t.entrants if e.club})
    club_id = {name: i for i, name in enumerate(names, start=1)}
    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor
        _copy(cursor, Club, ("id", "name", "country_id"), ((i, name, "FR") for name, i in club_id.items()))
        _copy(cursor, Player, ("id", "last_name", "first_name", "search_name", "country_id", "created_at",
                               "link_proof"),
              ((pid, f"Player{pid}", "Synthetic", fold_name(f"Synthetic Player{pid}"), countries[pid % 7], "2024-01-01",
                Player.PROOF_ADMIN) for pid in federation.players))
        _copy(cursor, Tournament, ("id", "system_id", "name", "start_date", "end_date", "city", "country_id",
                                   "referee_name", "format", "pools", "rounds", "worlds", "official", "status",
                                   "override_reason", "exception_approved", "exception_reason", "created_at"),
              ((t.id, "adlg", f"Synthetic {t.id}", t.start, t.end, "Lyon", countries[t.id % 7], "Referee", "", 1,
                t.rounds, False, t.official, "received", "", False, "", "2024-01-01") for t in federation.tournaments))
        _copy(cursor, Registration, ("tournament_id", "player_id", "pool", "army", "penalty", "penalty_reason",
                                     "club_id"),
              ((t.id, e.player, e.pool, "", 0, "", club_id.get(e.club)) for t in federation.tournaments
               for e in t.entrants))
        _copy(cursor, Game, ("id", "tournament_id", "round", '"table"', "player_a_id", "player_b_id", "result",
                             "a_losses", "b_losses", "free"),
              ((g.id, t.id, g.round, g.table, g.a, g.b, g.result, g.a_losses, g.b_losses, g.free)
               for t in federation.tournaments for g in t.games))
        for model in (Club, Tournament, Game):
            table = model._meta.db_table
            django_cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM "
                                  f"{table}))")  # noqa: S608
    OpeningBalance.objects.bulk_create([OpeningBalance(player_id=o.player, system_id="adlg", rating=o.rating,
                                                       games=o.games, as_of=o.as_of) for o in federation.openings])


def _workbook(info: list[tuple], players: list[list], games: list[list]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    sheet = wb.active
    sheet.title = "Tournament"
    for row in [("Format", "adlg-result-sheet/1"), *info]:
        sheet.append(list(row))
    sheet = wb.create_sheet("Players")
    sheet.append(["ID", "Last name", "First name", "Club", "Country", "Pool"])
    for row in players:
        sheet.append(row)
    sheet = wb.create_sheet("Games")
    sheet.append(["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %", "Free game"])
    for row in games:
        sheet.append(row)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _head_sheet(players: list[int], start) -> bytes:
    """64 players, 6 rounds, well after every synthetic tournament: round r pairs i with i xor r, six disjoint
    perfect matchings, so no pair meets twice."""
    rng = random.Random(64)
    field = rng.sample(players, 64)
    games = []
    for rnd in range(1, 7):
        pairs = [(i, i ^ rnd) for i in range(64) if i < i ^ rnd]
        for table, (i, j) in enumerate(pairs, start=1):
            games.append([rnd, table, field[i], field[j], "A", rng.randrange(0, 60), rng.randrange(50, 101), "no"])
    return _workbook([("Name", "Head of history Open"), ("Start date", start), ("End date", start + timedelta(1)),
                      ("City", "Lyon"), ("Country", "FR"), ("Referee", "Bench"), ("Rounds", 6)],
                     [[pid, f"Player{pid}", "Synthetic", f"Club {pid % 9}", "FR", "A"] for pid in field], games)


def _correction_sheet(tournament) -> bytes:
    """The stored tournament as a sheet with its ID and its first decisive result reversed."""
    games, reversed_one = [], False
    for g in tournament.games.order_by("round", "table"):
        result, a_losses, b_losses = g.result, g.a_losses, g.b_losses
        if not reversed_one and result in ("A", "B"):
            result, a_losses, b_losses, reversed_one = ("B" if result == "A" else "A"), b_losses, a_losses, True
        games.append([g.round, g.table, g.player_a_id, g.player_b_id, result, a_losses, b_losses,
                      "yes" if g.free else "no"])
    players = [[r.player_id, r.player.last_name, r.player.first_name, r.club.name if r.club else None, "FR", r.pool]
               for r in tournament.registrations.select_related("player", "club")]
    if tournament.games.filter(player_a_id=99).exists() or tournament.games.filter(player_b_id=99).exists():
        players.append([99, "Spare", "", None, None, "A"])
    return _workbook([("Tournament ID", tournament.id), ("Name", tournament.name),
                      ("Start date", tournament.start_date), ("End date", tournament.end_date),
                      ("City", tournament.city), ("Country", tournament.country_id), ("Referee", "Bench"),
                      ("Rounds", tournament.rounds)], players, games)


def _correctable(end_before):
    """A tournament about five years back that makes a valid sheet (the synthetic draw allows rematches)."""
    from tournaments.models import Tournament

    for tournament in Tournament.objects.filter(end_date__lte=end_before).order_by("-end_date", "-id"):
        pairs = [frozenset(pair) for pair in tournament.games.values_list("player_a_id", "player_b_id")
                 if 99 not in pair]
        if pairs and len(pairs) == len(set(pairs)):
            return tournament
    raise SystemExit("no tournament five years back can be written as a valid sheet")


def _imported(data: bytes, name: str) -> float:
    """Seconds from the upload of `data` to its ratings being readable (the import, then the replay)."""
    from ratings.services import replay_pending
    from tournaments.sheets.services import sheet_import_bytes

    started = time.perf_counter()
    outcome = sheet_import_bytes(data=data, file_name=name)
    if not outcome.ok:
        raise SystemExit(f"{name} refused: {outcome.report.as_dict()['errors'][:3]}")
    replay_pending(system_code="adlg")
    return time.perf_counter() - started


def _followups_apart() -> None:
    """The tasks a replay enqueues for the worker (ratings.tasks) not run inside the timed imports: with no broker
    they would be, and the ratings are readable before them."""
    from django.conf import settings

    settings.OPEN_DATA_AFTER_CHANGES = False
    settings.CALIBRATION_AFTER_REPLAY = False


def _followups_timed() -> tuple[float, float]:
    """The worker's two tasks after a replay, as it runs them: (calibration, open data) in seconds."""
    from ratings.calibration import calibration_refresh
    from ratings.open_data import open_data_rebuild

    started = time.perf_counter()
    calibration_refresh(system_code="adlg")
    calibration_s = time.perf_counter() - started
    started = time.perf_counter()
    open_data_rebuild()
    return calibration_s, time.perf_counter() - started


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--players", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bench, url = bench_url(os.environ.get("DATABASE_URL", ""))
    _recreate(os.environ["DATABASE_URL"], bench)
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)  # the replay runs in this process: its time is what is measured
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.local")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.synthetic import make_federation
    from ratings.models import PlayerRating, RatingSystem
    from ratings.services import replay_from_scratch

    say = (lambda *a: None) if args.json else print
    call_command("migrate", verbosity=0)
    federation = make_federation(players=args.players, games=args.games, seed=args.seed)
    federation_load(federation)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as autovacuum would have, on a federation's settled facts
    say(f"loaded {federation.games} games, {len(federation.tournaments)} tournaments, {args.players} players")
    # Only these are needed from here on. The synthetic federation is about half a million Python objects of the
    # benchmark's own, which a collection of the whole heap during a timed import would walk as well (0.1 to 0.25 s
    # of the sheet at the head); a site's process holds nothing of the kind.
    players, tournaments = federation.players, len(federation.tournaments)
    last_end = max(t.end for t in federation.tournaments)
    del federation
    gc.collect()
    system = RatingSystem.objects.get(code="adlg")
    _followups_apart()
    first = replay_from_scratch(system=system)
    say(f"full replay: {first.games} rated games in {first.seconds:.2f} s")
    again = replay_from_scratch(system=system)
    append_s = _imported(_head_sheet(players, last_end + timedelta(days=7)), "head.xlsx")
    old = _correctable(last_end - timedelta(days=5 * 365))
    correction_s = _imported(_correction_sheet(old), "correction.xlsx")
    calibration_s, open_data_s = _followups_timed()
    figures = {
        "games": first.games, "tournaments": tournaments, "players": args.players,
        "listed_players": PlayerRating.objects.filter(system=system).count(), "events": first.events,
        "replay_s": round(first.seconds, 3), "replay_games_per_s": round(first.games_per_second),
        "rescratch_s": round(again.seconds, 3), "append_s": round(append_s, 3),
        "old_correction_s": round(correction_s, 3), "corrected_end": old.end_date.isoformat(),
        "calibration_s": round(calibration_s, 3), "open_data_s": round(open_data_s, 3),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")
    return figures


if __name__ == "__main__":
    main()
