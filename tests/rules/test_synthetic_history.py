"""A long synthetic history (20 years, thousands of games) through the rules: invariants hold."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bench.synthetic import make_federation
from rules.history import replay
from rules.rulesets import RULESETS, SPARE_ID, get_ruleset


@pytest.fixture(scope="module")
def federation():
    return make_federation(players=600, games=6000, seed=7, years=range(2001, 2021))


def test_the_generator_is_deterministic_and_shaped_like_the_real_history(federation):
    again = make_federation(players=600, games=6000, seed=7, years=range(2001, 2021))
    assert again.tournaments == federation.tournaments and again.openings == federation.openings
    assert federation.games >= 6000
    for t in federation.tournaments:
        registered = len(t.entrants)
        rounds = {g.round for g in t.games}
        assert 8 <= registered <= 64 and 3 <= len(rounds) <= 6
        assert 2001 <= t.end.year <= 2020 and t.start <= t.end
    results = {g.result for t in federation.tournaments for g in t.games}
    assert {"FA", "FB", "DD"} <= results
    assert any(SPARE_ID in (g.a, g.b) for t in federation.tournaments for g in t.games)


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
    order = []
    for e in history.events:
        order.append(e.date)
        assert e.player not in (5, SPARE_ID) and e.opponent != 5
        moved[e.player] += e.change
        if e.game is None:
            assert e.change < 0 and e.date.month == 12 and e.date.day == 31
            continue
        assert 0 <= e.expected <= 1
        played[e.player] += 1
        last_seen[e.player] = e.date
    assert order == sorted(order)
    assert any(e.game is None for e in history.events) or not ruleset.inactivity
    for player, state in history.final.items():
        rating, games = start.get(player, (ruleset.initial_rating, 0))
        assert state.rating == rating + moved[player]
        assert state.games == games + played[player]
        assert state.last_played == last_seen.get(player)
    assert SPARE_ID not in history.final and 5 not in history.final


def test_replaying_the_history_twice_gives_the_same_result(federation):
    ruleset = get_ruleset("adlg-2018")
    closed = list(federation.years)[:-1]
    first = replay(
        ruleset, tournaments=federation.tournaments, openings=federation.openings, closed_years=closed
    )
    second = replay(ruleset, tournaments=federation.tournaments[::-1], openings=federation.openings[::-1],
                    closed_years=closed[::-1])  # fmt: skip
    assert first == second
