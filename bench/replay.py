"""Replay benchmark on PostgreSQL: a synthetic federation of 100,000 players and 1,000,000 games.

Prints, from one run: the full replay's games per second end to end (read the facts, run the engine, write
every derived row), the engine alone on the same facts, their ratio, the time from importing a 64-player,
6-round sheet at the head of history to its ratings being readable, and the time to correct a tournament
five years back. It works in its own database (`<DATABASE_URL name>_bench`, created afresh), never in the
one DATABASE_URL names, and refuses anything but PostgreSQL.

The engine and the full replay are timed `--repeat` times each (default 3), one after the other, and the
fastest of each is reported, as bench/engine.py does: a machine whose speed drifts by a fifth from one minute
to the next otherwise decides the ratio. Every replay but the last is rolled back, so that each one writes
into empty derived tables, as the first replay of a federation does; the last one stays for the two steps after.

It measures the yardstick of the target on the same machine: the history's rows of the first games written by
Django's bulk_create and by a save() per row (the issue: "a straightforward Django bulk_create writer reaches
about 15,000 here, a per-row save about 1,000"), and prints the replay's rate against bulk_create's.
It also prints the fastest replay's CPU time, the machine's (PostgreSQL's processes with Python's) and Python's
alone, and the games per second that CPU time allows when every core is busy from start to end: how far
overlapping the replay's steps can go on this machine, before it needs less work.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/adlg python bench/replay.py [--games N --players M]
        [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _bench_database(url: str) -> tuple[str, str]:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise SystemExit("bench/replay.py runs on PostgreSQL only: set DATABASE_URL=postgres://…")
    name = parts.path.lstrip("/") or "postgres"
    bench = f"{name}_bench"
    return bench, urlunsplit((parts.scheme, parts.netloc, f"/{bench}", parts.query, parts.fragment))


def _recreate(url: str, bench: str) -> None:
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}"')
        conn.execute(f'CREATE DATABASE "{bench}"')


def _load_facts(federation) -> int:
    """Write the synthetic facts with COPY: players, tournaments, registrations, games."""
    from django.db import connection

    from players.models import Player
    from tournaments.models import Game, Registration, Tournament

    countries = ["FR", "GB", "ES", "IT", "BE", "DE", "US"]
    with connection.cursor() as cursor:
        raw = cursor.cursor
        player_columns = "id, last_name, first_name, country_id, created_at"
        with raw.copy(f"COPY {Player._meta.db_table} ({player_columns}) FROM STDIN") as copy:
            for pid in federation.players:
                copy.write_row((pid, f"Player{pid}", "Synthetic", countries[pid % len(countries)], "2024-01-01"))
        with raw.copy(f"COPY {Tournament._meta.db_table} (id, system_id, name, start_date, end_date, city, country_id, "
                      "referee_name, format, pools, rounds, worlds, official, status, override_reason, "
                      "exception_approved, exception_reason, created_at) FROM STDIN") as copy:
            for t in federation.tournaments:
                copy.write_row((t.id, "adlg", f"Synthetic {t.id}", t.start, t.end, "Lyon", countries[t.id % 7],
                                "Referee", "", 1, max(g.round for g in t.games), False, t.official, "received", "",
                                False, "", "2024-01-01"))
        with raw.copy(f"COPY {Registration._meta.db_table} (tournament_id, player_id, pool, army, penalty, "
                      "penalty_reason) FROM STDIN") as copy:
            for t in federation.tournaments:
                for pid in t.players:
                    copy.write_row((t.id, pid, "A", "", 0, ""))
        games = 0
        with raw.copy(f"COPY {Game._meta.db_table} (id, tournament_id, round, \"table\", player_a_id, player_b_id, "
                      "result, a_losses, b_losses, free) FROM STDIN") as copy:
            for t in federation.tournaments:
                for g in t.games:
                    losses = (None, None) if g.result in ("DD", "FA", "FB") else (g.id % 60, 40 + g.id % 61)
                    copy.write_row((g.id, t.id, g.round, g.table, g.a, g.b, g.result, *losses, g.free))
                    games += 1
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{Tournament._meta.db_table}', 'id'), "
                       f"(SELECT MAX(id) FROM {Tournament._meta.db_table}))")
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{Game._meta.db_table}', 'id'), "
                       f"(SELECT MAX(id) FROM {Game._meta.db_table}))")
    from players.models import OpeningBalance

    OpeningBalance.objects.bulk_create(
        [OpeningBalance(player_id=o.player, system_id="adlg", rating=o.rating, games=o.games, as_of=o.as_of)
         for o in federation.openings], batch_size=5000)
    return games


def _head_sheet(players: list[int], start) -> tuple[bytes, list[int]]:
    """A 64-player, 6-round sheet: a Swiss-like draw with no rematch, well after every synthetic tournament."""
    import random

    from openpyxl import Workbook

    rng = random.Random(64)
    field = rng.sample(players, 64)
    wb = Workbook()
    info = wb.active
    info.title = "Tournament"
    for row in [("Format", "adlg-result-sheet/1"), ("Name", "Head of history Open"), ("Start date", start),
                ("End date", start + timedelta(days=1)), ("City", "Lyon"), ("Country", "FR"),
                ("Referee", "Bench"), ("Rounds", 6)]:
        info.append(list(row))
    sheet = wb.create_sheet("Players")
    sheet.append(["ID", "Last name", "First name", "Club", "Country", "Pool"])
    for pid in field:
        sheet.append([pid, f"Player{pid}", "Synthetic", None, "FR", "A"])
    sheet = wb.create_sheet("Games")
    sheet.append(["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %"])
    # Round r pairs i with i xor r: six disjoint perfect matchings of 64 players, so no pair meets twice.
    for rnd in range(1, 7):
        table = 0
        for i in range(64):
            j = i ^ rnd
            if i < j:
                table += 1
                result = rng.choice("AAB")
                sheet.append([rnd, table, field[i], field[j], result, rng.randrange(0, 60), rng.randrange(50, 101)]
                             if result == "A" else
                             [rnd, table, field[i], field[j], result, rng.randrange(50, 101), rng.randrange(0, 60)])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue(), field


def _correction_sheet(tournament_id: int) -> bytes:
    """The stored tournament written back as a sheet with its ID and one result changed: a correction."""
    from openpyxl import Workbook

    from tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    wb = Workbook()
    info = wb.active
    info.title = "Tournament"
    for row in [("Format", "adlg-result-sheet/1"), ("Tournament ID", t.id), ("Name", t.name),
                ("Start date", t.start_date), ("End date", t.end_date), ("City", t.city),
                ("Country", t.country_id), ("Referee", "Bench"), ("Rounds", t.rounds)]:
        info.append(list(row))
    sheet = wb.create_sheet("Players")
    sheet.append(["ID", "Last name", "First name", "Club", "Country", "Pool"])
    for reg in t.registrations.select_related("player"):
        sheet.append([reg.player_id, reg.player.last_name, reg.player.first_name, None, "FR", "A"])
    if t.games.filter(player_b_id=99).exists() or t.games.filter(player_a_id=99).exists():
        sheet.append([99, "Spare", "", None, None, "A"])
    sheet = wb.create_sheet("Games")
    sheet.append(["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %", "Free game"])
    for index, g in enumerate(t.games.order_by("round", "table")):
        result = g.result
        if index == 0 and result in ("A", "B"):
            result = "B" if result == "A" else "A"
            a_losses, b_losses = g.b_losses, g.a_losses
        else:
            a_losses, b_losses = g.a_losses, g.b_losses
        sheet.append([g.round, g.table, g.player_a_id, g.player_b_id, result, a_losses, b_losses,
                      "yes" if g.free else "no"])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _correctable(candidates) -> int:
    """The first tournament whose stored games make a valid sheet (the synthetic draw allows rematches)."""
    from tournaments.models import Game

    for tid in candidates:
        pairs = [frozenset(p) for p in Game.objects.filter(tournament_id=tid).values_list("player_a_id", "player_b_id")
                 if 99 not in p]
        if len(pairs) == len(set(pairs)):
            return tid
    raise SystemExit("no tournament five years back can be written as a valid sheet")


def _engine_timed(system) -> tuple[int, float]:
    """(games rated, seconds) of the engine alone on the system's facts, as the replay runs it: the collector
    paused from the reading of the facts on (ratings_replay). Turned on again with the history's millions of
    young objects alive, its next pass would walk them all (a second here), not the engine's doing; they are
    freed first."""
    from ratings.engine import collector_paused, replay
    from ratings.facts import facts_load

    with collector_paused():
        facts = facts_load(system=system)
        started = time.perf_counter()
        history = replay(system.get_ruleset(), tournaments=facts.tournaments, openings=facts.openings,
                         closed_years=facts.closed_years, excluded=facts.excluded)
        seconds = time.perf_counter() - started
        rated = len(history.games)
        del facts, history
    return rated, seconds


# Game records whose history rows the plain Django writers write, for the machine's yardstick (_django_writers):
# enough for their rate to settle, few enough to keep the bench within minutes.
BULK_CREATE_GAMES = 100_000
ROW_SAVE_GAMES = 2_000


def _django_writers(system, *, games: int) -> tuple[float, float]:
    """(games per second, games per second) of the history's rows of the first game records written by Django's
    bulk_create (batches of 5,000) and by a save() per row: the writers the issue's target is set against
    ("a straightforward Django bulk_create writer reaches about 15,000 here, a per-row save about 1,000"),
    measured on this machine. Only their writing is timed, into the empty history with its indexes, each
    rolled back: the facts, engine and expansion they would also need are left out, so the figures are the
    most those writers could reach."""
    from django.db import transaction

    from ratings.engine import collector_paused, replay
    from ratings.facts import facts_load
    from ratings.history_writer import EVENT_COLUMNS
    from ratings.models import RatingEvent
    from ratings.services import _event_expansion

    rates = []
    with collector_paused():
        facts = facts_load(system=system)
        history = replay(system.get_ruleset(), tournaments=facts.tournaments, openings=facts.openings,
                         closed_years=facts.closed_years, excluded=facts.excluded)
        for count, bulk in ((min(games, BULK_CREATE_GAMES), True), (min(games, ROW_SAVE_GAMES), False)):
            expansion = _event_expansion(system, facts, first_seq=1, start_played={},
                                         start_games={opening.player: opening.games for opening in facts.openings})
            rows = list(expansion.next(history.games[:count], []).tuples())
            started = time.perf_counter()
            with transaction.atomic():
                # The columns are the fields' attribute names (system_id, player_id, …).
                events = [RatingEvent(**dict(zip(EVENT_COLUMNS, row, strict=True))) for row in rows]
                if bulk:
                    RatingEvent.objects.bulk_create(events, batch_size=5000)
                else:
                    for event in events:
                        event.save()
                transaction.set_rollback(True)
            rates.append(count / (time.perf_counter() - started))
        del facts, history
    return rates[0], rates[1]


def _replay_timed(system, *, keep: bool) -> tuple[float, float | None, float]:
    """(seconds, CPU-seconds of the whole machine, CPU-seconds of this process) of a full replay of `system`
    into empty derived tables, its commit included; rolled back unless `keep` (the derived tables are empty
    again for the next one). The machine's CPU time counts PostgreSQL's processes with ours (None where the
    system does not say it)."""
    from django.db import transaction

    from ratings.services import ratings_replay

    machine, process = _machine_cpu_seconds(), time.process_time()
    started = time.perf_counter()
    with transaction.atomic():
        ratings_replay(system=system, since=None)
        if not keep:
            transaction.set_rollback(True)
    seconds = time.perf_counter() - started
    process = time.process_time() - process
    machine_after = _machine_cpu_seconds()
    return seconds, (machine_after - machine if machine is not None and machine_after is not None else None), process


def _machine_cpu_seconds() -> float | None:
    """CPU-seconds every core of the machine has spent busy since boot (Linux's /proc/stat), else None."""
    try:
        with open("/proc/stat") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    # user, nice, system, idle, iowait, irq, softirq, steal (guest time is counted in user already)
    ticks = [int(value) for value in fields[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3,
                        help="times the engine and the replay are each timed, alternately; the fastest counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    url = os.environ.get("DATABASE_URL", "")
    bench, bench_url = _bench_database(url)
    _recreate(url, bench)
    os.environ["DATABASE_URL"] = bench_url
    os.environ.pop("REDIS_URL", None)  # the appended sheet is rated in-process: we time it, not the queue
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.local")
    import logging

    import django

    django.setup()
    logging.getLogger("ratings.services").setLevel(logging.WARNING)
    from django.core.management import call_command
    from django.db import transaction

    from bench.synthetic import make_federation
    from ratings.models import PlayerRating, RatingSystem
    from ratings.release_behind import releases_finished
    from ratings.services import replay_pending
    from tournaments.models import Tournament
    from tournaments.services import sheet_import_bytes

    say = (lambda *a: None) if args.json else print
    call_command("migrate", verbosity=0)
    say(f"generating {args.games:,} games between {args.players:,} players…")
    federation = make_federation(players=args.players, games=args.games, seed=7)
    with transaction.atomic():
        games = _load_facts(federation)
    say(f"loaded {games:,} games in {len(federation.tournaments):,} tournaments into {bench}")
    # A federation's facts have long been vacuumed and checkpointed: without this, autovacuum would visit the
    # million rows just loaded, and a checkpoint flush them, while the replay is timed on the same two cores.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
        cursor.execute("CHECKPOINT")
    # The synthetic federation (a million objects) is in the database now: the timed runs do not carry it.
    field_pool = federation.players[:5000]
    del federation
    gc.collect()
    system = RatingSystem.objects.get(code="adlg")

    bulk_create_rate, row_save_rate = _django_writers(system, games=games)
    say(f"the history's rows written by Django:  bulk_create {bulk_create_rate:,.0f} games/s, "
        f"a save() per row {row_save_rate:,.0f} games/s (writing alone, the first games)")
    engine_times, replay_times, cpu_times = [], [], []
    for attempt in range(args.repeat):
        releases_finished()  # the replay before frees its objects on a thread of its own: not beside the engine
        rated, seconds = _engine_timed(system)
        engine_times.append(seconds)
        say(f"engine alone on the same facts:     {rated / seconds:,.0f} games/s ({seconds:.1f} s)")
        seconds, machine_cpu, process_cpu = _replay_timed(system, keep=attempt == args.repeat - 1)
        replay_times.append(seconds)
        cpu_times.append((machine_cpu, process_cpu))
        say(f"full replay (read, compute, write): {rated / seconds:,.0f} games/s ({seconds:.1f} s)"
            + (f", {machine_cpu:.1f} CPU-s on the machine, {process_cpu:.1f} of them in Python"
               if machine_cpu is not None else ""))
    engine_s, replay_s = min(engine_times), min(replay_times)
    machine_cpu, process_cpu = cpu_times[replay_times.index(replay_s)]
    cores = _cores()
    if args.repeat > 1:
        say(f"fastest of {args.repeat}: full replay {rated / replay_s:,.0f} games/s, engine {rated / engine_s:,.0f}")

    last_end = Tournament.objects.order_by("-end_date").values_list("end_date", flat=True).first()
    data, field = _head_sheet(field_pool, last_end + timedelta(days=7))
    # The replay's objects are freed on a thread of their own after its commit (ratings.release_behind): each
    # step is timed on a settled process, not beside the freeing of the step before.
    releases_finished()
    started = time.perf_counter()
    outcome = sheet_import_bytes(data=data, file_name="head.xlsx")
    replay_pending(system_code="adlg")
    readable = dict(PlayerRating.objects.filter(system=system, player_id__in=field).values_list("player_id",
                                                                                               "last_played"))
    append_s = time.perf_counter() - started
    assert outcome.ok, outcome.report.as_dict("en")["errors"][:3]
    assert len(readable) == 64 and all(played > last_end for played in readable.values())
    say(f"64-player sheet at the head, rated: {append_s:.2f} s")

    five_years_back = last_end.replace(year=last_end.year - 5)
    old = _correctable(Tournament.objects.filter(end_date__lte=five_years_back, official=True)
                       .order_by("-end_date").values_list("id", flat=True)[:50])
    data = _correction_sheet(old)
    releases_finished()
    started = time.perf_counter()
    outcome = sheet_import_bytes(data=data, file_name="correction.xlsx")
    replay_pending(system_code="adlg")
    old_correction_s = time.perf_counter() - started
    assert outcome.ok, outcome.report.as_dict("en")["errors"][:3]

    figures = {
        "games": rated,
        "replay_games_per_s": round(rated / replay_s),
        "engine_games_per_s": round(rated / engine_s),
        "ratio": round(engine_s / replay_s, 3),
        "repeat": args.repeat,
        "append_s": round(append_s, 3),
        "old_correction_s": round(old_correction_s, 3),
        # The yardstick of the target, on this machine: Django's own writers on the history's rows alone.
        "bulk_create_games_per_s": round(bulk_create_rate),
        "row_save_games_per_s": round(row_save_rate),
        "replay_vs_bulk_create": round(rated / replay_s / bulk_create_rate, 2),
        # The fastest replay's CPU time, all processes of the machine (PostgreSQL's too) and Python's alone, and
        # the games per second it would reach if that work kept every core busy from start to end: the most
        # that overlapping its steps can give on this machine without less work.
        "cores": cores,
        "replay_cpu_s": round(machine_cpu, 2) if machine_cpu is not None else None,
        "replay_python_cpu_s": round(process_cpu, 2),
        "replay_all_cores_busy_games_per_s": round(rated * cores / machine_cpu) if machine_cpu else None,
    }
    say(f"ratio replay/engine:                {figures['ratio']}")
    say(f"correction five years back:         {old_correction_s:.2f} s")
    if machine_cpu:
        say(f"fastest replay's CPU time:          {machine_cpu:.1f} CPU-s ({process_cpu:.1f} in Python) on {cores} "
            f"cores: {figures['replay_all_cores_busy_games_per_s']:,} games/s with every core busy throughout")
    if args.json:
        print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
