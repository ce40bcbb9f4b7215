"""Small pools for the pairing tests: player k is k-th in the standing unless told otherwise."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.pairing import Entrant, Pairing, Pool
from rules.rulesets import SPARE_ID

SPARE = SPARE_ID


def make_pool(players: int | Iterable[int], *, met: Iterable[tuple[int, int]] = (), clubs: Mapping[int, object] = None,
              hats: Mapping[int, int] = None, groups: Mapping[int, str] | str = None,
              ratings: Mapping[int, int] = None, standing: Iterable[int] = None, round: int = 2,
              rounds: int = 5) -> Pool:
    ids = list(range(1, players + 1)) if isinstance(players, int) else list(players)
    clubs, hats, ratings = clubs or {}, hats or {}, ratings or {}
    if isinstance(groups, str):  # "ABBA…": the group of each player in order
        groups = dict(zip(ids, groups, strict=True))
    groups = groups or {}
    entrants = [Entrant(i, ratings.get(i, 1000), clubs.get(i), hats.get(i), groups.get(i)) for i in ids]
    return Pool(entrants, ids if standing is None else standing, met, round=round, rounds=rounds)


def pairs_of(pairing: Pairing) -> list[tuple[int, int]]:
    return [(p.a, p.b) for p in pairing.pairs]


def codes(pairing: Pairing) -> list[str]:
    return [w.code for w in pairing.warnings]
