"""The replay of a history: order, what is rated, spare, exclusions, inactivity, periods, incremental runs."""

from __future__ import annotations

import random
from datetime import date
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.elo import UnknownResult, game_change, tournament_change
from rules.facts import Opening, PlayerState, Tournament
from rules.history import InvalidGame, replay
from rules.rulesets import ADLG_2018, BATTLE_EMPIRE, CLASSIC_ELO, RULESETS, get_ruleset
from tests.rules.factories import ADLG_RESULTS, SIDES, SPARE, histories, tournament

BE_RESULTS = st.sampled_from(["A", "A+", "A++", "B", "B+", "B++", "D"])
CLASSIC_RESULTS = st.sampled_from(["A", "B", "D"])
RESULTS_OF = {
    "adlg-2018": ADLG_RESULTS,
    "adlg-annex-a": ADLG_RESULTS,
    "battle-empire": BE_RESULTS,
    "classic-elo": CLASSIC_RESULTS,
}


class Record(NamedTuple):
    """A game seen from both sides, made of its events (a spare side has none: its rating, no change, K 0)."""

    game: int
    tournament: int
    a: int
    b: int
    before_a: int
    change_a: int
    k_a: int
    before_b: int
    change_b: int
    k_b: int
    p_a: float


def records(history) -> list[Record]:
    by_game: dict[int, dict[int, object]] = {}
    for e in history.events:
        if e.game is not None:
            by_game.setdefault(e.game, {})[e.player] = e
    rows = []
    for game, events in by_game.items():
        a, b = SIDES[game]
        side_a, side_b = events.get(a), events.get(b)
        lone = side_a or side_b
        rows.append(Record(
            game, lone.tournament, a, b,
            side_a.rating_before if side_a else lone.opponent_rating, side_a.change if side_a else 0,
            side_a.k if side_a else 0,
            side_b.rating_before if side_b else lone.opponent_rating, side_b.change if side_b else 0,
            side_b.k if side_b else 0,
            side_a.expected if side_a else 1.0 - side_b.expected))
    return rows


def adjustments(history) -> list[tuple[int, int, int, int]]:
    """(year, player, before, after) of each downgrade."""
    return [(e.year, e.player, e.rating_before, e.rating_after) for e in history.events if e.year is not None]


def test_a_game_gives_an_event_per_player_with_the_state_before_it():
    history = replay(ADLG_2018, tournaments=[tournament(1, [(1, 1, 2, "A")], end=date(2020, 6, 1))])
    a, b = history.events
    assert (a.player, a.opponent, a.rating_before, a.rating_after, a.k, a.expected, a.score) == (
        1, 2, 1000, 1025, 50, 0.5, 1.0)
    assert (b.player, b.opponent, b.rating_before, b.rating_after, b.k, b.expected, b.score) == (
        2, 1, 1000, 975, 50, 0.5, 0.0)
    assert (a.date, a.tournament, a.games_before, a.last_played_before, a.year) == (date(2020, 6, 1), 1, 0, None, None)


def test_each_event_records_the_games_and_last_rated_game_before_it():
    first = tournament(1, [(1, 1, 2, "A")], end=date(2020, 6, 1))
    second = tournament(2, [(1, 1, 3, "A"), (2, 1, 2, "B")], end=date(2020, 9, 1))
    history = replay(ADLG_2018, tournaments=[first, second])
    own = [(e.games_before, e.last_played_before) for e in history.events if e.player == 1]
    assert own == [(0, None), (1, date(2020, 6, 1)), (2, date(2020, 9, 1))]


def test_games_are_rated_in_round_then_table_order_whatever_the_input_order():
    t = tournament(1, [(1, 1, 2, "A"), (1, 3, 4, "A"), (2, 1, 3, "A")])
    shuffled = Tournament(t.id, t.start, t.end, True, tuple(reversed(t.games)))
    history = replay(ADLG_2018, tournaments=[shuffled])
    assert [row.game for row in records(history)] == [g.id for g in t.games]
    assert records(history)[2].before_a == 1025  # the second-round game sees the first round's changes


def test_tournaments_are_replayed_by_end_then_start_then_id():
    late = tournament(1, [(1, 1, 2, "A")], end=date(2020, 3, 2))
    longer = tournament(3, [(1, 1, 2, "B")], end=date(2020, 3, 1), days=3)
    shorter_b = tournament(4, [(1, 1, 2, "D")], end=date(2020, 3, 1), days=1)
    shorter_a = tournament(2, [(1, 1, 2, "A")], end=date(2020, 3, 1), days=1)
    history = replay(ADLG_2018, tournaments=[late, shorter_b, shorter_a, longer])
    assert [row.tournament for row in records(history)] == [3, 2, 4, 1]


