"""Benchmark of the rules alone, on a synthetic federation: the history (rules.history.replay) and every
tournament's results (rules.results), as the replay service runs them, without a database.

Only the rules are timed, not the generation of the federation; the fastest of --repeat runs is kept.
Run from the repo root: `python bench/engine.py [--games N] [--players M] [--seed S] [--repeat R] [--json]`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.synthetic import make_federation  # noqa: E402
from rules.history import replay  # noqa: E402
from rules.results import tournament_results  # noqa: E402
from rules.rulesets import get_ruleset  # noqa: E402


def run(federation, ruleset) -> tuple[float, float, int]:
    """(seconds of the history, seconds of the results, rated games)."""
    closed = list(federation.years)[:-1]
    started = time.perf_counter()
    history = replay(ruleset, tournaments=federation.tournaments, openings=federation.openings, closed_years=closed)
    rated = time.perf_counter()
    events_of = defaultdict(list)
    for event in history.events:
        if event.tournament is not None:
            events_of[event.tournament].append(event)
    results = [tournament_results(ruleset, t, events=events_of[t.id], pre_tournament=history.pre_tournament[t.id])
               for t in federation.tournaments]
    return rated - started, time.perf_counter() - rated, sum(r.rated_games for r in results)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--players", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    federation = make_federation(players=args.players, games=args.games, seed=args.seed)
    ruleset = get_ruleset("adlg-2018")
    runs = [run(federation, ruleset) for _ in range(args.repeat)]
    history_s = min(r[0] for r in runs)
    results_s = min(r[1] for r in runs)
    games = runs[0][2]
    figures = {
        "games": federation.games, "rated_games": games, "players": args.players,
        "history_s": round(history_s, 3), "results_s": round(results_s, 3),
        "history_games_per_s": round(games / history_s), "rules_games_per_s": round(games / (history_s + results_s)),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")
    return figures


if __name__ == "__main__":
    main()
