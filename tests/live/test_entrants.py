"""The day's players (PAIRING.md §6, decisions of 2026-11-26) and the start of a live run (§7), as services: each
failure of a real day's report that is theirs reproduced first, then what the referee may do and what is refused."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from players.models import AuditEntry
from rules.rulesets import SPARE_ID
from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import (
    NewEntrant,
    entrant_add,
    entrant_edit,
    entrant_move,
    entrant_remove,
    entrant_withdraw,
    entrants_check_in,
)
from tournaments.live.pools import key_of, pool_standings, pool_state
from tournaments.live.publication import live_publish, live_workbook
from tournaments.live.refusals import LiveRefused
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.selectors import live_view
from tournaments.live.start import TournamentDates, live_begin, live_cancel, live_start_calendar
from tournaments.models import Announcement, LiveEntrant, LiveTable, LiveTournament, Registration, Tournament

pytestmark = pytest.mark.django_db

TODAY = date(2026, 11, 21)  # the helpers' tournament day


def _codes(refused: pytest.ExceptionInfo) -> list[str]:
    return [code for code, _ in refused.value.notices]


def _sheet_players(live) -> list:
    import io

    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(live_workbook(live)), read_only=True)["Players"]
    return [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]


def _play_all(live, rng, *, pool="A"):
    for number in range(1, live.tournament.rounds + 1):
        play_round(live, number, rng, pool=pool)


# --- failure 1: a late arrival in a pool with the spare


def test_a_late_arrival_in_a_pool_with_the_spare_has_no_game_in_the_round_missed_and_the_tournament_publishes():
    """A real day's failure: five players (the spare plays in round 1), a sixth arrives after round 1. He has no
    game in round 1 (no forfeit, no game against the spare), plays from round 2, and the publication is accepted
    (it refused "Player 99 plays two games")."""
    live = live_tournament(federation_players(5))
    rng = random.Random(5)
    play_round(live, 1, rng)
    late = entrant_add(live, NewEntrant(player=federation_players(1, first_id=2901)[0].pk))
    assert late.joined_round == 2 and late.present
    assert not LiveTable.objects.filter(a=late).exists() and not LiveTable.objects.filter(b=late).exists()
    round_one = LiveTable.objects.filter(round__live=live, round__number=1)
    assert round_one.filter(b__isnull=True).count() == 1  # the spare's one game
    play_round(live, 2, rng)
    assert LiveTable.objects.filter(round__number=2).filter(a=late).exists() or \
        LiveTable.objects.filter(round__number=2, b=late).exists()
    assert not LiveTable.objects.filter(round__number=2, b__isnull=True).exists()  # six players: no spare
    play_round(live, 3, rng)
    rows = {r.player: r for r in pool_standings(pool_state(live, "A"))}
    assert rows[key_of(late)].games == 2
    outcome = live_publish(live)
    assert outcome.ok, outcome.report.as_dict()
    assert Registration.objects.filter(tournament_id=live.pk).exclude(player_id=SPARE_ID).count() == 6


def test_a_late_new_player_is_published_with_the_games_played_only():
    live = live_tournament(federation_players(6))
    rng = random.Random(8)
    play_round(live, 1, rng)
    late = entrant_add(live, NewEntrant(last_name="Tardif", first_name="Paul", country="FR"))
    assert late.joined_round == 2
    play_round(live, 2, rng)
    play_round(live, 3, rng)
    assert live_publish(live).ok


# --- failure 2: pools and hats


def test_players_found_by_name_go_into_the_pool_and_hat_the_referee_chose_and_two_hats_draw_them():
    players = federation_players(8)
    live = live_tournament([])
    for n, player in enumerate(players):
        entrant_add(live, NewEntrant(player=player.pk, pool="A" if n < 4 else "B", hat=1 + n % 2))
    assert sorted(live.entrants.filter(pool="B").values_list("player_id", flat=True)) == \
        [p.pk for p in players[4:]]
    assert list(Registration.objects.filter(tournament_id=live.pk, player=players[5])
                .values_list("pool", flat=True)) == ["B"]
    round_ = round_pair(live, pool="A", method="hats", seed=4)
    for table in round_.tables.select_related("a", "b"):
        assert {table.a.hat, table.b.hat} == {1, 2}
    assert set(live.rounds.values_list("pool", flat=True)) == {"A"}
    round_b = round_pair(live, pool="B", method="draw", seed=4)
    assert {t.a.pool for t in round_b.tables.select_related("a")} == {"B"}


def test_an_entrant_moves_between_pools_and_hats_until_round_one_of_those_pools_is_published():
    players = federation_players(8)
    live = live_tournament(players[:4])
    for player in players[4:]:
        entrant_add(live, NewEntrant(player=player.pk, pool="B"))
    mover = live.entrants.get(player=players[0])
    round_pair(live, pool="A", method="draw", seed=1)  # a proposal: dropped by the move
    entrant_move(live, mover, pool="B", hat=2)
    mover.refresh_from_db()
    assert (mover.pool, mover.hat) == ("B", 2)
    assert not live.rounds.filter(pool="A").exists()
    assert Registration.objects.get(tournament_id=live.pk, player=players[0]).pool == "B"
    entrant_move(live, mover, hat=None)
    mover.refresh_from_db()
    assert (mover.pool, mover.hat) == ("B", None)
    round_publish(round_pair(live, pool="B", method="draw", seed=1))
    with pytest.raises(LiveRefused) as refused:
        entrant_move(live, mover, pool="A")
    assert _codes(refused) == ["round_one_published"]
    other = live.entrants.get(player=players[1])
    with pytest.raises(LiveRefused) as refused:
        entrant_move(live, other, pool="B")  # into a pool whose round 1 is published
    assert _codes(refused) == ["round_one_published"]
    with pytest.raises(LiveRefused) as refused:
        entrant_move(live, other, hat=3)
    assert _codes(refused) == ["hat_invalid"]
    assert AuditEntry.objects.filter(action="live_move_player").count() == 2


# --- failure 3: a player added by mistake


def test_a_player_added_by_mistake_is_removed_and_appears_nowhere():
    """A real day's failure: withdrawn, he stayed ranked with 0 points and counted in everyone's championship N."""
    players = federation_players(7)
    live = live_tournament(players[:6])
    mistake = entrant_add(live, NewEntrant(player=players[6].pk))
    round_pair(live, method="elo-levels", seed=3)  # a proposal with him in it
    entrant_remove(live, mistake)
    assert not LiveEntrant.objects.filter(pk=mistake.pk).exists()
    assert not Registration.objects.filter(tournament_id=live.pk, player=players[6]).exists()
    assert not live.rounds.exists()  # the proposal that paired him went
    _play_all(live, random.Random(3))
    assert players[6].pk not in {line.key for pool in live_view(live).pools for lines in pool.standings.values()
                                 for line in lines}
    assert players[6].pk not in _sheet_players(live)
    assert live_publish(live).ok
    assert not Registration.objects.filter(tournament_id=live.pk, player=players[6]).exists()
    assert AuditEntry.objects.filter(action="live_remove_player").count() == 1


def test_a_player_with_a_game_is_not_removed_but_withdrawn():
    players = federation_players(6)
    live = live_tournament(players)
    play_round(live, 1, random.Random(1))
    entrant = live.entrants.get(player=players[0])
    with pytest.raises(LiveRefused) as refused:
        entrant_remove(live, entrant)
    assert _codes(refused) == ["remove_has_game"]
    assert "withdraw instead" in refused.value.messages("en")[0]
    entrant_withdraw(live, entrant, from_round=2)
    assert LiveEntrant.objects.filter(pk=entrant.pk).exists()


def test_a_late_player_not_yet_paired_can_still_be_removed():
    live = live_tournament(federation_players(6))
    play_round(live, 1, random.Random(1))
    late = entrant_add(live, NewEntrant(player=federation_players(1, first_id=2950)[0].pk))
    round_pair(live)  # round 2 proposed, with him
    entrant_remove(live, late)
    assert not live.rounds.filter(number=2).exists()


# --- checking in


def test_players_registered_in_the_calendar_start_absent_and_round_one_pairs_only_those_checked_in():
    players = federation_players(7)
    tournament = factories.tournament("Open du Pointage", start=TODAY, end=TODAY, rounds=3,
                                      status=Tournament.REGISTERED)
    for player in players:
        Registration.objects.create(tournament=tournament, player=player)
    live = live_start_calendar(tournament, today=TODAY)
    assert not live.entrants.filter(present=True).exists()
    with pytest.raises(LiveRefused):
        round_pair(live, method="draw", seed=1)  # no one present: too few players
    entrants_check_in(live, list(live.entrants.exclude(player=players[6])))
    walk_in = entrant_add(live, NewEntrant(player=federation_players(1, first_id=2960)[0].pk))
    assert walk_in.present  # added on the day: here
    round_ = round_pair(live, method="draw", seed=1)
    tables = list(round_.tables.select_related("a", "b"))
    paired = {key_of(t.a) for t in tables} | {key_of(t.b) for t in tables if t.b}
    assert len(paired) == 7 and walk_in.player_id in paired and players[6].pk not in paired
    assert sum(1 for t in tables if t.b is None) == 1  # 7 present: the spare plays
    absent = live.entrants.get(player=players[6])
    assert absent.present is False
    assert players[6].pk not in {row.player for row in pool_standings(pool_state(live, "A"))}


def test_a_player_checked_in_after_round_one_joins_from_the_next_round():
    players = federation_players(7)
    live = live_tournament(players[:6])
    sleeper = entrant_add(live, NewEntrant(player=players[6].pk, present=False))
    play_round(live, 1, random.Random(2))
    with pytest.raises(LiveRefused) as refused:
        entrants_check_in(live, [live.entrants.get(player=players[0])], present=False)
    assert _codes(refused) == ["absent_after_round_one"]
    changed = entrants_check_in(live, [sleeper])
    assert [(e.pk, e.joined_round) for e in changed] == [(sleeper.pk, 2)]
    round_two = round_pair(live)
    assert round_two.tables.filter(a=sleeper).exists() or round_two.tables.filter(b=sleeper).exists()
    assert not LiveTable.objects.filter(round__number=1, a=sleeper).exists()


def test_all_present_in_one_tap_and_absent_players_are_left_out_of_the_publication():
    players = federation_players(7)
    live = live_tournament([])
    for player in players:
        entrant_add(live, NewEntrant(player=player.pk, present=False))
    entrants_check_in(live, list(live.entrants.exclude(player=players[0])))
    assert live.entrants.filter(present=True).count() == 6
    assert AuditEntry.objects.filter(action="live_check_in").count() == 1  # one tap, one entry
    _play_all(live, random.Random(4))
    assert players[0].pk not in _sheet_players(live)
    assert live_publish(live).ok
    assert Registration.objects.filter(tournament_id=live.pk).count() == 6  # the players the sheet ranks


# --- failure 4: what is typed for a new player, the dates


@pytest.mark.parametrize(("field", "value", "code"), [
    ("country", "UK", "unknown_country"), ("country", "F", "unknown_country"), ("last_name", "", "name_required"),
    ("first_name", "", "first_name_required"), ("last_name", "=HYPERLINK(1)", "formula_text"),
    ("first_name", "x" * 81, "text_too_long"), ("club", "+Club", "formula_text"), ("club", "Nowhere", "club_unknown"),
])
def test_a_new_players_texts_are_checked_as_the_sheet_checks_them_when_typed(field, value, code):
    live = live_tournament(federation_players(4))
    factories.club("Les Aigles")
    new = {"last_name": "Nouveau", "first_name": "Jean", "club": "", "country": "FR", field: value}
    with pytest.raises(LiveRefused) as refused:
        entrant_add(live, NewEntrant(**new))
    assert [(c, p.get("input")) for c, p in refused.value.notices] == [(code, field)]
    assert live.entrants.count() == 4


def test_a_wrong_country_is_told_in_the_sheets_words_and_the_right_one_accepted():
    live = live_tournament(federation_players(4))
    with pytest.raises(LiveRefused) as refused:
        entrant_add(live, NewEntrant(last_name="Smith", first_name="John", country="UK"))
    assert "the United Kingdom is GB" in refused.value.messages("en")[0]
    assert "le Royaume-Uni est GB" in refused.value.messages("fr")[0]
    entrant = entrant_add(live, NewEntrant(last_name=" Smith ", first_name="John", country="gb"))
    assert (entrant.last_name, entrant.country) == ("Smith", "GB")


def test_a_typed_club_is_the_federations_club_accents_aside_and_a_new_one_only_when_confirmed():
    live = live_tournament(federation_players(4))
    factories.club("Les Dragons de Saint-Étienne")
    entrant = entrant_add(live, NewEntrant(last_name="Nouveau", first_name="Jean",
                                           club="les dragons de saint-etienne", country="FR"))
    assert entrant.club == "Les Dragons de Saint-Étienne"
    entrant = entrant_add(live, NewEntrant(last_name="Autre", first_name="Jean", club="Club Neuf", country="FR",
                                           new_club=True))
    assert entrant.club == "Club Neuf"


def test_a_new_entrants_names_club_and_country_are_corrected_until_publication():
    live = live_tournament(federation_players(4))
    entrant = entrant_add(live, NewEntrant(last_name="Smtih", first_name="Jon", country="FR"))
    with pytest.raises(LiveRefused) as refused:
        entrant_edit(live, entrant, last_name="Smith", first_name="John", club="", country="UK")
    assert _codes(refused) == ["unknown_country"]
    entrant_edit(live, entrant, last_name="Smith", first_name="John", club="", country="GB")
    entrant.refresh_from_db()
    assert (entrant.last_name, entrant.first_name, entrant.country) == ("Smith", "John", "GB")
    entry = AuditEntry.objects.get(action="live_edit_player")
    assert entry.changes["last_name"] == ["Smtih", "Smith"] and "club" not in entry.changes
    known = live.entrants.exclude(pk=entrant.pk).first()
    with pytest.raises(LiveRefused) as refused:
        entrant_edit(live, known, last_name="X", first_name="Y", club="", country="FR")
    assert _codes(refused) == ["not_new_player"]


def test_a_calendar_tournament_dated_in_the_future_is_not_run_live_before_its_dates_are_confirmed():
    """A real day's failure: dated in the future, it ran live and was refused at the end."""
    today = TODAY
    tournament = factories.tournament("Open du Futur", start=today + timedelta(days=30),
                                      end=today + timedelta(days=31), rounds=5, status=Tournament.REGISTERED)
    with pytest.raises(LiveRefused) as refused:
        live_start_calendar(tournament, today=today)
    assert _codes(refused) == ["dates_exclude_today"]
    assert not LiveTournament.objects.exists()
    with pytest.raises(LiveRefused) as refused:
        live_start_calendar(tournament, dates=TournamentDates(today + timedelta(days=1), today + timedelta(days=1), 5),
                            today=today)
    assert _codes(refused) == ["start_in_future"]
    with pytest.raises(LiveRefused) as refused:
        live_start_calendar(tournament, dates=TournamentDates(today, today - timedelta(days=1), 13), today=today)
    assert _codes(refused) == ["rounds_invalid", "end_before_start"]
    live = live_start_calendar(tournament, dates=TournamentDates(today, today, 4), today=today)
    tournament.refresh_from_db()
    assert (tournament.start_date, tournament.end_date, tournament.rounds) == (today, today, 4)
    entry = AuditEntry.objects.get(action="tournament_dates")
    assert entry.changes["rounds"] == ["5", "4"]
    assert live.pk == tournament.pk


