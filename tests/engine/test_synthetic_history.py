"""A long synthetic history (20 years, thousands of games) through the whole engine: invariants hold."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bench.synthetic import make_federation
from ratings.engine import GameRecord, replay
from rules.rulesets import RULESETS, get_ruleset

SPARE = 99


@pytest.fixture(scope="module")
def federation():
    return make_federation(players=600, games=6000, seed=7, years=range(2001, 2021))


def test_the_generator_is_deterministic_and_shaped_like_the_real_history(federation):
    again = make_federation(players=600, games=6000, seed=7, years=range(2001, 2021))
    assert again.tournaments == federation.tournaments and again.openings == federation.openings
    assert federation.games >= 6000
    for t in federation.tournaments:
        registered = len(t.players)
        rounds = {g.round for g in t.games}
        assert 8 <= registered <= 64 and 3 <= len(rounds) <= 6
        assert 2001 <= t.end.year <= 2020 and t.start <= t.end
    results = {g.result for t in federation.tournaments for g in t.games}
    assert {"FA", "FB", "DD"} <= results
    assert any(SPARE in (g.a, g.b) for t in federation.tournaments for g in t.games)


VOCABULARY = {
    "adlg-2018": "adlg",
    "adlg-annex-a": "adlg",
    "battle-empire": "battle-empire",
    "classic-elo": "classic",
}


@pytest.mark.parametrize("code", sorted(RULESETS))
def test_a_long_history_keeps_its_invariants(federation, code):
    ruleset = get_ruleset(code)
    if VOCABULARY[code] != "adlg":
        federation = make_federation(players=600, games=6000, seed=7, years=range(2001, 2021),
                                     vocabulary=VOCABULARY[code])  # fmt: skip
    closed = list(federation.years)[:-1]
    history = replay(ruleset, tournaments=federation.tournaments, openings=federation.openings,
                     closed_years=closed, excluded={5})  # fmt: skip
    start = {o.player: (o.rating, o.games) for o in federation.openings}
    moved, played, last_seen = defaultdict(int), defaultdict(int), {}
    ends = {t.id: t.end for t in federation.tournaments}
    order = []
    for row in map(GameRecord._make, history.games):
        order.append((ends[row.tournament], row.tournament))
        assert 5 not in (row.a, row.b)
        assert 0 <= row.p_a <= 1
        for player, change, k in ((row.a, row.change_a, row.k_a), (row.b, row.change_b, row.k_b)):
            if player == SPARE:
                assert (k, change) == (0, 0)
                continue
            moved[player] += change
            played[player] += 1
            last_seen[player] = ends[row.tournament]
    assert order == sorted(order, key=lambda x: x[0])
    for _, player, before, after in history.adjustments:
        moved[player] += after - before
        assert after < before
    assert len(history.adjustments) > 0 or not ruleset.inactivity
    for player, state in history.final.items():
        rating, games = start.get(player, (ruleset.initial_rating, 0))
        assert state.rating == rating + moved[player]
        assert state.games == games + played[player]
        assert state.last_played == last_seen.get(player)
    assert SPARE not in history.final and 5 not in history.final


def test_replaying_the_history_twice_gives_the_same_result(federation):
    ruleset = get_ruleset("adlg-2018")
    closed = list(federation.years)[:-1]
    first = replay(
        ruleset, tournaments=federation.tournaments, openings=federation.openings, closed_years=closed
    )
    second = replay(ruleset, tournaments=federation.tournaments[::-1], openings=federation.openings[::-1],
                    closed_years=closed[::-1])  # fmt: skip
    assert first == second
