"""Benchmark of the tournament standings step of the replay, on a synthetic federation.

Times `tournaments.results.tournament_results` as the replay calls it: the standings as columns (tie-breaks,
performance ratings, charter outcome of every tournament), given the game records' columns that the history's
expansion has already made, their results looked up (ratings.event_columns.RecordColumns); without the
database, and without turning the columns into rows (the replay sends them to COPY as they are).
The federation is bench/synthetic.py's, turned into the replay's inputs (`Facts`, the engine's `History`):

- losses: (id % 60, 40 + id % 61) for played games (every 4th tournament coarser, so exact ties happen);
  none for DD, FA, FB;
- pools: every 7th tournament takes in the next one as pool "B" (its players renumbered so the pools do
  not overlap); single-pool tournaments use the pool "" or "A";
- a few penalties, registered players without games, excluded players, clubs (some tournaments all from one
  club), a few counts overrides.

Prints µs per game and the total. The engine's replay that makes the `History` is not timed.

    python bench/standings.py [--games N] [--players M] [--seed S] [--system adlg|battle-empire] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "adlg_site.settings.test")

import django  # noqa: E402
from django.apps import apps  # noqa: E402

if not apps.ready:  # run as a script (the tests import it with Django already set up)
    django.setup()

from bench.synthetic import make_federation  # noqa: E402
from ratings.engine import SPARE_ID, Game, Tournament, replay  # noqa: E402
from ratings.facts import TournamentInfo, facts_of  # noqa: E402
from rules.rulesets import get_ruleset  # noqa: E402

RULESETS = {"adlg": "adlg-2018", "battle-empire": "battle-empire"}
RENUMBER = 10_000_000  # pool B's players of a merged tournament: ids no synthetic player has
CLUBS = 23


def _losses(gid: int, result: str, coarse: bool) -> tuple[int | None, int | None]:
    if result in ("DD", "FA", "FB"):
        return None, None
    if coarse:
        return 20 * (gid % 3), 20 * (gid % 5)
    return gid % 60, 40 + gid % 61


def federation_inputs(*, players: int, games: int, seed: int = 1, system: str = "adlg"):
    """(facts, history, ruleset, club_names): the replay's inputs for a synthetic federation."""
    federation = make_federation(players=players, games=games, seed=seed, vocabulary=system)
    ruleset = get_ruleset(RULESETS[system])
    excluded = frozenset(p for p in federation.players if p % 997 == 3)
    source = federation.tournaments
    tournaments, info, game_rows, registration_rows = [], {}, [], []
    i = 0
    while i < len(source):
        t = source[i]
        pool_b = source[i + 1] if t.id % 7 == 0 and i + 1 < len(source) else None
        i += 2 if pool_b is not None else 1
        single = "" if t.id % 2 else "A"
        entrants = [(p, "A" if pool_b else single) for p in t.players]
        game_list = list(t.games)
        if pool_b is not None:
            def renumber(p: int) -> int:
                return p if p == SPARE_ID else p + RENUMBER

            entrants += [(renumber(p), "B") for p in pool_b.players]
            game_list += [Game(g.id, g.round, g.table, renumber(g.a), renumber(g.b), g.result, g.free)
                          for g in pool_b.games]
        if t.id % 13 == 0:
            entrants.append((2 * RENUMBER + t.id, entrants[0][1]))  # registered, never played
        one_club = t.id % 11 == 0
        registration_rows += [
            (t.id, p, pool, (20, 50, 100)[(p + t.id) % 3] if (p + t.id) % 29 == 0 else 0,
             1 if one_club else (None if p % 5 == 0 else p % CLUBS))
            for p, pool in entrants
        ]
        coarse = t.id % 4 == 0
        game_rows += [(t.id, g.id, g.round, g.table, g.a, g.b, g.result, *_losses(g.id, g.result, coarse), g.free)
                      for g in game_list]
        override = (None, None, None, None, True, False)[t.id % 6]
        info[t.id] = TournamentInfo(t.id, f"T{t.id}", t.start, t.end, "FR", t.official, False,
                                    max(g.round for g in game_list), override)
        tournaments.append(Tournament(t.id, t.start, t.end, t.official, game_list, [p for p, _ in entrants]))
    history = replay(ruleset, tournaments=tournaments, openings=federation.openings, excluded=excluded)
    # The standings read the tournaments' facts and the excluded players; no rating system row is needed.
    facts = facts_of(info=info, games=game_rows, registrations=registration_rows, tournaments=tournaments,
                     openings=federation.openings, excluded=excluded)
    club_names = {c: f"Club {c}" for c in range(CLUBS)}
    return facts, history, ruleset, club_names


def _timed(compute, repeat: int) -> tuple[float, tuple]:
    """The fastest of `repeat` runs of compute(), and its result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        result = None
        gc.collect()
        started = time.perf_counter()
        result = compute()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=None, help="default: a tenth of --games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--system", choices=sorted(RULESETS), default="adlg")
    parser.add_argument("--repeat", type=int, default=3, help="the fastest of this many runs is reported")
    parser.add_argument("--reference", action="store_true",
                        help="also time the plain reference of tests/ratings/test_results_equivalence.py (the "
                             "computation as first written) and check that it gives the same rows")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from ratings.event_columns import record_columns
    from tournaments.results import tournament_results

    players = args.players or max(100, args.games // 10)
    facts, history, ruleset, club_names = federation_inputs(players=players, games=args.games, seed=args.seed,
                                                            system=args.system)
    games = len(facts.games)
    inputs = {"facts": facts, "history": history, "ruleset": ruleset, "club_names": club_names}
    # As the expansion hands them over: each game's result already looked up.
    records = record_columns(history.games).with_results(facts.result_of(), tuple(sorted(ruleset.result_values)))
    seconds, results = _timed(lambda: tournament_results(**inputs, records=records), args.repeat)
    rows = (results.standings.rows(), results.outcomes)
    result = {
        "system": args.system, "games": games, "tournaments": len(facts.info), "standing_rows": len(rows[0]),
        "seconds": round(seconds, 3), "us_per_game": round(seconds / games * 1e6, 2),
        "us_per_tournament": round(seconds / len(facts.info) * 1e6, 1),
    }
    if args.reference:
        from tests.ratings.test_results_equivalence import exactly, reference_rows

        reference_seconds, expected = _timed(lambda: reference_rows(**inputs), 1)
        result["reference_seconds"] = round(reference_seconds, 3)
        result["reference_us_per_game"] = round(reference_seconds / games * 1e6, 2)
        result["speedup"] = round(reference_seconds / seconds, 2)
        result["same_rows"] = all(exactly(got) == exactly(want) for got, want in zip(rows, expected, strict=True))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.system}: {games:,} games in {len(facts.info):,} tournaments, {len(rows[0]):,} standing rows: "
          f"{seconds:.2f} s, {result['us_per_game']} µs per game, {result['us_per_tournament']} µs per tournament")
    if args.reference:
        print(f"reference: {reference_seconds:.2f} s, {result['reference_us_per_game']} µs per game; "
              f"{result['speedup']}x; same rows: {result['same_rows']}")


if __name__ == "__main__":
    main()