def test_unofficial_tournaments_are_not_rated_but_show_pre_tournament_ratings():
    history = replay(ADLG_2018, tournaments=[tournament(1, [(1, 1, 2, "A")], official=False)])
    assert history.events == []
    assert history.pre_tournament == {1: {1: (1000, 0), 2: (1000, 0)}}
    assert history.final[1] == PlayerState(1000, 0, None)


def test_forfeits_are_not_rated_but_their_players_took_part():
    history = replay(ADLG_2018, tournaments=[tournament(1, [(1, 1, 2, "FA"), (1, 3, 4, "FB")])])
    assert history.events == []
    assert set(history.pre_tournament[1]) == {1, 2, 3, 4}
    assert history.final[1].last_played is None  # a forfeit is not a rated game


def test_free_games_are_rated():
    history = replay(ADLG_2018, tournaments=[tournament(1, [(1, 1, 2, "A", True)])])
    assert records(history)[0].change_a == 25


def test_a_game_against_the_spare_is_rated_for_the_real_player_only():
    t = tournament(1, [(1, 1, SPARE, "B"), (2, SPARE, 2, "B"), (3, 3, SPARE, "A")])
    history = replay(ADLG_2018, tournaments=[t])
    first, second, third = records(history)
    assert (first.change_a, first.k_b, first.change_b, first.before_b) == (-25, 0, 0, 1000)
    assert (second.k_a, second.change_a, second.before_a, second.change_b) == (0, 0, 1000, 25)
    assert third.before_b == 1000  # the spare never moves
    assert SPARE not in history.final and SPARE not in history.pre_tournament[1]
    assert history.final[1] == PlayerState(975, 1, t.end)


def test_games_of_an_excluded_player_are_void_for_both_sides():
    t = tournament(1, [(1, 1, 2, "A"), (2, 1, 3, "A"), (3, 3, SPARE, "A")])
    history = replay(ADLG_2018, tournaments=[t], excluded={2})
    assert [(row.a, row.b) for row in records(history)] == [(1, 3), (3, SPARE)]
    assert 2 not in history.final and 2 not in history.pre_tournament[1]
    assert history.final[1].rating == 1025


def test_an_excluded_player_leaves_start_state_and_openings():
    history = replay(
        ADLG_2018, tournaments=[], openings=[Opening(5, 1300, 20)], start_state={6: PlayerState(1200, 3)},
        excluded={5, 6},
    )  # fmt: skip
    assert history.final == {}


def test_an_opening_balance_is_the_players_starting_point():
    history = replay(
        ADLG_2018, tournaments=[tournament(1, [(1, 1, 2, "A")])], openings=[Opening(1, 1450, 30)]
    )
    row = records(history)[0]
    assert (row.before_a, row.k_a) == (1450, 15)
    assert history.final[1].games == 31


def test_a_player_only_registered_is_listed_with_the_initial_rating():
    history = replay(CLASSIC_ELO, tournaments=[tournament(1, [], players=(8,))])
    assert history.final == {8: PlayerState(1500, 0, None)}
    assert history.pre_tournament == {1: {8: (1500, 0)}}


def test_an_unknown_result_names_the_tournament_and_the_game():
    t = tournament(7, [(1, 1, 2, "A+")])
    with pytest.raises(UnknownResult, match=f"tournament 7, game {t.games[0].id}: unknown result 'A\\+'"):
        replay(ADLG_2018, tournaments=[t])


@pytest.mark.parametrize("code", ["adlg-2018", "classic-elo"])
def test_a_player_cannot_play_against_himself(code):
    t = tournament(7, [(1, 3, 3, "A")])
    with pytest.raises(InvalidGame, match=f"tournament 7, game {t.games[0].id}: player 3 cannot play"):
        replay(get_ruleset(code), tournaments=[t])


def test_last_played_is_the_end_of_the_last_tournament_with_a_rated_game():
    first = tournament(1, [(1, 1, 2, "A")], end=date(2019, 5, 1))
    second = tournament(2, [(1, 1, 2, "FA")], end=date(2019, 9, 1))
    history = replay(ADLG_2018, tournaments=[first, second])
    assert history.final[1].last_played == date(2019, 5, 1)


def test_pre_tournament_ratings_are_taken_before_each_tournament():
    first = tournament(1, [(1, 1, 2, "A")], end=date(2019, 5, 1))
    second = tournament(2, [(1, 1, 3, "A")], end=date(2019, 9, 1), players=(1, 3, 4))
    history = replay(ADLG_2018, tournaments=[second, first])
    assert history.pre_tournament[2] == {1: (1025, 1), 3: (1000, 0), 4: (1000, 0)}


