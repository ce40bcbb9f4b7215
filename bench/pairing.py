"""Benchmark of the pairing (rules/pairing): one round of a large pool, typical and the worst we can construct.

Terms
-----
after five rounds
    128 players in 7 rounds (P = N, so adapted Swiss by default; classic timed too), 10% independent, the
    rest in 12 clubs. Rounds 1 (`draw`) to 5 are paired by the module itself, each game won by the better
    rated player with the Elo expectation (scale 500); the standing is by wins, then rating, then ID. Timed:
    pairing round 6. The target: under 1 second on this machine.
worst case
    The slowest of these constructed pools of 128 players, each with a history a tournament can have (every
    earlier round a complete pairing, so no one has met more than 5 players after five rounds):
    - `neighbour_blocks`: after five rounds, every block of 6 consecutive players of the standing has played a
      round robin, so each player's first candidates are all rematches (classic and adapted);
    - `club_round_conflicts`: round 2 of 7 (a club round), 2 clubs alternating down the standing and round 1
      having paired neighbours, so each player's next candidates are a rematch then a club-mate;
    - `one_big_club_draw`: round 1 `draw` with 96 of the 128 players in one club (32 club-mate games are
      unavoidable, so every step of the draw weighs club-mates against the rest).
    And one pool no tournament can produce, timed apart (`impossible_barrier`): the bottom 16 players have met
    everyone but the top 16, so each of the top 16 must take one of them and every candidate above is ruled
    out. Each such player costs one weighted matching (rules/pairing/matching.py `pair_first`). After five
    rounds nothing like it happens on a large pool: a player who met at most 5 others leaves almost any rest
    a complete pairing (Dirac's theorem), so ruled-out candidates appear only at the walk's last few players.
timing
    The fastest of --repeat runs (default 3) of `pair_round` on a ready `Pool`: building the pool from the
    database is the service's, not timed here.

    python bench/pairing.py [--players 128] [--repeat 3] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.pairing import Entrant, Pool, choose_system, deal_groups, initial_standing, pair_round  # noqa: E402
from rules.rulesets import SPARE_ID  # noqa: E402

PLAYED = 5
CLUBS = 12
BLOCK = 6  # a round robin of 6 players fills 5 rounds


def rounds_for(players: int) -> int:
    """The fewest rounds whose ideal number is at least P (7 for 128: P = N), and never fewer than six."""
    return max(PLAYED + 1, (players - 1).bit_length())


def _ids(players: int) -> list[int]:
    return [i for i in range(1, players + 2) if i != SPARE_ID][:players]


def _entrants(players: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(i, rng.randrange(700, 1500), None if rng.random() < 0.1 else rng.randrange(CLUBS))
            for i in _ids(players)]


def after_rounds(players: int, seed: int, played_rounds: int = PLAYED) -> tuple[Pool, str]:
    """The pool before round played_rounds + 1 of a simulated tournament, and its system."""
    rng = random.Random(seed)
    entrants = _entrants(players, rng)
    rating = {e.id: e.rating for e in entrants}
    rounds = rounds_for(players)
    system = choose_system(players, rounds)
    if system == "groups":  # a pool small for its rounds (never with the default 128)
        dealt = deal_groups(initial_standing(entrants))
        entrants = [Entrant(e.id, e.rating, e.club, None, dealt[e.id]) for e in entrants]
    standing = list(initial_standing(entrants))
    wins = dict.fromkeys(standing, 0)
    played: list[tuple[int, int]] = []
    for number in range(1, played_rounds + 1):
        pairing = pair_round(Pool(entrants, standing, played, round=number, rounds=rounds), system=system,
                             seed=seed + number)
        for pair in pairing.pairs:
            played.append((pair.a, pair.b))
            if pair.b == SPARE_ID:
                wins[pair.a] += 1
                continue
            expected_a = 1 / (1 + 10 ** ((rating[pair.b] - rating[pair.a]) / 500))
            wins[pair.a if rng.random() < expected_a else pair.b] += 1
        standing.sort(key=lambda i: (-wins[i], -rating[i], i))
    return Pool(entrants, standing, played, round=played_rounds + 1, rounds=rounds), system


def _round_robin(block: list[int]) -> list[tuple[int, int]]:
    """Every game of a round robin (the circle method's rounds, all of them)."""
    return [(a, b) for n, a in enumerate(block) for b in block[n + 1:]]


def neighbour_blocks(players: int, seed: int) -> Pool:
    rng = random.Random(seed)
    entrants = _entrants(players, rng)
    standing = [e.id for e in entrants]
    played = [g for start in range(0, players, BLOCK) for g in _round_robin(standing[start:start + BLOCK])]
    return Pool(entrants, standing, played, round=PLAYED + 1, rounds=rounds_for(len(entrants)))


def club_round_conflicts(players: int, seed: int) -> Pool:
    ids = _ids(players)
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randrange(700, 1500), n % 2) for n, i in enumerate(ids)]
    played = list(zip(ids[::2], ids[1::2], strict=False))
    return Pool(entrants, ids, played, round=2, rounds=rounds_for(len(entrants)))


