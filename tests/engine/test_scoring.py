"""Tournament standings, tie-breaks, performance figures and the charter's conditions."""

from __future__ import annotations

import pytest

from tournaments.scoring import (
    CharterEntrant,
    CharterFailure,
    Entrant,
    ScoredGame,
    average_rating,
    charter_failure_message,
    charter_failures,
    game_scores,
    minimum_rounds,
    performance_rating,
    standings,
)

SPARE = 99


def game(rnd: int, a: int, b: int, result: str, a_losses: int = 0, b_losses: int = 0, free: bool = False):
    return ScoredGame(rnd, a, a, b, result, a_losses, b_losses, free)


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


def test_standings_rank_by_score():
    rows = standings(system="adlg", entrants=entrants(1, 2, 3, 4),
                     games=[game(1, 1, 2, "A"), game(1, 3, 4, "D")])[""]  # fmt: skip
    assert table(rows) == [(1, 100, None), (3, 40, "score"), (4, 40, "id"), (2, 10, "score")]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_tie_broken_by_the_opponents_scores():
    # 1 and 3 both win 100; 1's opponent (2) then scores 20 more, 3's (4) nothing.
    games = [game(1, 1, 2, "A"), game(1, 3, 4, "A"), game(1, 5, 6, "D"), game(2, 6, 2, "A", 50, 0)]
    rows = standings(system="adlg", entrants=entrants(1, 2, 3, 4, 5, 6), games=games)[""]
    tied = [r for r in rows if r.player in (1, 3)]
    assert [(r.player, r.score, r.opponents_score) for r in tied] == [(1, 100, 30), (3, 100, 10)]
    assert tied[1].decided_by == "opponents"


def test_tie_of_two_who_met_is_broken_by_their_game():
    # 3 beat 1 but a penalty brings 3 back to 1's score; their opponents' scores are each other's.
    players = [Entrant(1, pre_rating=900), Entrant(2), Entrant(3, penalty=90), Entrant(4)]
    games = [game(1, 1, 3, "B"), game(1, 2, 4, "A", 50, 0)]
    rows = standings(system="adlg", entrants=players, games=games)[""]
    assert [(r.player, r.score, r.opponents_score, r.decided_by) for r in rows] == [
        (2, 90, 20, None), (4, 20, 90, "score"), (3, 10, 10, "score"), (1, 10, 10, "head_to_head"),
    ]  # fmt: skip


def test_tie_of_two_who_drew_falls_to_the_rating():
    players = [Entrant(1, pre_rating=1100), Entrant(2, pre_rating=900)]
    rows = standings(system="adlg", entrants=players, games=[game(1, 1, 2, "D")])[""]
    assert table(rows) == [(2, 40, None), (1, 40, "rating")]


def test_tie_of_three_skips_the_head_to_head_and_takes_lower_rating_first():
    players = [Entrant(1, pre_rating=1200), Entrant(2, pre_rating=1000), Entrant(3, pre_rating=1100)]
    games = [game(1, 1, 2, "D"), game(2, 2, 3, "D"), game(3, 3, 1, "D")]
    rows = standings(system="adlg", entrants=players, games=games)[""]
    assert table(rows) == [(2, 80, None), (3, 80, "rating"), (1, 80, "rating")]


def test_last_tie_break_is_the_lower_id():
    rows = standings(system="adlg", entrants=entrants(5, 4), games=[game(1, 4, 5, "DD")])[""]
    assert table(rows) == [(4, 58, None), (5, 58, "id")]


def test_penalty_points_are_taken_off_and_the_score_never_goes_below_zero():
    rows = standings(system="adlg", entrants=entrants(1, 2, p1=20, p2=50), games=[game(1, 1, 2, "A")])[""]
    assert [(r.player, r.score, r.penalty) for r in rows] == [(1, 80, 20), (2, 0, 50)]


def test_a_registered_player_without_games_is_ranked_with_zero():
    rows = standings(system="adlg", entrants=entrants(1, 2, 3), games=[game(1, 1, 2, "A")])[""]
    assert (rows[-1].player, rows[-1].score, rows[-1].games) == (3, 0, 0)


