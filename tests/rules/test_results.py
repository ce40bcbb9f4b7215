"""What a tournament's rated results give: each placing's ratings and performance, the charter's verdict, whether
it counts and its championship points (rules.results)."""

from __future__ import annotations

from datetime import date

import pytest

from rules.championship import round_points, tournament_points
from rules.facts import Entrant, Game, Opening, Tournament
from rules.history import replay
from rules.results import tournament_results
from rules.rulesets import ADLG_2018, BATTLE_EMPIRE, SPARE_ID

DAY = date(2024, 5, 5)
CLUBS = ["Alpha", "Beta", "Gamma", None]


def eight_players(*, official: bool = True, override: bool | None = None, results=("A", "B", "D", "A")
                  ) -> Tournament:
    """Eight players of four clubs, three rounds of four tables."""
    games, number = [], 0
    pairs = [[(1, 2), (3, 4), (5, 6), (7, 8)], [(1, 3), (2, 4), (5, 7), (6, 8)], [(1, 5), (2, 6), (3, 7), (4, 8)]]
    for rnd, tables in enumerate(pairs, start=1):
        for table, (a, b) in enumerate(tables, start=1):
            number += 1
            games.append(Game(number, rnd, table, a, b, results[table - 1], 20, 60))
    return Tournament(1, DAY, DAY, official, games, [Entrant(p, "A", 0, CLUBS[p % 4]) for p in range(1, 9)],
                      rounds=3, country="FR", counts_override=override)


def results_of(t: Tournament, ruleset=ADLG_2018, openings=()):
    history = replay(ruleset, tournaments=[t], openings=openings)
    return tournament_results(ruleset, t, events=history.events, pre_tournament=history.pre_tournament[t.id])


def test_each_placing_carries_its_ratings_before_and_after_and_its_performance():
    t = Tournament(1, DAY, DAY, True, [Game(1, 1, 1, 1, 2, "A", 10, 50)], [Entrant(1), Entrant(2), Entrant(3)])
    results = results_of(t, openings=[Opening(2, 1200, 30)])
    placing = {p.row.player: p for p in results.placings}
    assert (placing[1].rating_before, placing[1].rating_after) == (1000, 1035)  # the charter's example
    assert placing[1].performance == (1200 + 500 * 1) / 1
    assert (placing[2].rating_before, placing[2].rating_after, placing[2].performance) == (1200, 1179, 1000 - 500)
    assert (placing[3].rating_before, placing[3].rating_after, placing[3].performance) == (1000, 1000, None)
    assert results.average_rating == (1000 + 1200 + 1000) / 3
    assert (results.ranked_players, results.rated_games) == (3, 1)


def test_forfeits_and_the_spare_count_in_the_standings_not_in_the_rated_games():
    t = Tournament(1, DAY, DAY, True, [Game(1, 1, 1, 1, 2, "FA"), Game(2, 1, 2, 3, SPARE_ID, "A", 0, 30)],
                   [Entrant(1), Entrant(2), Entrant(3), Entrant(SPARE_ID)])
    results = results_of(t)
    assert results.rated_games == 1 and results.ranked_players == 3
    spare_game = next(p for p in results.placings if p.row.player == 3)
    assert spare_game.performance == 1000 + 500  # the spare is rated 1000


def test_a_tournament_meeting_the_charter_counts_and_gives_each_player_points():
    results = results_of(eight_players())
    assert results.charter_failures == [] and results.counts
    first = results.placings[0].row
    expected = round_points(tournament_points(players=8, rounds=3, rank=1, score=first.score, games=3))
    points = {r.player: r.points for r in results.championship}
    assert points[first.player] == expected and len(points) == 8
    assert all(r.end == DAY and r.country == "FR" for r in results.championship)


def test_a_player_without_a_scored_round_earns_no_championship_result():
    t = eight_players()
    t = Tournament(t.id, t.start, t.end, True, t.games, [*t.entrants, Entrant(9, "A", 0, "Delta")], rounds=3)
    results = results_of(t)
    assert results.ranked_players == 9 and 9 not in {r.player for r in results.championship}


def test_an_unofficial_tournament_does_not_count_and_says_why():
    results = results_of(eight_players(official=False))
    assert [f.code for f in results.charter_failures] == ["not_official"]
    assert not results.counts and results.championship == []


def test_the_boards_decision_overrides_the_charters_checks():
    assert results_of(eight_players(official=False, override=True)).counts
    assert not results_of(eight_players(override=False)).counts


def test_battle_empire_never_counts_for_the_championship():
    t = eight_players(results=("A+", "B", "D", "A++"))
    results = results_of(t, ruleset=BATTLE_EMPIRE)
    assert results.charter_failures == [] and not results.counts and results.championship == []
    top = results.placings[0].row
    assert (top.player, top.score) == (1, 3 * 1.25)  # three decisive wins at table 1: result values summed


def test_rounds_are_counted_per_pool_without_free_games():
    t = eight_players()
    free_last_round = [g if g.round < 3 else Game(g.id, g.round, g.table, g.a, g.b, g.result, 20, 60, True)
                       for g in t.games]
    t = Tournament(t.id, t.start, t.end, True, free_last_round, t.entrants, rounds=3)
    failures = results_of(t).charter_failures
    assert [(f.code, f.params["rounds"]) for f in failures] == [("too_few_rounds", 2)]


def test_a_game_between_two_pools_is_refused_with_its_round_and_table():
    t = Tournament(1, DAY, DAY, True, [Game(1, 2, 1, 1, 2, "A", 10, 50)], [Entrant(1, "A"), Entrant(2, "B")])
    with pytest.raises(ValueError, match="round 2, table 1: the players are in different pools"):
        results_of(t)