def one_big_club_draw(players: int, seed: int) -> Pool:
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randrange(700, 1500), "big" if n < players * 3 // 4 else n)
                for n, i in enumerate(_ids(players))]
    return Pool(entrants, initial_standing(entrants), round=1, rounds=rounds_for(len(entrants)))


def impossible_barrier(players: int, seed: int) -> Pool:
    rng = random.Random(seed)
    entrants = _entrants(players, rng)
    ids = [e.id for e in entrants]
    block = players // 8  # 16 of 128
    top, bottom = set(ids[:block]), ids[-block:]
    played = [(b, x) for b in bottom for x in ids if x not in top and x != b]
    return Pool(entrants, ids, played, round=PLAYED + 1, rounds=rounds_for(len(entrants)))


def _best(run, repeat: int) -> tuple[float, object]:
    best, result = math.inf, None
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="report the fastest of this many runs")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)

    pool, system = after_rounds(args.players, args.seed)
    cases = {
        f"after_five_rounds_{system}": (pool, system),
        "after_five_rounds_classic": (pool, "classic"),
    }
    cases.update({
        "neighbour_blocks_classic": (neighbour_blocks(args.players, args.seed), "classic"),
        "neighbour_blocks_adapted": (neighbour_blocks(args.players, args.seed), "adapted"),
        "club_round_conflicts_classic": (club_round_conflicts(args.players, args.seed), "classic"),
        "club_round_conflicts_adapted": (club_round_conflicts(args.players, args.seed), "adapted"),
        "one_big_club_draw": (one_big_club_draw(args.players, args.seed), "adapted"),
        "impossible_barrier_classic": (impossible_barrier(args.players, args.seed), "classic"),
    })
    seconds = {}
    for name, (case_pool, case_system) in cases.items():
        seconds[name], pairing = _best(lambda p=case_pool, s=case_system: pair_round(p, system=s, seed=args.seed),
                                       args.repeat)
        warned = len(pairing.warnings)
        print(f"{name:32} {seconds[name]:7.3f} s  {len(pairing.pairs)} tables, {warned} warnings")
    possible = [n for n in seconds if not n.startswith(("after_five_rounds", "impossible"))]
    worst = max(possible, key=seconds.__getitem__)
    result = {
        "players": args.players,
        "system": system,
        "after_five_rounds_s": round(seconds[f"after_five_rounds_{system}"], 4),
        "after_five_rounds_classic_s": round(seconds["after_five_rounds_classic"], 4),
        "worst_case": worst,
        "worst_case_s": round(seconds[worst], 4),
        "impossible_barrier_s": round(seconds["impossible_barrier_classic"], 4),
        "target_s": 1.0,
        "repeat": args.repeat,
        "cases_s": {n: round(s, 4) for n, s in seconds.items()},
    }
    print(f"one round of {args.players} players after five rounds ({system}): "
          f"{result['after_five_rounds_s']:.3f} s (target < 1 s); worst case ({worst}): "
          f"{result['worst_case_s']:.3f} s; a history no tournament can have: {result['impossible_barrier_s']:.3f} s")
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