# --- inactivity ---------------------------------------------------------------------------------------


def strong(player: int = 1, rating: int = 1350, games: int = 0, as_of: date | None = None) -> Opening:
    return Opening(player, rating, games, as_of)


def test_an_inactive_player_is_adjusted_at_the_close_of_the_year():
    played = tournament(1, [(1, 1, 2, "A")], end=date(2019, 5, 1))
    history = replay(ADLG_2018, tournaments=[played], openings=[strong()], closed_years=[2020])
    end_of_2020 = 1350 + game_change(ADLG_2018, 1350, 0, 1000, 0, "A")[0]
    assert adjustments(history) == [(2020, 1, end_of_2020, end_of_2020 - 100)]
    assert adjustments(history)[0][3] == history.final[1].rating


def test_a_player_active_in_the_year_is_not_adjusted():
    played = tournament(1, [(1, 1, 2, "A")], end=date(2020, 5, 1))
    history = replay(ADLG_2018, tournaments=[played], openings=[strong()], closed_years=[2020])
    assert adjustments(history) == []


def test_a_player_who_never_played_is_not_adjusted():
    history = replay(ADLG_2018, tournaments=[], openings=[strong(games=0)], closed_years=[2020])
    assert adjustments(history) == []


def test_an_opening_with_games_counts_as_past_activity_from_its_date():
    openings = [strong(1, games=12, as_of=date(2020, 12, 31)), strong(2, games=12, as_of=date(2021, 1, 1)),
                strong(3, games=12, as_of=None)]  # fmt: skip
    history = replay(ADLG_2018, tournaments=[], openings=openings, closed_years=[2020])
    assert [(row[1], row[3]) for row in adjustments(history)] == [(1, 1250), (3, 1250)]


def test_closing_a_year_twice_changes_nothing():
    once = replay(ADLG_2018, tournaments=[], openings=[strong(games=5)], closed_years=[2020])
    twice = replay(ADLG_2018, tournaments=[], openings=[strong(games=5)], closed_years=[2020, 2020])
    assert once == twice and len(adjustments(once)) == 1


def test_each_closed_year_adjusts_again_and_years_come_in_any_order():
    history = replay(ADLG_2018, tournaments=[], openings=[strong(rating=1400, games=5)],
                     closed_years=[2021, 2019, 2020])  # fmt: skip
    assert adjustments(history) == [(2019, 1, 1400, 1300), (2020, 1, 1300, 1250), (2021, 1, 1250, 1200)]


def test_a_late_tournament_in_a_closed_year_makes_the_player_active():
    history = replay(ADLG_2018, tournaments=[], openings=[strong(games=5)], closed_years=[2020])
    assert len(adjustments(history)) == 1
    late = tournament(1, [(1, 1, 2, "B")], end=date(2020, 11, 1))
    history = replay(ADLG_2018, tournaments=[late], openings=[strong(games=5)], closed_years=[2020])
    assert adjustments(history) == []


def test_the_adjustment_follows_tournaments_ending_on_31_december_and_precedes_later_ones():
    on_31 = tournament(1, [(1, 2, 3, "A")], end=date(2020, 12, 31))
    next_day = tournament(2, [(1, 1, 3, "A")], end=date(2021, 1, 1))
    history = replay(
        ADLG_2018, tournaments=[next_day, on_31], openings=[strong(games=5)], closed_years=[2020]
    )
    assert adjustments(history) == [(2020, 1, 1350, 1250)]
    assert records(history)[1].before_a == 1250


def test_the_rating_tested_is_the_one_at_the_end_of_the_year():
    # Player 1 falls below 1300 during 2019, then sits out 2020: -50, not -100.
    loss = tournament(1, [(1, 1, 2, "B"), (2, 1, 2, "B")], end=date(2019, 6, 1))
    history = replay(
        ADLG_2018, tournaments=[loss], openings=[strong(rating=1320, games=20)], closed_years=[2020]
    )
    before = adjustments(history)[0][2]
    assert before < 1300 and adjustments(history)[0][3] == before - 50


def test_the_annex_a_adjustment_never_goes_below_1000():
    history = replay(get_ruleset("adlg-annex-a"), tournaments=[], openings=[strong(rating=1040, games=5)],
                     closed_years=[2020])  # fmt: skip
    assert adjustments(history) == [(2020, 1, 1040, 1000)]


