from datetime import date

import pytest

from players.models import Player
from ratings.closing import year_close
from ratings.models import ClosedYear, PlayerRating, RatingEvent, RatingSystem, ReplayRequest
from ratings.services import replay_from_scratch
from tests.ratings.helpers import derived_state, imported, roster, sheet
from tournaments.models import Standing, Tournament

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


def test_a_sheet_matching_a_tournament_already_on_the_site_is_refused_with_its_id():
    roster()
    first = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    from tournaments.services import sheet_import_bytes

    again = sheet_import_bytes(data=sheet(name="spring clash", start=date(2024, 3, 16),
                                          new_players=first.new_players), file_name="x.xlsx")
    assert not again.ok
    messages = [issue["message"] for issue in again.report.as_dict("en")["errors"]]
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


def test_a_full_replay_on_postgresql_leaves_the_indexes_and_constraints_as_they_were():
    # A full replay drops the derived tables' indexes, primary keys and unique constraints and builds them again.
    from django.db import connection

    from championship.models import ChampionshipResult, ChampionshipTotal
    from tournaments.models import Standing

    if connection.vendor != "postgresql":
        pytest.skip("index suspension is PostgreSQL's")
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    tables = [model._meta.db_table for model in (RatingEvent, Standing, ChampionshipResult, ChampionshipTotal)]

    def schema() -> list[tuple]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) "
                           "ORDER BY 1, 2", [tables])
            indexes = cursor.fetchall()
            cursor.execute("SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) "
                           "FROM pg_constraint WHERE conrelid::regclass::text = ANY(%s) ORDER BY 1, 2", [tables])
            return indexes + cursor.fetchall()

    before, stored = schema(), derived_state()
    names = {row[1] for row in before}
    assert {"event_player_history", "event_system_date", f"{tables[0]}_pkey", "one_standing_per_player",
            "one_result_per_tournament", "one_total_per_player_year"} <= names
    # Emptied, the derived tables take the bulk path of a first replay: the one that suspends their indexes.
    for model in (RatingEvent, Standing, ChampionshipResult, ChampionshipTotal, PlayerRating):
        model.objects.all().delete()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored
    assert schema() == before


def test_a_first_replay_hands_out_new_keys_and_moves_each_sequence_past_them():
    # On PostgreSQL the bulk path of a first replay gives the rows their keys itself: they must be new keys,
    # and the rows the database numbers later (a replay from a date merges its rows in) must not reuse one.
    from django.db import connection

    from championship.models import ChampionshipResult, ChampionshipTotal

    if connection.vendor != "postgresql":
        pytest.skip("the writer hands out keys on PostgreSQL only")
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    models = (RatingEvent, Standing, ChampionshipResult, ChampionshipTotal)
    old_keys = {model: set(model.objects.values_list("id", flat=True)) for model in models}
    for model in models:
        model.objects.all().delete()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    keys = {model: sorted(model.objects.values_list("id", flat=True)) for model in models}
    for model in models:
        assert keys[model] == list(range(keys[model][0], keys[model][0] + len(keys[model]))), model
        assert keys[model][0] > max(old_keys[model]), model
    events = list(RatingEvent.objects.order_by("id").values_list("seq", flat=True))
    assert events == sorted(events)
    imported(sheet(name="Summer Clash", start=date(2024, 6, 15)))  # merged in by a replay from its date
    for model in (RatingEvent, Standing, ChampionshipResult):
        later = set(model.objects.values_list("id", flat=True)) - set(keys[model])
        assert later and min(later) > keys[model][-1], model


