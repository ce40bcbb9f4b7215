from datetime import date

import pytest

from players.models import Player
from ratings.closing import year_close
from ratings.models import ClosedYear, PlayerRating, RatingEvent, RatingSystem, ReplayRequest
from ratings.services import replay_from_scratch
from tests.ratings.helpers import derived_state, imported, roster, sheet
from tournaments.models import Standing, Tournament
from tournaments.services import tournament_results_withdraw

pytestmark = pytest.mark.django_db(transaction=True)


def _scratch_equals_stored() -> None:
    stored = derived_state()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored


def test_an_imported_sheet_is_rated_and_its_standings_and_points_written():
    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    tournament = Tournament.objects.get(pk=outcome.tournament_id)
    assert tournament.status == Tournament.RATED
    assert set(outcome.new_players) == {"N1", "N2"}
    # 15 games, 2 forfeits not rated: 13 rated games, two events each.
    assert RatingEvent.objects.filter(tournament=tournament).count() == 26
    assert Standing.objects.filter(tournament=tournament).count() == 10
    assert tournament.outcome.counts is True
    assert tournament.championship_results.count() == 10
    assert ReplayRequest.objects.filter(status=ReplayRequest.PENDING).count() == 0


def test_ratings_follow_the_charter_example_from_the_opening_balance():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    first = RatingEvent.objects.filter(player_id=101).order_by("seq").first()
    # 101 starts from its opening balance (1350, 40 games: K=30) and beats 104 (1200, 25 games).
    assert (first.rating_before, first.games_before, first.k) == (1350, 40, 30)
    assert first.opponent_rating == 1200
    assert first.change == int(30 * (1 - 1 / (1 + 10 ** ((1200 - 1350) / 500))))


def test_a_full_replay_reproduces_the_stored_state_after_out_of_order_imports_and_corrections():
    roster()
    late = imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    early = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    ids = early.new_players
    imported(sheet(name="Autumn Open", start=date(2024, 10, 5), new_players=ids))
    year_close(year=2023)
    # a correction of the early one: a new result in round 1
    corrected = sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=early.tournament_id,
                      new_players=ids).replace(b"", b"")
    imported(corrected)
    assert late.tournament_id
    _scratch_equals_stored()


def test_a_late_tournament_gives_the_same_history_as_a_replay_from_scratch():
    roster()
    imported(sheet(name="B", start=date(2024, 6, 1)))
    imported(sheet(name="C", start=date(2024, 9, 1)))
    before = RatingEvent.objects.filter(player_id=101).order_by("seq").values_list("rating_after", flat=True)
    before = list(before)
    imported(sheet(name="A", start=date(2024, 2, 1)))
    after = list(RatingEvent.objects.filter(player_id=101).order_by("seq").values_list("rating_after", flat=True))
    assert len(after) == len(before) + 3 and after[3:] != before
    _scratch_equals_stored()


def test_closing_a_year_downgrades_the_inactive_and_a_second_close_changes_nothing():
    roster()
    imported(sheet(name="Spring Clash", start=date(2021, 3, 16)))
    year_close(year=2022)
    rating_104 = PlayerRating.objects.get(player_id=104, system="adlg").rating
    adjustments = RatingEvent.objects.filter(kind=RatingEvent.ADJUSTMENT, year=2022)
    assert adjustments.exists()
    state = derived_state()
    assert year_close(year=2022) == [("adlg", False), ("battle-empire", False)]
    assert derived_state() == state
    assert PlayerRating.objects.get(player_id=104, system="adlg").rating == rating_104
    assert ClosedYear.objects.filter(year=2022).count() == 2


def test_a_late_tournament_in_a_closed_year_makes_its_players_active_that_year():
    roster()
    year_close(year=2020)
    # 101 (1350 from the old site, as of 2019-12-31) played nothing in 2020: −100.
    assert PlayerRating.objects.get(player_id=101).rating == 1250
    imported(sheet(name="Covid Cup", start=date(2020, 8, 1)))
    assert not RatingEvent.objects.filter(player_id=101, kind=RatingEvent.ADJUSTMENT).exists()
    _scratch_equals_stored()


def test_the_same_sheet_twice_changes_nothing_the_second_time():
    roster()
    data = sheet(name="Spring Clash", start=date(2024, 3, 16))
    first = imported(data)
    state = derived_state()
    players = Player.objects.count()
    second = imported(data)
    assert second.unchanged and second.tournament_id == first.tournament_id
    assert second.new_players == first.new_players
    assert derived_state() == state and Player.objects.count() == players


def _without_game_ids(state: dict) -> dict:
    """The derived state but the events' game: an import writes its games anew, so their row IDs change."""
    return {**state, "events": [event[:6] + event[7:] for event in state["events"]]}


def _first_game(tournament_id: int) -> tuple:
    return Tournament.objects.get(pk=tournament_id).games.values_list(
        "result", "a_losses", "b_losses").get(round=1, player_a_id=101)


