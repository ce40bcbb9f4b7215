"""The calibration page's numbers for a big federation, timed as the worker works them out after a replay.

The synthetic federation (`bench/synthetic.py`) is rated by the rules (`rules.history.replay`, not timed), then:

- `rules_s`: the calibration of every rated game by the rules alone (`rules.calibration`), from the events in
  memory, as the service hands them over;
- with DATABASE_URL (PostgreSQL), in its own database `<name>_calibration` created afresh: the events are written
  to the rating history with COPY (not timed), and `worker_s` is what the worker's task costs
  (`ratings.calibration.calibration_refresh`: read the rated games from the history, the rules, store the row).

    [DATABASE_URL=postgres://postgres@127.0.0.1:5432/adlg] python bench/calibration.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.replay import _copy, _recreate, bench_url  # noqa: E402 - the project's root is on the path from here
from bench.synthetic import make_federation  # noqa: E402
from rules import calibration  # noqa: E402
from rules.history import replay  # noqa: E402
from rules.rulesets import SPARE_ID, get_ruleset  # noqa: E402


def _higher_side(events):
    """(difference, P, S) of each game between two real players, from its higher-rated side (as the service)."""
    for e in events:
        if e.game is None or e.opponent == SPARE_ID:
            continue
        if e.expected > 0.5 or (e.expected == 0.5 and e.player < e.opponent):
            yield e.rating_before - e.opponent_rating, e.expected, e.score


def _worker_seconds(url: str, events) -> tuple[float, int]:
    bench, bench_db = bench_url(url, suffix="_calibration")
    _recreate(url, bench)
    os.environ["DATABASE_URL"] = bench_db
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.local")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from ratings.calibration import calibration_refresh
    from ratings.models import RatingEvent

    call_command("migrate", verbosity=0)
    columns = ("system_id", "player_id", "seq", "kind", "date", "tournament_id", "game_id", "opponent_id",
               "rating_before", "rating_after", "change", "games_before", "opponent_rating", "k", "expected",
               "score")
    with connection.cursor() as cursor:
        _copy(cursor.cursor, RatingEvent, columns, (
            ("adlg", e.player, seq, "game" if e.game is not None else "adjustment", e.date, e.tournament, e.game,
             e.opponent, e.rating_before, e.rating_after, e.change, e.games_before, e.opponent_rating, e.k,
             e.expected, e.score) for seq, e in enumerate(events, start=1)))
        cursor.execute("VACUUM ANALYZE")
    started = time.perf_counter()
    row = calibration_refresh(system_code="adlg")
    return time.perf_counter() - started, row.games


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--players", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ruleset = get_ruleset("adlg-2018")
    federation = make_federation(players=args.players, games=args.games, seed=args.seed)
    events = replay(ruleset, tournaments=federation.tournaments, openings=federation.openings).events
    games = list(_higher_side(events))
    started = time.perf_counter()
    result = calibration.calibration(ruleset, iter(games))
    figures = {"games": federation.games, "calibrated_games": result.games,
               "rules_s": round(time.perf_counter() - started, 3), "verdict": result.verdict}
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        seconds, stored = _worker_seconds(os.environ["DATABASE_URL"], events)
        assert stored == result.games, (stored, result.games)
        figures["worker_s"] = round(seconds, 3)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return figures


if __name__ == "__main__":
    main()
