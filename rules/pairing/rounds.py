"""Pair one round of one pool: the entry point the live-tournament service calls (PAIRING.md §2-§4)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from rules.pairing import round_one, swiss
from rules.pairing.model import (
    ADAPTED,
    CLASSIC,
    DRAW,
    ELO_LEVELS,
    GROUPS,
    MANUAL,
    SYSTEMS,
    Notice,
    Pair,
    Pairing,
    PairingRefused,
    Pool,
    ideal_number,
    new_seed,
    round_one_methods,
)
from rules.rulesets import SPARE_ID


def pair_round(pool: Pool, *, system: str, method: str | None = None, seed: int | None = None,
               first_table: int = 1) -> Pairing:
    """The pairing of `pool.round`, in table order, or `PairingRefused` (nothing paired) with the reason.

    system: the tournament's, from `choose_system` at the start (`classic`, `adapted`, `groups`).
    method: round 1 only: `draw`, `hats` or `elo-levels` (default: `draw`, or `elo-levels` when P > N, where
        it is the only one allowed). `manual` pairs go through `pair_manually`.
    seed: the draw's seed (round 1); a fresh one is picked when None. Returned in the pairing for the caller
        to record; None from round 2 on, where nothing is drawn.
    first_table: the first table number of this pool in this round (the last used by earlier pools + 1).
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    warnings: list[Notice] = []
    stage = None
    if pool.round == 1:
        method = _round_one_method(pool, method)
        seed = new_seed() if seed is None else seed
        rng = random.Random(seed)
        chosen = round_one.METHODS[method]
        label = method
        if system == GROUPS:
            stage = "inside"
            order, group, pairs = swiss.split_groups(pool, warnings)
            for name in ("A", "B"):
                pairs += chosen(pool, [p for p in order if group[p] == name], rng, warnings)
        else:
            pairs = chosen(pool, pool.standing, rng, warnings)
    else:
        if method is not None:
            raise PairingRefused.one("method_not_for_round", method=method, round=pool.round)
        seed, label = None, system
        if system in (CLASSIC, ADAPTED):
            pairs = swiss.swiss_round(pool, system, warnings)
        elif pool.round == pool.rounds:
            stage = "joined"
            pairs = swiss.swiss_round(pool, CLASSIC, warnings)
        elif pool.round == pool.rounds - 1:
            stage = "join"
            pairs = swiss.join_round(pool, warnings)
        else:
            stage = "inside"
            pairs = swiss.inside_round(pool, warnings)
    club_code = "club_mates" if pool.round == 1 else "club_mates_swiss"
    return Pairing(round=pool.round, system=label, seed=seed, stage=stage, pairs=tables(pool, pairs, first_table),
                   warnings=(*warnings, *club_mate_warnings(pool, pairs, club_code)))


def _round_one_method(pool: Pool, method: str | None) -> str:
    allowed = round_one_methods(pool.size, pool.rounds)
    if method is None:  # PAIRING.md §8: `draw`, or `elo-levels` when it is required
        return ELO_LEVELS if allowed == (ELO_LEVELS,) else DRAW
    if method == MANUAL:
        raise ValueError("manual pairs are checked by pair_manually, not drawn by pair_round")
    if method not in allowed:
        if allowed == (ELO_LEVELS,):
            raise PairingRefused.one("elo_levels_required", players=pool.size, ideal=ideal_number(pool.rounds))
        raise PairingRefused.one("method_not_allowed", method=method, allowed=list(allowed))
    return method


def tables(pool: Pool, pairs: Iterable[tuple[int, int]], first_table: int = 1) -> tuple[Pair, ...]:
    """§2.5: numbered from `first_table`, from the highest placed pair down (a pair is placed at its higher
    player), the spare's game last; in each pair the higher placed player is `a`, the spare always `b`."""
    place = pool.place
    last = len(place) + 1  # the spare's place: below everyone

    def oriented(pair: tuple[int, int]) -> tuple[int, int]:
        x, y = pair
        return (x, y) if place.get(x, last) < place.get(y, last) else (y, x)

    ordered = sorted(map(oriented, pairs), key=lambda pair: (pair[1] == SPARE_ID, place[pair[0]]))
    return tuple(Pair(table, a, b) for table, (a, b) in enumerate(ordered, first_table))


def club_mate_warnings(pool: Pool, pairs: Iterable[tuple[int, int]], code: str = "club_mates") -> list[Notice]:
    """Club-mates paired in a club round: the referee is told, the warning's code saying why (model.Notice):
    `club_mates` in a round-1 draw (no draw keeps more clubs apart), `club_mates_swiss` from round 2 (the pair's
    first player, whose turn it was, had no other partner left that avoided a rematch), `club_mates_by_hand`
    for the referee's own pairs. A pair keeps its order for `club_mates_swiss` (the walker first)."""
    if not pool.club_round:
        return []
    if code == "club_mates_swiss":
        found = [tuple(pair) for pair in pairs if pool.club_mates(*pair)]
    else:
        found = [sorted(pair, key=pool.place.__getitem__) for pair in pairs if pool.club_mates(*pair)]
    return [Notice(code, {"a": a, "b": b}) for a, b in sorted(found, key=lambda p: min(pool.place[p[0]],
                                                                                         pool.place[p[1]]))]
