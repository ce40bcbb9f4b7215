"""A tournament run live on the site: paired by the charter, results table by table, published as a sheet."""

from __future__ import annotations

import random

import pytest

from ratings.models import PlayerRating, RatingSystem
from ratings.services import replay_from_scratch
from rules.rulesets import SPARE_ID
from rules.sheet.format import TEXT_LIMITS
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import NewEntrant, entrant_add, entrant_withdraw
from tournaments.live.pools import key_of
from tournaments.live.publication import live_publish, live_workbook
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_pair_manually, round_publish, round_swap
from tournaments.models import Game, LiveEntrant, LiveTable, Standing, Tournament
from tournaments.sheets.services import sheet_import_bytes

pytestmark = pytest.mark.django_db


def _pairs(round_):
    return [(key_of(t.a), key_of(t.b) if t.b else SPARE_ID) for t in round_.tables.order_by("table")]


def test_nine_players_three_rounds_each_plays_once_per_round_never_a_rematch():
    players = federation_players(9)
    live = live_tournament(players)
    rng = random.Random(1)
    met = set()
    for number in (1, 2, 3):
        round_ = play_round(live, number, rng)
        pairs = _pairs(round_)
        keys = [k for pair in pairs for k in pair]
        assert sorted(keys) == sorted([p.pk for p in players] + [SPARE_ID])
        for pair in pairs:
            assert frozenset(pair) not in met
            met.add(frozenset(pair))
    assert round_.number == 3


def test_the_same_seed_gives_the_same_round_one_draw():
    live = live_tournament(federation_players(8))
    first = _pairs(round_pair(live, seed=12345))
    again = _pairs(round_pair(live, seed=12345))  # a new proposal replaces the first
    assert first == again
    assert live.rounds.get().seed == 12345


def test_next_round_waits_for_every_result():
    live = live_tournament(federation_players(6))
    round_ = round_pair(live, seed=3)
    round_publish(round_)
    results_record(live, 1, [Result(1, "A", 10, 50)])
    with pytest.raises(LiveRefused) as refused:
        round_pair(live)
    assert refused.value.notices[0][0] == "round_incomplete"


def test_a_bad_result_is_refused_with_its_reason_and_changes_nothing():
    live = live_tournament(federation_players(6))
    round_ = round_pair(live, seed=3)
    round_publish(round_)
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "A", 10, 50), Result(2, "X", 10, 10)])
    assert "X" in refused.value.messages()[0]
    assert not LiveTable.objects.filter(round=round_).exclude(result="").exists()


def test_results_of_an_unpublished_round_are_refused():
    live = live_tournament(federation_players(6))
    round_pair(live, seed=3)
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "A", 10, 50)])
    assert refused.value.notices[0][0] == "round_not_published"


def test_elo_levels_required_above_the_ideal_number():
    live = live_tournament(federation_players(10), rounds=3)  # P = 10 > N = 8
    with pytest.raises(LiveRefused) as refused:
        round_pair(live, method="draw")
    assert refused.value.notices[0][0] == "elo_levels_required"
    assert round_pair(live, seed=1).system == "elo-levels"


def test_a_swap_that_makes_club_mates_meet_needs_a_reason():
    players = federation_players(4, clubs=2)  # clubs 1, 2, 1, 2
    live = live_tournament(players, rounds=2)
    round_ = round_pair(live, seed=5)
    (a1, b1), (a2, b2) = _pairs(round_)
    with pytest.raises(LiveRefused) as refused:
        round_swap(round_, b1, a2)
    assert refused.value.notices[0][0] == "reason_required"
    swapped = round_swap(round_, b1, a2, reason="cousins travelled together")
    assert swapped.changes[-1]["reason"] == "cousins travelled together"
    assert {w["code"] for w in swapped.warnings} == {"club_mates_by_hand"}


def test_withdrawn_player_is_not_paired_and_the_spare_comes_in():
    players = federation_players(6)
    live = live_tournament(players)
    play_round(live, 1, random.Random(2))
    entrant = live.entrants.get(player=players[0])
    entrant_withdraw(live, entrant, from_round=2)
    keys = [k for pair in _pairs(round_pair(live)) for k in pair]
    assert players[0].pk not in keys and SPARE_ID in keys


def test_changing_a_result_once_the_next_round_is_paired_needs_a_reason_and_marks_it():
    live = live_tournament(federation_players(6))
    play_round(live, 1, random.Random(3))
    second = round_pair(live)
    with pytest.raises(LiveRefused) as refused:
        results_record(live, 1, [Result(1, "D", 30, 30)])
    assert refused.value.notices[0][0] == "result_changed_reason"
    results_record(live, 1, [Result(1, "D", 30, 30)], reason="table 1 misread")
    second.refresh_from_db()
    assert second.paired_from_other_results