def test_the_spare_is_not_ranked_but_counts_as_an_opponent():
    games = [game(1, 1, SPARE, "B", 0, 0), game(2, SPARE, 2, "A", 20, 0)]
    rows = standings(system="adlg", entrants=entrants(1, 2, SPARE), games=games)[""]
    assert [r.player for r in rows] == [2, 1]
    assert rows[1].opponents_score == 100 + 96  # the spare's score: both its games


def test_forfeits_score_81_and_10_count_as_rounds_but_not_in_opponents_scores():
    games = [game(1, 1, 2, "FA"), game(2, 1, 3, "A")]
    rows = standings(system="adlg", entrants=entrants(1, 2, 3), games=games)[""]
    first = rows[0]
    assert (first.player, first.score, first.games, first.wins) == (1, 181, 2, 2)
    assert first.opponents_score == 10  # player 3 only
    assert [d.result for d in first.rounds] == ["FW", "W"]
    assert rows[-1].rounds[0].result in ("FL", "L")


def test_free_games_count_for_nothing_in_the_standings_but_are_listed():
    games = [game(1, 1, 2, "A"), game(2, 2, 1, "A", free=True)]
    rows = standings(system="adlg", entrants=entrants(1, 2), games=games)[""]
    assert [(r.player, r.score, r.games, r.losses) for r in rows] == [(1, 100, 1, 0), (2, 10, 1, 1)]
    assert [d.free for d in rows[0].rounds] == [False, True]


def test_an_excluded_players_games_are_void_for_everyone():
    games = [game(1, 1, 2, "A"), game(1, 3, 4, "A"), game(2, 1, 3, "A")]
    rows = standings(system="adlg", entrants=entrants(1, 2, 3, 4), games=games, excluded=frozenset({2}))[""]
    by_player = {r.player: r for r in rows}
    assert set(by_player) == {1, 3, 4}
    assert by_player[1].score == 100 and by_player[1].games == 1
    assert all(d.opponent != 2 for r in rows for d in r.rounds)


def test_each_pool_is_ranked_on_its_own():
    players = entrants(1, 2, pool="A") + entrants(3, 4, pool="B")
    result = standings(system="adlg", entrants=players, games=[game(1, 1, 2, "B"), game(1, 3, 4, "A")])
    assert {pool: [r.player for r in rows] for pool, rows in result.items()} == {"A": [2, 1], "B": [3, 4]}


def test_a_game_of_a_non_entrant_is_refused():
    with pytest.raises(ValueError, match="player 7 is not an entrant"):
        standings(system="adlg", entrants=entrants(1), games=[game(1, 1, 7, "A")])


def test_cross_table_detail_from_each_players_view():
    rows = standings(system="adlg", entrants=entrants(1, 2), games=[game(1, 1, 2, "D", 30, 45)])[""]
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
    rows = standings(system="battle-empire", entrants=entrants(1, 2, 3, 4, p1=30), games=games)[""]
    assert [(r.player, r.score, r.penalty) for r in rows][:2] == [(1, 1.75, 0), (4, 1.5, 0)]
    assert rows[0].rounds[0].result == "W+" and rows[-1].rounds[0].result == "L+"


def test_an_unknown_scoring_system_is_refused():
    with pytest.raises(ValueError, match="unknown scoring system"):
        standings(system="chess", entrants=[], games=[])


def test_performance_rating_and_average():
    assert performance_rating(opponents=[1000, 1200], wins=2, losses=0, scale=500) == 1600
    assert performance_rating(opponents=[], wins=0, losses=0, scale=500) is None
    assert average_rating([1000, 1101]) == 1050.5 and average_rating([]) is None


# --- charter ------------------------------------------------------------------------------------------

CLUBS = ["Paris", "Lyon", "Nantes", None]


def field_of(count: int, clubs=CLUBS, pool: str = "") -> list[CharterEntrant]:
    return [CharterEntrant(i + 1, clubs[i % len(clubs)], pool) for i in range(count)]


def codes(failures) -> list[str]:
    return [f.code for f in failures]