def test_an_earlier_version_sent_again_after_a_correction_is_imported_again():
    roster()
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    ids, pk = first.new_players, first.tournament_id
    version_2 = sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=pk, new_players=ids)
    version_3 = sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=pk, new_players=ids,
                      first_game=("B", 60, 20))
    imported(version_2)
    state = derived_state()
    imported(version_3)
    assert _first_game(pk) == ("B", 60, 20)
    # The referee takes the correction back by sending version 2 again: it is what the tournament holds again.
    again = imported(version_2)
    assert not again.unchanged
    assert _first_game(pk) == ("A", 20, 60)
    assert _without_game_ids(derived_state()) == _without_game_ids(state)


def test_a_sheet_sent_again_after_the_board_withdrew_its_results_is_imported_again(board):
    roster()
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    data = sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=first.tournament_id,
                 new_players=first.new_players)
    imported(data)
    state = derived_state()
    tournament_results_withdraw(tournament=Tournament.objects.get(pk=first.tournament_id), reason="by mistake",
                                user=board)
    assert not Standing.objects.filter(tournament_id=first.tournament_id).exists()
    again = imported(data)
    assert not again.unchanged and again.tournament_id == first.tournament_id
    assert Tournament.objects.get(pk=first.tournament_id).status == Tournament.RATED
    assert _without_game_ids(derived_state()) == _without_game_ids(state)


def test_a_sheet_matching_a_tournament_already_on_the_site_is_refused_with_its_id():
    roster()
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    from tournaments.sheets.services import sheet_import_bytes

    again = sheet_import_bytes(data=sheet(name="spring clash", start=date(2024, 3, 16),
                                          new_players=first.new_players), file_name="x.xlsx")
    assert not again.ok
    messages = [issue["message"] for issue in again.report.as_dict()["errors"]]
    assert any(str(first.tournament_id) in message for message in messages)
    assert Tournament.objects.count() == 1


def test_positions_count_the_players_rated_higher_and_ties_share_one():
    from ratings.positions import Positions

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    ratings = sorted(PlayerRating.objects.filter(system="adlg").values_list("rating", flat=True), reverse=True)
    positions = Positions("adlg")
    for rating in ratings:
        assert positions.of(rating) == 1 + sum(1 for other in ratings if other > rating)
    assert positions.of(ratings[0]) == 1


def test_a_replay_into_emptied_derived_tables_writes_every_row_back_as_it_was():
    # The rating rows take their player's country and club from the database's insert trigger.
    from championship.models import ChampionshipResult, ChampionshipTotal
    from ratings.models import RatingCount
    from tournaments.models import TournamentOutcome

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    stored = derived_state()
    places = set(PlayerRating.objects.values_list("player_id", "country_id", "club_id"))
    assert any(country for _, country, _ in places) and any(club for _, _, club in places)
    for model in (RatingEvent, PlayerRating, RatingCount, Standing, TournamentOutcome, ChampionshipResult,
                  ChampionshipTotal):
        model.objects.all().delete()
    summary = replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored
    assert set(PlayerRating.objects.values_list("player_id", "country_id", "club_id")) == places
    assert summary.events == len(stored["events"]) > 20


def test_a_tournament_at_the_head_of_history_replays_only_itself():
    from django.db import transaction

    from ratings.replay import ratings_replay

    roster()
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    imported(sheet(name="Autumn Open", start=date(2024, 10, 5)))
    autumn = RatingEvent.objects.filter(date=date(2024, 10, 6)).count()
    stored = derived_state()
    with transaction.atomic():
        summary = ratings_replay(system=RatingSystem.objects.get(code="adlg"), since=date(2024, 10, 6))
    assert (summary.since, summary.events) == (date(2024, 10, 6), autumn) and autumn > 0
    assert derived_state() == stored
    _scratch_equals_stored()


def test_a_tournament_that_stops_counting_leaves_the_championship_of_a_replay_from_scratch():
    # The championship is written as a difference after a replay from a date: results removed, totals changed,
    # ranks moved and a total gone must all match a rewrite from scratch.
    from django.contrib.auth import get_user_model

    from championship.models import ChampionshipResult, ChampionshipTotal
    from tournaments.services import tournament_override

    roster()
    spring = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    spring_only = set(spring.new_players.values())  # played the spring tournament only
    assert spring_only <= set(ChampionshipTotal.objects.values_list("player_id", flat=True))
    board = get_user_model().objects.create_user("board", is_staff=True, is_superuser=True)
    tournament_override(tournament=Tournament.objects.get(pk=spring.tournament_id), counts=False,
                        reason="charter checks failed on appeal", user=board)
    assert not ChampionshipResult.objects.filter(tournament_id=spring.tournament_id).exists()
    totals = set(ChampionshipTotal.objects.values_list("player_id", flat=True))
    assert totals == set(ChampionshipResult.objects.values_list("player_id", flat=True))
    assert not totals & spring_only
    _scratch_equals_stored()