@pytest.mark.parametrize("emptied", [True, False], ids=["places read before the replay", "places read by the writer"])
def test_many_new_current_ratings_are_written_with_their_indexes_rebuilt(monkeypatch, emptied):
    # Past BULK_RATINGS new rows (a first replay) the list's indexes are rebuilt, not maintained: the rows,
    # the country copied onto them and the indexes must come out as they were. The players' places are read
    # up front when the list is empty, else by the writer.
    from django.db import connection

    from ratings import current_list

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    stored = derived_state()
    countries = dict(PlayerRating.objects.values_list("player_id", "country_id"))
    clubs = dict(PlayerRating.objects.values_list("player_id", "club_id"))
    table = PlayerRating._meta.db_table
    with connection.cursor() as cursor:
        indexes = sorted(index for index in connection.introspection.get_constraints(cursor, table))
    kept = PlayerRating.objects.order_by("player_id").values_list("id", flat=True)[:0 if emptied else 1]
    PlayerRating.objects.exclude(id__in=list(kept)).delete()
    monkeypatch.setattr(current_list, "BULK_RATINGS", 0)
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored
    assert dict(PlayerRating.objects.values_list("player_id", "country_id")) == countries
    assert dict(PlayerRating.objects.values_list("player_id", "club_id")) == clubs
    assert any(countries.values()) and any(clubs.values())
    with connection.cursor() as cursor:
        assert sorted(connection.introspection.get_constraints(cursor, table)) == indexes
    # The insert trigger the bulk write switched off is on again: a new rating row still takes its player's place.
    monkeypatch.undo()
    PlayerRating.objects.filter(player_id=next(iter(clubs))).delete()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert dict(PlayerRating.objects.values_list("player_id", "club_id")) == clubs


def test_a_tournament_that_stops_counting_leaves_the_championship_of_a_replay_from_scratch():
    # The championship is written as a difference after a replay from a date: results removed, totals changed,
    # ranks moved and a total gone must all match a rewrite from scratch.
    from django.contrib.auth import get_user_model

    from championship.models import ChampionshipResult, ChampionshipTotal
    from players.governance import tournament_override

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


@pytest.mark.parametrize("path", ["first replay", "replay from scratch", "replay from a date"])
def test_a_history_written_in_parts_while_the_engine_runs_is_the_history_written_at_once(monkeypatch, path):
    # The replay writes the history part by part as the engine goes (every HISTORY_PART game records): bulk
    # into an emptied history, merged over a stored one, from scratch or from a date.
    from championship.models import ChampionshipResult, ChampionshipTotal
    from ratings import services

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    monkeypatch.setattr(services, "HISTORY_PART", 2)
    if path == "replay from a date":
        imported(sheet(name="Winter Open", start=date(2024, 1, 13)))  # before both: replayed in parts
        in_parts = derived_state()
        monkeypatch.undo()
        _scratch_equals_stored()
        assert derived_state() == in_parts
        return
    stored = derived_state()
    if path == "first replay":
        for model in (RatingEvent, Standing, ChampionshipResult, ChampionshipTotal, PlayerRating):
            model.objects.all().delete()
    summary = replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored
    assert summary.events == len(stored["events"]) > 20


def test_a_tournament_at_the_head_of_history_reads_only_the_current_ratings_it_can_change(monkeypatch):
    from ratings import services

    roster()
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    read = []
    current_states = services.current_states
    monkeypatch.setattr(services, "current_states",
                        lambda system, players=None: read.append(players) or current_states(system, players))
    imported(sheet(name="Autumn Open", start=date(2024, 10, 5)))  # pool A's players only, after everything
    listed = set(PlayerRating.objects.values_list("player_id", flat=True))
    assert len(read) == 1 and read[0] is not None
    assert listed - set(read[0]), "every listed player was read: the head replay is not restricted"
    _scratch_equals_stored()


def test_a_replay_that_changes_no_fact_writes_no_championship_row(monkeypatch):
    # Stored points are compared with the new ones in whole cents: equal rows are left alone. The stored rows
    # come from a first replay's bulk write, so the comparison is not checked against its own writes.
    from django.db import transaction

    from championship import services as championship
    from championship.models import ChampionshipResult, ChampionshipTotal
    from ratings.services import ratings_replay

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True))
    ChampionshipResult.objects.all().delete()
    ChampionshipTotal.objects.all().delete()
    system = RatingSystem.objects.get(code="adlg")
    replay_from_scratch(system=system)
    assert ChampionshipResult.objects.count() > 10 and ChampionshipTotal.objects.count() > 5
    written = []
    write = championship.championship_write
    monkeypatch.setattr(championship, "championship_write",
                        lambda *, system, writes: written.append(writes) or write(system=system, writes=writes))
    stored = derived_state()
    with transaction.atomic():
        summary = ratings_replay(system=system, since=date(2024, 7, 1))  # Summer Cup replayed, Spring Clash kept
    assert summary.since == date(2024, 7, 1)
    assert len(written) == 1 and not written[0].bulk
    assert written[0].results == ([], [], []) and written[0].totals == ([], [], [])
    assert derived_state() == stored
