"""Game scores (App. 4), the standings of each pool with their tie-breaks, and the performance figures."""

from __future__ import annotations

import pytest

from rules.facts import Entrant, Game
from rules.rulesets import ADLG_2018, BATTLE_EMPIRE, SPARE_ID
from rules.scoring import game_scores
from rules.standings import average_rating, performance_rating, standings

SPARE = SPARE_ID


def game(rnd: int, a: int, b: int, result: str, a_losses: int = 0, b_losses: int = 0, free: bool = False):
    return Game(rnd * 100 + a, rnd, a, a, b, result, a_losses, b_losses, free)


def entrants(*players: int, pool: str = "", **penalties: int) -> list[Entrant]:
    return [Entrant(p, pool, penalties.get(f"p{p}", 0)) for p in players]


def table(rows) -> list[tuple]:
    return [(r.player, r.score, r.decided_by) for r in rows]


def test_a_victory_loses_a_point_per_5_percent_suffered_never_below_81():
    assert game_scores("A", 12, 40) == (98, 12)
    assert game_scores("B", 0, 100) == (29, 81)


def test_losses_outside_0_to_100_are_refused():
    with pytest.raises(ValueError, match="0 to 100"):
        game_scores("A", 101, 0)


def test_an_unknown_adlg_result_is_refused():
    with pytest.raises(ValueError, match="unknown AdlG result 'A\\+'"):
        game_scores("A+", 0, 0)


def test_an_unknown_battle_empire_result_is_refused():
    with pytest.raises(ValueError, match="unknown Battle Empire result 'DD'"):
        standings(BATTLE_EMPIRE, entrants=entrants(1, 2), games=[game(1, 1, 2, "DD")])


def test_standings_rank_by_score():
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3, 4),
                     games=[game(1, 1, 2, "A"), game(1, 3, 4, "D")])[""]  # fmt: skip
    assert table(rows) == [(1, 100, None), (3, 40, "score"), (4, 40, "id"), (2, 10, "score")]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_tie_broken_by_the_opponents_scores():
    # 1 and 3 both win 100; 1's opponent (2) then scores 20 more, 3's (4) nothing.
    games = [game(1, 1, 2, "A"), game(1, 3, 4, "A"), game(1, 5, 6, "D"), game(2, 6, 2, "A", 50, 0)]
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3, 4, 5, 6), games=games)[""]
    tied = [r for r in rows if r.player in (1, 3)]
    assert [(r.player, r.score, r.opponents_score) for r in tied] == [(1, 100, 30), (3, 100, 10)]
    assert tied[1].decided_by == "opponents"


def test_tie_of_two_who_met_is_broken_by_their_game():
    # 3 beat 1 but a penalty brings 3 back to 1's score; their opponents' scores are each other's.
    players = [Entrant(1, ""), Entrant(2, ""), Entrant(3, "", penalty=90), Entrant(4, "")]
    games = [game(1, 1, 3, "B"), game(1, 2, 4, "A", 50, 0)]
    rows = standings(ADLG_2018, entrants=players, games=games, pre_ratings={1: 900})[""]
    assert [(r.player, r.score, r.opponents_score, r.decided_by) for r in rows] == [
        (2, 90, 20, None), (4, 20, 90, "score"), (3, 10, 10, "score"), (1, 10, 10, "head_to_head"),
    ]  # fmt: skip


def test_tie_of_two_who_drew_falls_to_the_rating():
    rows = standings(ADLG_2018, entrants=entrants(1, 2), games=[game(1, 1, 2, "D")],
                     pre_ratings={1: 1100, 2: 900})[""]
    assert table(rows) == [(2, 40, None), (1, 40, "rating")]


def test_tie_of_three_skips_the_head_to_head_and_takes_lower_rating_first():
    games = [game(1, 1, 2, "D"), game(2, 2, 3, "D"), game(3, 3, 1, "D")]
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3), games=games,
                     pre_ratings={1: 1200, 2: 1000, 3: 1100})[""]
    assert table(rows) == [(2, 80, None), (3, 80, "rating"), (1, 80, "rating")]


def test_last_tie_break_is_the_lower_id():
    rows = standings(ADLG_2018, entrants=entrants(5, 4), games=[game(1, 4, 5, "DD")])[""]
    assert table(rows) == [(4, 58, None), (5, 58, "id")]