def test_dates_corrected_at_the_start_move_the_list_deadline_by_as_much_and_audit_it():
    """PAIRING.md §7, decision of 2026-12-02: the deadline keeps its distance to the first day."""
    start = TODAY + timedelta(days=30)
    tournament = factories.tournament("Open du Report", start=start, end=start + timedelta(days=1), rounds=5,
                                      status=Tournament.REGISTERED)
    Announcement.objects.create(tournament=tournament, game_minutes=120, list_deadline=start - timedelta(days=7),
                                first_round="draw")
    live_start_calendar(tournament, dates=TournamentDates(TODAY, TODAY + timedelta(days=1), 5), today=TODAY)
    assert Announcement.objects.get(tournament=tournament).list_deadline == TODAY - timedelta(days=7)
    entry = AuditEntry.objects.get(action="tournament_dates")
    assert entry.changes["list_deadline"] == [str(start - timedelta(days=7)), str(TODAY - timedelta(days=7))]
    assert "deadline moved with the start" in entry.summary


def test_only_the_end_or_rounds_corrected_leave_the_list_deadline_where_it_was():
    tournament = factories.tournament("Open", start=TODAY, end=TODAY, rounds=5, status=Tournament.REGISTERED)
    Announcement.objects.create(tournament=tournament, game_minutes=120, list_deadline=TODAY - timedelta(days=5),
                                first_round="draw")
    live_start_calendar(tournament, dates=TournamentDates(TODAY, TODAY + timedelta(days=1), 4), today=TODAY)
    assert Announcement.objects.get(tournament=tournament).list_deadline == TODAY - timedelta(days=5)
    assert "list_deadline" not in AuditEntry.objects.get(action="tournament_dates").changes