def test_excluded_players_are_never_adjusted():
    history = replay(ADLG_2018, tournaments=[], openings=[strong(games=5)], closed_years=[2020], excluded={1})
    assert adjustments(history) == []


# --- the 'tournament' rating period -------------------------------------------------------------------


def test_classic_period_rates_every_game_from_the_pre_tournament_ratings():
    t = tournament(1, [(1, 1, 2, "A"), (2, 1, 3, "A"), (3, 1, 4, "D"), (3, 2, 3, "A")])
    history = replay(CLASSIC_ELO, tournaments=[t], openings=[Opening(4, 1700, 30)])
    rows = [row for row in records(history) if 1 in (row.a, row.b)]
    assert [row.before_a for row in rows] == [1500, 1500, 1500]
    assert [row.change_a for row in rows] == [0, 0, history.final[1].rating - 1500]
    expected = tournament_change(
        CLASSIC_ELO, rating=1500, games=0, results=[(1500, "A"), (1500, "A"), (1700, "D")]
    )
    assert history.final[1].rating == 1500 + expected.change
    assert sum(row.change_a for row in rows) == expected.change
    assert history.final[1].games == 3


def test_classic_period_records_the_opponents_side_too():
    history = replay(CLASSIC_ELO, tournaments=[tournament(1, [(1, 1, 2, "A"), (2, 2, 3, "B")])])
    first, second = records(history)
    assert first.before_b == second.before_a == 1500
    assert first.change_b == 0 and second.change_a == history.final[2].rating - 1500


# --- properties ---------------------------------------------------------------------------------------


def reference_replay(ruleset, *, tournaments, openings=(), excluded=frozenset(), spare=SPARE) -> list[tuple]:
    """The readable rules, one game at a time, for the 'game' period without adjustments."""
    state: dict[int, list[int]] = {o.player: [o.rating, o.games] for o in openings}
    out = []
    for t in sorted((t for t in tournaments if t.official), key=lambda t: (t.end, t.start, t.id)):
        for g in sorted(t.games, key=lambda g: (g.round, g.table, g.id)):
            if g.result in ruleset.forfeits or excluded & {g.a, g.b}:
                continue
            a = (
                state.setdefault(g.a, [ruleset.initial_rating, 0])
                if g.a != spare
                else [ruleset.spare_rating, 0]
            )
            b = (
                state.setdefault(g.b, [ruleset.initial_rating, 0])
                if g.b != spare
                else [ruleset.spare_rating, 0]
            )
            delta_a, delta_b, k_a, k_b, p_a = game_change(ruleset, a[0], a[1], b[0], b[1], g.result)
            if g.a == spare:
                delta_a = k_a = 0
            if g.b == spare:
                delta_b = k_b = 0
            out.append((g.id, a[0], delta_a, k_a, b[0], delta_b, k_b, round(p_a, 12)))
            a[0] += delta_a
            b[0] += delta_b
            a[1] += 1
            b[1] += 1
    return out


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["adlg-2018", "adlg-annex-a", "battle-empire"]), st.data())
def test_the_history_rates_each_game_as_game_change_does(code, data):
    ruleset = get_ruleset(code)
    facts = data.draw(histories(RESULTS_OF[code]))
    history = replay(ruleset, tournaments=facts["tournaments"], excluded=facts["excluded"])
    expected = reference_replay(ruleset, tournaments=facts["tournaments"], excluded=facts["excluded"])
    assert _comparable(history) == expected


def _comparable(history) -> list[tuple]:
    """What the readable rules also give: game, before, change and K of each side, P_A (to 12 places: a spare's
    side has no event, and 1 - (1 - P_A) is not always P_A to the last bit)."""
    return [
        (r.game, r.before_a, r.change_a, r.k_a, r.before_b, r.change_b, r.k_b, round(r.p_a, 12))
        for r in records(history)
    ]


def test_the_history_matches_game_change_on_extreme_ratings():
    # Beyond the expected-score range, and on both sides of the K thresholds.
    openings = [Opening(1, 9000, 50), Opening(2, -4000, 3), Opening(3, 1400, 10), Opening(4, 1399, 9)]
    games = [
        (1, 1, 2, "B"),
        (1, 3, 4, "D"),
        (2, 1, 3, "A"),
        (2, 2, 4, "A"),
        (3, 1, SPARE, "B"),
        (3, 2, 3, "D"),
    ]
    tournaments = [tournament(1, games)]
    for ruleset in (ADLG_2018, BATTLE_EMPIRE):
        history = replay(ruleset, tournaments=tournaments, openings=openings)
        assert _comparable(history) == reference_replay(ruleset, tournaments=tournaments, openings=openings)


