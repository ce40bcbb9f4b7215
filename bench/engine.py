"""Benchmark of the replay engine against a minimal hand-written Elo loop, on a synthetic federation.

Terms
-----
engine
    `ratings.engine.replay` with the adlg-2018 ruleset and its whole history output (one record per game,
    adjustments, final states, pre-tournament ratings), closed years included.
baseline
    The least a replay can do: one loop over the same rated games in the same order, fixed K, ratings in
    a dict, recording each player's rating before and after every game.
timing
    The fastest of --repeat runs of each (default 3), garbage collector on, as in production.
ratio
    engine games/s divided by baseline games/s; the target is at least 0.4, with at least 500,000 games/s.

Only the rating is timed, not the generation of the federation. Run from the repo root:
`python bench/engine.py [--games N] [--players M] [--seed S] [--json]`.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
from operator import attrgetter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.synthetic import Federation, make_federation  # noqa: E402
from ratings.engine import SPARE_ID, replay  # noqa: E402
from rules.rulesets import get_ruleset  # noqa: E402


def _in_order(federation: Federation) -> list:
    ordered = sorted((t for t in federation.tournaments if t.official), key=attrgetter("end", "start", "id"))
    return [g for t in ordered for g in sorted(t.games, key=attrgetter("round", "table", "id"))]


def baseline(games: list, values: dict[str, tuple[float, float]]) -> list[tuple]:
    ratings: dict[int, int] = {}
    out = []
    append = out.append
    get = ratings.get
    for g in games:
        s = values.get(g.result)
        if s is None:
            continue
        a, b = g.a, g.b
        ra, rb = get(a, 1000), get(b, 1000)
        p = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 500))
        na = ra + int(30 * (s[0] - p))
        nb = rb + int(30 * (s[1] - 1.0 + p))
        if a != SPARE_ID:
            ratings[a] = na
        if b != SPARE_ID:
            ratings[b] = nb
        append((g.id, a, ra, na, b, rb, nb))
    return out


def _best(run, repeat: int) -> tuple[float, int]:
    """The fastest of `repeat` runs (the usual guard against a noisy machine) and the rows made."""
    best, rows = math.inf, 0
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
        rows = len(result if isinstance(result, list) else result.games)
        del result  # the next run must not pay for the memory of this one
    return best, rows


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="report the fastest of this many runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    federation = make_federation(players=args.players, games=args.games, seed=args.seed)
    generated = time.perf_counter() - started
    ruleset = get_ruleset("adlg-2018")
    closed = list(federation.years)[:-1]
    engine_s, rated = _best(
        lambda: replay(
            ruleset, tournaments=federation.tournaments, openings=federation.openings, closed_years=closed
        ),
        args.repeat,
    )
    ordered = _in_order(federation)
    values = dict(ruleset.result_values)
    baseline_s, baseline_rows = _best(lambda: baseline(ordered, values), args.repeat)
    result = {
        "games": rated,
        "games_per_s": round(rated / engine_s),
        "baseline_games_per_s": round(baseline_rows / baseline_s),
        "ratio": round((rated / engine_s) / (baseline_rows / baseline_s), 3),
    }
    print(
        f"federation: {federation.games:,} games ({rated:,} rated), {len(federation.tournaments):,} "
        f"tournaments, {args.players:,} players, generated in {generated:.1f} s"
    )
    print(f"engine:   {engine_s:6.2f} s  {result['games_per_s']:>12,} games/s")
    print(f"baseline: {baseline_s:6.2f} s  {result['baseline_games_per_s']:>12,} games/s")
    print(f"ratio:    {result['ratio']}")
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