def test_a_tournament_on_its_dates_starts_without_correcting_them():
    tournament = factories.tournament("Open", start=TODAY - timedelta(days=1), end=TODAY + timedelta(days=1),
                                      rounds=3, status=Tournament.REGISTERED)
    live_start_calendar(tournament, today=TODAY)
    assert not AuditEntry.objects.filter(action="tournament_dates").exists()


# --- failure 5: starting and cancelling


def test_a_tournament_with_results_on_the_site_is_not_run_live():
    """A real day's failure: "Run it live" on a rated tournament."""
    players = federation_players(4)
    rated = factories.rated_tournament(players, name="Rated Open").tournament
    for start in (lambda: live_begin(rated), lambda: live_start_calendar(rated, today=rated.start_date)):
        with pytest.raises(LiveRefused) as refused:
            start()
        assert _codes(refused) == ["results_on_site"]
    assert not LiveTournament.objects.exists()


def test_a_live_run_with_no_round_published_is_cancelled_and_is_a_calendar_tournament_again():
    players = federation_players(6)
    tournament = factories.tournament("Open", start=TODAY, end=TODAY, rounds=3, status=Tournament.REGISTERED)
    Registration.objects.create(tournament=tournament, player=players[0])
    live = live_start_calendar(tournament, today=TODAY)
    for player in players[1:]:
        entrant_add(live, NewEntrant(player=player.pk))
    round_pair(live, method="draw", seed=2)  # proposed, not published
    live_cancel(live)
    assert not LiveTournament.objects.filter(pk=tournament.pk).exists()
    assert list(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)) == \
        [players[0].pk]  # the calendar's stays, the run's go
    assert AuditEntry.objects.filter(action="live_cancel").count() == 1
    assert live_start_calendar(tournament, today=TODAY)  # it can be started again