def test_penalty_points_are_taken_off_and_the_score_never_goes_below_zero():
    rows = standings(ADLG_2018, entrants=entrants(1, 2, p1=20, p2=50), games=[game(1, 1, 2, "A")])[""]
    assert [(r.player, r.score, r.penalty) for r in rows] == [(1, 80, 20), (2, 0, 50)]


def test_a_registered_player_without_games_is_ranked_with_zero():
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3), games=[game(1, 1, 2, "A")])[""]
    assert (rows[-1].player, rows[-1].score, rows[-1].games) == (3, 0, 0)


def test_the_spare_is_not_ranked_but_counts_as_an_opponent():
    games = [game(1, 1, SPARE, "B", 0, 0), game(2, SPARE, 2, "A", 20, 0)]
    rows = standings(ADLG_2018, entrants=entrants(1, 2, SPARE), games=games)[""]
    assert [r.player for r in rows] == [2, 1]
    assert rows[1].opponents_score == 100 + 96  # the spare's score: both its games


def test_forfeits_score_81_and_10_count_as_rounds_but_not_in_opponents_scores():
    games = [game(1, 1, 2, "FA"), game(2, 1, 3, "A")]
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3), games=games)[""]
    first = rows[0]
    assert (first.player, first.score, first.games, first.wins) == (1, 181, 2, 2)
    assert first.opponents_score == 10  # player 3 only
    assert [d.result for d in first.rounds] == ["FW", "W"]
    assert rows[-1].rounds[0].result in ("FL", "L")


def test_free_games_count_for_nothing_in_the_standings_but_are_listed():
    games = [game(1, 1, 2, "A"), game(2, 2, 1, "A", free=True)]
    rows = standings(ADLG_2018, entrants=entrants(1, 2), games=games)[""]
    assert [(r.player, r.score, r.games, r.losses) for r in rows] == [(1, 100, 1, 0), (2, 10, 1, 1)]
    assert [d.free for d in rows[0].rounds] == [False, True]


def test_an_excluded_players_games_are_void_for_everyone():
    games = [game(1, 1, 2, "A"), game(1, 3, 4, "A"), game(2, 1, 3, "A")]
    rows = standings(ADLG_2018, entrants=entrants(1, 2, 3, 4), games=games, excluded=frozenset({2}))[""]
    by_player = {r.player: r for r in rows}
    assert set(by_player) == {1, 3, 4}
    assert by_player[1].score == 100 and by_player[1].games == 1
    assert all(d.opponent != 2 for r in rows for d in r.rounds)


def test_each_pool_is_ranked_on_its_own():
    players = entrants(1, 2, pool="A") + entrants(3, 4, pool="B")
    result = standings(ADLG_2018, entrants=players, games=[game(1, 1, 2, "B"), game(1, 3, 4, "A")])
    assert {pool: [r.player for r in rows] for pool, rows in result.items()} == {"A": [2, 1], "B": [3, 4]}


def test_a_game_of_a_non_entrant_is_refused():
    with pytest.raises(ValueError, match="player 7 is not an entrant"):
        standings(ADLG_2018, entrants=entrants(1), games=[game(1, 1, 7, "A")])


def test_cross_table_detail_from_each_players_view():
    rows = standings(ADLG_2018, entrants=entrants(1, 2), games=[game(1, 1, 2, "D", 30, 45)])[""]
    detail = {r.player: r.rounds[0] for r in rows}
    assert (detail[1].opponent, detail[1].result, detail[1].score, detail[1].opponent_score) == (
        2,
        "D",
        45,
        42,
    )
    assert (detail[2].opponent, detail[2].score, detail[2].opponent_score) == (1, 42, 45)


def test_battle_empire_standings_sum_result_values_without_penalties():
    games = [game(1, 1, 2, "A+"), game(2, 3, 1, "D"), game(2, 2, 4, "B++")]
    rows = standings(BATTLE_EMPIRE, entrants=entrants(1, 2, 3, 4, p1=30), games=games)[""]
    assert [(r.player, r.score, r.penalty) for r in rows][:2] == [(1, 1.75, 0), (4, 1.5, 0)]
    assert rows[0].rounds[0].result == "W+" and rows[-1].rounds[0].result == "L+"


def test_performance_rating_and_average():
    assert performance_rating(opponents=[1000, 1200], wins=2, losses=0, scale=500) == 1600
    assert performance_rating(opponents=[], wins=0, losses=0, scale=500) is None
    assert average_rating([1000, 1101]) == 1050.5 and average_rating([]) is None