def _shuffled(facts: dict, seed: int) -> dict:
    rng = random.Random(seed)
    tournaments = [
        Tournament(t.id, t.start, t.end, t.official, rng.sample(list(t.games), len(t.games)),
                   rng.sample(list(t.entrants), len(t.entrants)))
        for t in facts["tournaments"]
    ]  # fmt: skip
    rng.shuffle(tournaments)
    openings = rng.sample(facts["openings"], len(facts["openings"]))
    return {**facts, "tournaments": tournaments, "openings": openings,
            "closed_years": rng.sample(facts["closed_years"], len(facts["closed_years"]))}  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(RULESETS)), st.data(), st.integers(0, 10**6))
def test_replay_is_deterministic_and_independent_of_the_order_of_the_facts(code, data, seed):
    ruleset = get_ruleset(code)
    facts = data.draw(histories(RESULTS_OF[code]))
    assert replay(ruleset, **facts) == replay(ruleset, **_shuffled(facts, seed)) == replay(ruleset, **facts)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(RULESETS)), st.data())
def test_incremental_replay_from_a_stored_prefix_equals_a_full_replay(code, data):
    ruleset = get_ruleset(code)
    facts = data.draw(histories(RESULTS_OF[code]))
    since = data.draw(st.dates(date(2017, 6, 1), date(2024, 1, 1)))
    past = {**facts, "tournaments": [t for t in facts["tournaments"] if t.end < since],
            "closed_years": [y for y in facts["closed_years"] if date(y, 12, 31) < since]}
    prefix = replay(ruleset, **past)
    full = replay(ruleset, **facts)
    rest = replay(ruleset, **facts, start_state=prefix.final, since=since)
    assert rest.final == full.final
    assert prefix.events + rest.events == full.events
    assert prefix.pre_tournament | rest.pre_tournament == full.pre_tournament
    assert set(rest.pre_tournament) == {t.id for t in facts["tournaments"] if t.end >= since}


def test_a_late_tournament_replays_only_what_follows_it():
    early = tournament(1, [(1, 1, 2, "A")], end=date(2019, 3, 1))
    later = tournament(2, [(1, 1, 3, "B"), (1, 2, 4, "A")], end=date(2021, 3, 1))
    openings = [strong(3, games=10)]
    stored = replay(ADLG_2018, tournaments=[early, later], openings=openings, closed_years=[2019, 2020])
    late = tournament(3, [(1, 3, 4, "A")], end=date(2020, 6, 1))
    full = replay(ADLG_2018, tournaments=[early, later, late], openings=openings, closed_years=[2019, 2020])
    state_before_late = replay(ADLG_2018, tournaments=[early], openings=openings, closed_years=[2019]).final
    rest = replay(ADLG_2018, tournaments=[early, later, late], openings=openings, closed_years=[2019, 2020],
                  start_state=state_before_late, since=date(2020, 1, 1))
    assert rest.final == full.final != stored.final
    assert (2020, 3, 1250, 1200) not in adjustments(full)  # the late tournament made player 3 active in 2020
    assert set(rest.pre_tournament) == {2, 3}


def test_closed_years_before_the_start_point_are_not_reapplied():
    start = {1: PlayerState(1350, 20, date(2018, 5, 1))}
    history = replay(
        ADLG_2018, tournaments=[], closed_years=[2019, 2020], start_state=start, since=date(2020, 1, 1)
    )
    assert adjustments(history) == [(2020, 1, 1350, 1250)]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(RULESETS)), st.data())
def test_the_changes_of_a_players_records_add_up_to_the_rating_change(code, data):
    ruleset = get_ruleset(code)
    facts = data.draw(histories(RESULTS_OF[code]))
    history = replay(ruleset, **facts)
    start = {o.player: (o.rating, o.games) for o in facts["openings"]}
    moved: dict[int, int] = {}
    played: dict[int, int] = {}
    for row in records(history):
        for player, change, k in ((row.a, row.change_a, row.k_a), (row.b, row.change_b, row.k_b)):
            if k:
                moved[player] = moved.get(player, 0) + change
                played[player] = played.get(player, 0) + 1
            else:
                assert player == SPARE and change == 0
    for _year, player, before, after in adjustments(history):
        moved[player] = moved.get(player, 0) + after - before
    for player, state in history.final.items():
        rating, games = start.get(player, (ruleset.initial_rating, 0))
        assert state.rating == rating + moved.get(player, 0)
        assert state.games == games + played.get(player, 0)
    assert SPARE not in history.final and not facts["excluded"] & set(history.final)