def test_publication_refused_before_the_last_round_is_complete():
    live = live_tournament(federation_players(6))
    play_round(live, 1, random.Random(3))
    with pytest.raises(LiveRefused) as refused:
        live_publish(live)
    assert refused.value.notices[0][0] == "not_complete"
    assert Game.objects.count() == 0


def _standings_and_ratings(tournament_id):
    standings = list(Standing.objects.filter(tournament_id=tournament_id).order_by("pool", "rank")
                     .values_list("player_id", "rank", "score", "opponents_score"))
    ratings = dict(PlayerRating.objects.filter(system_id="adlg").values_list("player_id", "rating"))
    return standings, ratings


def test_published_tournament_equals_the_same_games_uploaded_as_a_sheet():
    players = federation_players(9)
    live = live_tournament(players)
    rng = random.Random(11)
    for number in (1, 2, 3):
        play_round(live, number, rng)
    late = None
    outcome = live_publish(live)
    assert outcome.ok, outcome.report.as_dict()
    tournament = Tournament.objects.get(pk=live.pk)
    assert tournament.games.count() == 15  # 5 tables a round, the spare's included
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    published = _standings_and_ratings(tournament.pk)
    assert published[0] and late is None

    # The same games, as a referee would upload them: a new tournament, the live one removed.
    workbook = live_workbook_of_games(tournament)
    tournament.delete()
    uploaded = sheet_import_bytes(data=workbook, file_name="same.xlsx")
    assert uploaded.ok, uploaded.report.as_dict()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert _standings_and_ratings(uploaded.tournament_id) == published


def live_workbook_of_games(tournament):
    from tournaments.sheets.template import result_workbook

    games = [(g.round, g.table, g.player_a_id, g.player_b_id, g.result, g.a_losses, g.b_losses,
              "yes" if g.free else "no") for g in tournament.games.order_by("round", "table")]
    players = [(r.player_id, r.player.last_name, r.player.first_name, None, None, r.pool)
               for r in tournament.registrations.select_related("player")]
    values = {"name": "Uploaded", "start": tournament.start_date, "end": tournament.end_date, "city": "Paris",
              "country": "FR", "referee": "Ref", "rounds": tournament.rounds}
    return result_workbook(tournament=values, players=players, games=games)


def test_workbook_lists_new_players_as_tags_and_gives_them_ids_on_publication():
    players = federation_players(3)
    live = live_tournament(players, rounds=1)
    new = entrant_add(live, NewEntrant(last_name="Martin", first_name="Zoé", club="Club 1", country="FR"))
    play_round(live, 1, random.Random(4))
    assert f"N{new.pk}" in _player_ids(live_workbook(live))
    outcome = live_publish(live)
    assert outcome.ok, outcome.report.as_dict()
    new.refresh_from_db()
    assert new.player_id == outcome.new_players[f"N{new.pk}"]


def _player_ids(data: bytes) -> list:
    import io

    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(data), read_only=True)["Players"]
    return [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]


def test_round_one_by_hand_is_refused_where_the_charter_requires_elo_levels():
    players = federation_players(10)  # P = 10 > N = 8
    live = live_tournament(players)
    with pytest.raises(LiveRefused) as refused:
        round_pair_manually(live, pairs=[(players[n].pk, players[n + 1].pk) for n in range(0, 10, 2)])
    assert refused.value.notices[0][0] == "elo_levels_required"


def test_round_one_by_hand_in_the_two_groups_system_deals_the_groups():
    players = federation_players(6)  # P = 6 <= N/2 = 8 with 4 rounds: two groups
    live = live_tournament(players, rounds=4)
    round_pair_manually(live, pairs=[(players[n].pk, players[n + 1].pk) for n in range(0, 6, 2)])
    live.refresh_from_db()
    assert live.systems == {"A": "groups"}
    assert sorted(live.entrants.values_list("group", flat=True)) == ["A", "A", "A", "B", "B", "B"]


def test_a_live_entrant_holds_the_texts_a_sheet_allows():
    """A club of 120 characters is a valid sheet's club: the tournament day keeps it whole, as the sheet would."""
    fields = {key: LiveEntrant._meta.get_field(key).max_length for key in ("last_name", "first_name", "club", "pool")}
    assert fields == {key: TEXT_LIMITS[key] for key in fields}
