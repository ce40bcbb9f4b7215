"""The charter's own pairing example (App. 2 §4.a.ii: 26 players, 5 rounds), from tests/data/vectors.json.

The players are named by their place in the standing before the round: player k is k-th, no one has met, and
no one shares a club, as the vectors' note says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.pairing import Entrant, Pool, choose_system, pair_round

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "data" / "vectors.json").read_text())["pairing"]


def test_the_vectors_cover_every_round_of_the_charters_example():
    assert sorted(v["round"] for v in VECTORS) == [2, 3, 4, 5]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"{v['system']}-{v['players']}p-round{v['round']}")
def test_pairing_vector(v):
    places = range(1, v["players"] + 1)
    pool = Pool([Entrant(k, 1000) for k in places], places, round=v["round"], rounds=v["rounds"])

    pairing = pair_round(pool, system=v["system"])

    assert [[p.a, p.b] for p in pairing.pairs] == v["expect"]
    assert [p.table for p in pairing.pairs] == list(range(1, len(v["expect"]) + 1))
    assert pairing.system == v["system"] and pairing.seed is None and pairing.warnings == ()


def test_the_example_pool_is_one_where_the_charter_requires_the_adapted_system():
    # 26 players, 5 rounds: N/2 = 16 < 26 < 32 = N.
    assert choose_system(26, 5) == "adapted"