def test_a_tournament_meeting_the_charter_has_no_failure():
    assert charter_failures(official=True, entrants=field_of(12), rounds_by_pool={"": 3}) == []


def test_charter_fails_when_not_official():
    assert codes(charter_failures(official=False, entrants=field_of(12), rounds_by_pool={"": 3})) == [
        "not_official"
    ]


def test_charter_fails_below_8_ranked_players_and_the_spare_does_not_count():
    players = field_of(7) + [CharterEntrant(SPARE, None)]
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"": 3})
    assert failures == [CharterFailure("too_few_players", {"players": 7, "minimum": 8})]


def test_charter_fails_with_fewer_than_3_clubs_where_each_independent_counts_as_one():
    two_clubs = field_of(8, clubs=["Paris", "Lyon"])
    assert "too_few_clubs" in codes(
        charter_failures(official=True, entrants=two_clubs, rounds_by_pool={"": 3})
    )
    with_independents = field_of(8, clubs=["Paris", "Lyon", None])
    assert charter_failures(official=True, entrants=with_independents, rounds_by_pool={"": 3}) == []


def test_charter_fails_when_one_club_has_more_than_two_thirds():
    players = field_of(9, clubs=["Paris"] * 7 + ["Lyon", None])
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"": 3})
    assert CharterFailure("club_over_two_thirds", {"club": "Paris", "players": 7, "total": 9}) in failures
    exactly = field_of(9, clubs=["Paris"] * 6 + ["Lyon", None, "Nantes"])
    assert charter_failures(official=True, entrants=exactly, rounds_by_pool={"": 3}) == []


@pytest.mark.parametrize(
    ("players", "minimum"), [(8, 3), (15, 3), (16, 4), (31, 4), (32, 5), (63, 5), (64, 6)]
)
def test_minimum_rounds_by_pool_size(players, minimum):
    assert minimum_rounds(players) == minimum


def test_charter_fails_per_pool_without_enough_rounds():
    players = field_of(16, pool="A") + field_of(8, pool="B")
    failures = charter_failures(official=True, entrants=players, rounds_by_pool={"A": 3, "B": 3})
    assert failures == [
        CharterFailure("too_few_rounds", {"pool": "A", "players": 16, "rounds": 3, "minimum": 4})
    ]


def test_every_failure_has_an_english_and_a_french_sentence():
    failures = charter_failures(official=False, entrants=field_of(5, clubs=["Paris"]), rounds_by_pool={"": 2})
    assert codes(failures) == ["not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds",
                               "too_few_rounds"]  # fmt: skip
    assert [charter_failure_message(f, "en") for f in failures] == [
        "The tournament is not official.",
        "The tournament ranks 5 players; at least 8 are needed.",
        "The players come from 1 club (an independent player counts as a club of one); "
        "at least 3 are needed.",
        "The club Paris has 5 of the 5 players: more than two thirds.",
        "2 rounds for 5 players; at least 3 are needed.",
    ]
    assert [charter_failure_message(f, "fr") for f in failures] == [
        "Le tournoi n'est pas officiel.",
        "Le tournoi classe 5 joueurs\u00a0; il en faut au moins 8.",
        "Les joueurs viennent de 1 club (un joueur indépendant compte pour un club)\u00a0; "
        "il en faut au moins 3.",
        "Le club Paris compte 5 des 5 joueurs\u00a0: plus des deux tiers.",
        "2 rondes pour 5 joueurs\u00a0; il en faut au moins 3.",
    ]


def test_a_pool_is_named_in_its_rounds_failure():
    failure = CharterFailure("too_few_rounds", {"pool": "B", "players": 1, "rounds": 0, "minimum": 3})
    assert charter_failure_message(failure) == "Pool B: 0 rounds for 1 player; at least 3 are needed."
    assert (
        charter_failure_message(failure, "fr")
        == "Poule B\u00a0: 0 ronde pour 1 joueur\u00a0; il en faut au moins 3."
    )


def test_a_message_in_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no messages in 'de'"):
        charter_failure_message(CharterFailure("not_official"), "de")