def test_a_live_run_with_a_round_published_is_not_cancelled():
    live = live_tournament(federation_players(4))
    round_publish(round_pair(live, method="draw", seed=2))
    with pytest.raises(LiveRefused) as refused:
        live_cancel(live)
    assert _codes(refused) == ["cannot_cancel"]
    assert LiveTournament.objects.filter(pk=live.pk).exists()


def test_dates_a_typed_year_apart_are_refused_at_the_start():
    tournament = factories.tournament("Open", start=TODAY + timedelta(days=3), end=TODAY + timedelta(days=3),
                                      rounds=3, status=Tournament.REGISTERED)
    with pytest.raises(LiveRefused) as refused:
        live_start_calendar(tournament, dates=TournamentDates(TODAY, date(2062, 11, 21), 3), today=TODAY)
    assert _codes(refused) == ["dates_too_far_apart"]
    assert "check the year" in refused.value.messages("en")[0]


def test_an_excluded_player_registered_in_the_calendar_does_not_block_the_start():
    players = federation_players(3)
    excluded = factories.player("Exclu", "Paul", id=4444, excluded=True)
    tournament = factories.tournament("Open", start=TODAY, end=TODAY, rounds=3, status=Tournament.REGISTERED)
    for player in [*players, excluded]:
        Registration.objects.create(tournament=tournament, player=player)
    live = live_start_calendar(tournament, today=TODAY)
    assert sorted(live.entrants.values_list("player_id", flat=True)) == [p.pk for p in players]


def test_a_pool_whose_players_never_came_does_not_block_the_publication():
    players = federation_players(7)
    live = live_tournament(players[:6])
    entrant_add(live, NewEntrant(player=players[6].pk, pool="B", present=False))
    _play_all(live, random.Random(6))
    assert players[6].pk not in _sheet_players(live)
    assert live_publish(live).ok
