"""The announcement (charter App. 1 §12): what it must say, the charter's checks, who edits it and until when."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from players.models import AuditEntry
from rules.pairing import ROUND_ONE_METHODS
from rules.schedule import day_end, schedule_read
from rules.words import Forbidden
from tests.entries.conftest import announce
from tests.governance.factories import make_player, make_tournament
from tournaments.before.announcement import AnnouncementRefused
from tournaments.before.conditions import announcement_failures, condition_message
from tournaments.before.entries import entry_register
from tournaments.models import Announcement, Entry

START = date(2027, 5, 15)


def failures(**overrides):
    values = {"start": START, "army_points": 200, "game_minutes_announced": 150, "duration_note": "",
              "list_deadline": START - timedelta(days=7), "first_round": "draw", "first_round_note": "",
              "pools": [("A", "Antiquity")], "checker_playing": None}
    values.update(overrides)
    return [code for code, _params in announcement_failures(**values)]


# --- the pure checks ---------------------------------------------------------------------------------------------


def test_the_lists_deadline_is_at_least_one_week_before_the_first_day():
    assert failures(list_deadline=START - timedelta(days=7)) == []
    assert failures(list_deadline=START - timedelta(days=30)) == []
    assert failures(list_deadline=START - timedelta(days=6)) == ["deadline_too_late"]
    assert failures(list_deadline=START) == ["deadline_too_late"]


def test_a_duration_other_than_the_charters_must_be_explained():
    assert failures(army_points=200, game_minutes_announced=150) == []
    assert failures(army_points=100, game_minutes_announced=75) == []
    assert failures(army_points=300, game_minutes_announced=210) == []
    assert failures(army_points=200, game_minutes_announced=120) == ["duration_unexplained"]
    assert failures(army_points=200, game_minutes_announced=120, duration_note="Short days in winter") == []
    assert failures(army_points=None, game_minutes_announced=120) == []  # no charter duration to differ from


@pytest.mark.parametrize("method", ROUND_ONE_METHODS)
def test_the_first_game_is_paired_by_one_of_the_charters_methods(method):
    note = "Historical enemies" if method == "manual" else ""
    assert failures(first_round=method, first_round_note=note) == []


def test_another_method_or_an_unexplained_own_pairing_is_refused():
    assert failures(first_round="swiss") == ["first_round_unknown"]
    assert failures(first_round="") == ["first_round_unknown"]
    assert failures(first_round="manual") == ["first_round_unexplained"]


def test_each_pool_has_a_name_of_its_own_and_a_theme():
    assert failures(pools=[("A", "Antiquity"), ("B", "Middle Ages")]) == []
    assert failures(pools=[("A", "")]) == ["pool_without_theme"]
    assert failures(pools=[("A", "Antiquity"), ("a", "Middle Ages")]) == ["pool_name"]


def test_a_list_checker_entered_to_play_is_refused():
    assert failures(checker_playing="Paul Martin") == ["checker_plays"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_failure_is_worded_in_both_languages(language):
    params = {"deadline": "2027-05-10", "start": "2027-05-15", "latest": "2027-05-08", "days": 7, "points": 200,
              "charter": "2 h 30", "minutes": "2 h", "method": "x", "pool": "A", "name": "Paul Martin"}
    for code in ("deadline_too_late", "duration_unexplained", "first_round_unknown", "first_round_unexplained",
                 "pool_name", "pool_without_theme", "checker_plays", "announcement_started"):
        assert condition_message(code, params, language)
    assert "\u00a0:" in condition_message("checker_plays", params, "fr")


# --- the service -------------------------------------------------------------------------------------------------


def test_the_referee_announces_the_tournament_and_it_is_audited(tournament, referee, checker):
    announcement = announce(tournament, referee, list_checker=checker, game_minutes=150)
    assert announcement.list_checker == checker
    assert [p.theme for p in announcement.pool_themes.all()] == ["Antiquity"]
    entry = AuditEntry.objects.get(action="announcement_save")
    assert entry.user == referee and entry.object_id == str(tournament.pk)
    assert entry.changes["game_minutes"] == [None, 150]
    announce(tournament, referee, list_checker=checker, game_minutes=120, duration_note="Winter")
    changed = AuditEntry.objects.filter(action="announcement_save").order_by("-id").first()
    assert changed.changes["game_minutes"] == [150, 120] and changed.changes["duration_note"] == ["", "Winter"]


def test_a_refused_announcement_changes_nothing(tournament, referee):
    with pytest.raises(AnnouncementRefused) as refused:
        announce(tournament, referee, list_deadline=tournament.start_date - timedelta(days=3))
    assert [code for code, _ in refused.value.failures] == ["deadline_too_late"]
    assert not Announcement.objects.exists() and not AuditEntry.objects.filter(action="announcement_save").exists()


def test_the_announcement_is_edited_until_the_first_day_only(tournament, referee):
    announce(tournament, referee)
    with pytest.raises(AnnouncementRefused) as refused:
        announce(tournament, referee, game_minutes=120, duration_note="x", today=tournament.start_date)
    assert refused.value.failures[0][0] == "announcement_started"
    assert Announcement.objects.get().game_minutes == 150


def test_only_the_referees_and_the_board_edit_the_announcement(tournament, board, other_referee, player_user):
    assert announce(tournament, board).tournament == tournament
    for user in (other_referee, player_user):
        with pytest.raises(Forbidden):
            announce(tournament, user)


def test_an_entrant_cannot_be_named_list_checker(announced, referee, checker, today):
    make_player("Vérif", "Ian", user=checker)
    entry_register(user=checker, tournament=announced, pool="A", as_spare=True)  # the spare: allowed
    announce(announced, referee, list_checker=checker)
    Entry.objects.filter(player__user=checker).update(as_spare=False)  # entered to play, as before the check
    with pytest.raises(AnnouncementRefused) as refused:
        announce(announced, referee, list_checker=checker)
    assert [code for code, _ in refused.value.failures] == ["checker_plays"]


# --- the pages ---------------------------------------------------------------------------------------------------


def _post_data(tournament, **overrides):
    data = {"venue": "", "game_minutes": "150", "duration_note": "",
            "list_deadline": (tournament.start_date - timedelta(days=10)).isoformat(), "list_checker": "checker",
            "lists_published": "on", "first_round": "elo-levels", "first_round_note": "",
            "pool-TOTAL_FORMS": "1", "pool-INITIAL_FORMS": "1", "pool-MIN_NUM_FORMS": "1",
            "pool-MAX_NUM_FORMS": "1", "pool-0-name": "A", "pool-0-theme": "Biblical", "pool-0-allowed_armies": ""}
    data.update(overrides)
    return data


def test_the_referee_saves_the_announcement_on_their_page(client, tournament, referee, checker):
    client.force_login(referee)
    url = f"/board/tournaments/{tournament.pk}/announcement/"
    assert client.get(url).status_code == 200
    response = client.post(url, _post_data(tournament))
    assert response.status_code == 302
    announcement = Announcement.objects.get()
    assert (announcement.first_round, announcement.list_checker, announcement.pool_themes.get().theme) == (
        "elo-levels", checker, "Biblical")


def test_a_deadline_too_late_is_refused_beside_its_field_and_changes_nothing(client, tournament, referee, checker):
    client.force_login(referee)
    late = (tournament.start_date - timedelta(days=2)).isoformat()
    response = client.post(f"/board/tournaments/{tournament.pk}/announcement/", _post_data(tournament,
                                                                                          list_deadline=late))
    assert response.status_code == 400
    assert "at least 7 days before the first day" in response.content.decode()
    assert not Announcement.objects.exists()


def test_an_unknown_list_checker_is_refused_beside_its_field(client, tournament, referee):
    client.force_login(referee)
    response = client.post(f"/board/tournaments/{tournament.pk}/announcement/",
                           _post_data(tournament, list_checker="nobody-here"))
    assert response.status_code == 400 and "No active account has this user name." in response.content.decode()


def test_a_pool_count_sent_other_than_the_tournaments_is_refused(client, tournament, referee, checker):
    client.force_login(referee)
    response = client.post(f"/board/tournaments/{tournament.pk}/announcement/",
                           _post_data(tournament, **{"pool-TOTAL_FORMS": "0"}))
    assert response.status_code == 400 and not Announcement.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "player", "other_referee"])
def test_nobody_else_opens_the_announcement_page(client, tournament, who, player_user, other_referee):
    if who != "anonymous":
        client.force_login(player_user if who == "player" else other_referee)
    response = client.get(f"/board/tournaments/{tournament.pk}/announcement/")
    assert response.status_code == (302 if who == "anonymous" else 403)


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Announcement", "Date and place", "Salle des fêtes", "Number of games", "3 games",
            "Duration of the games", "2\u00a0h\u00a030", "the charter's duration", "200 points individual",
            "Pool A:", "Antiquity", "Allowed armies and allies:", "Carthaginian", "Referee", "Ref Erée",
            "checked by Ian Vérif", "Lists published before the start", "yes: all together",
            "Pairing of the first game", "Elo levels"]),
    ("fr", ["Annonce", "Date et lieu", "Nombre de parties", "3 parties", "Durée des parties", "2\u00a0h\u00a030",
            "Poule A\u00a0:", "Armées et alliés autorisés\u00a0:", "Arbitre", "vérifiées par Ian Vérif",
            "Listes publiées avant le début", "Appariement de la première partie", "Niveaux Elo"]),
])
def test_the_tournaments_page_gives_every_item_of_the_announcement(client, tournament, referee, checker, language,
                                                                   words):
    make_player("Vérif", "Ian", user=checker)
    tournament.referee_name = "Ref Erée"
    tournament.save()
    announce(tournament, referee, list_checker=checker, first_round="elo-levels",
             pools=[{"name": "A", "theme": "Antiquity", "allowed_armies": "Carthaginian, Roman"}])
    client.cookies["django_language"] = language
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    missing = [word for word in words if word not in page]
    assert not missing, missing


def test_an_old_tournament_without_an_announcement_shows_none(client, db):
    old = make_tournament("Vieux tournoi", start=date(2020, 1, 1))
    page = client.get(f"/tournaments/{old.pk}/").content.decode()
    assert 'id="announcement"' not in page and 'id="entries"' not in page


@pytest.mark.parametrize("linked", [True, False], ids=["linked-to-a-player", "named-account"])
def test_the_announcement_names_the_checker_never_their_username_or_address(client, tournament, referee,
                                                                          django_user_model, linked):
    """The list checker's account may be named by an email address: the public page shows the person's name (the
    linked player's, else the account's first and last names), never the username nor the address."""
    checker = django_user_model.objects.create_user("claire.verif@example.org", email="claire.verif@example.org",
                                                    password="checker-pass-123", first_name="Claire",
                                                    last_name="Compte")
    if linked:
        make_player("Contrôle", "Claire", user=checker)
    announce(tournament, referee, list_checker=checker)
    for language, said in [("en", "checked by "), ("fr", "vérifiées par ")]:
        client.cookies["django_language"] = language
        page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "claire.verif" not in page and "example.org" not in page
        assert said + ("Claire Contrôle" if linked else "Claire Compte") in page


def test_a_checker_without_any_name_is_called_the_list_checker(client, tournament, referee, django_user_model):
    checker = django_user_model.objects.create_user("anon@example.org", email="anon@example.org",
                                                    password="checker-pass-123")
    announce(tournament, referee, list_checker=checker)
    client.cookies["django_language"] = "en"
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "anon@example.org" not in page and "checked by the list checker" in page
    client.cookies["django_language"] = "fr"
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "anon@example.org" not in page and "vérifiées par le vérificateur des listes" in page


def test_a_referee_whose_account_is_an_email_is_never_shown_by_it(db):
    from django.contrib.auth import get_user_model

    from players.selectors import person_name

    user = get_user_model().objects.create_user("ref@example.org", "ref@example.org", "x")
    assert person_name(user) == ""
    user.first_name, user.last_name = "Anne", "Arbitre"
    assert person_name(user) == "Anne Arbitre"


# --- the start time and the day's schedule -----------------------------------------------------------------------


def test_a_schedule_gives_each_line_a_time_in_the_order_of_the_day():
    schedule = "9:30 Round 1\n12h30 Lunch\n\n13h Round 2\n19:00 — Prize-giving"
    assert failures(start_time=time(9), schedule=schedule) == []
    lines, problems = schedule_read(schedule)
    assert [str(line) for line in lines] == ["09:30 Round 1", "12:30 Lunch", "13:00 Round 2", "19:00 Prize-giving"]
    assert day_end(start=time(9), text=schedule) == time(19)


@pytest.mark.parametrize(("start", "schedule", "codes"), [
    (time(9), "Round 1 at 9:30", ["schedule_line"]),
    (time(9), "25:00 Round 1", ["schedule_line"]),
    (time(9), "9:30", ["schedule_line"]),
    (time(9), "9:30 Round 1\n9:00 Lunch", ["schedule_order"]),
    (time(9), "8:30 Welcome", ["schedule_before_start"]),
    (None, "9:30 Round 1", ["schedule_without_start"]),
    (time(9), "\n".join(f"{9 + n // 6}:{n % 6}0 x" for n in range(31)), ["schedule_too_long"]),
])
def test_a_schedule_that_says_no_time_or_goes_back_in_time_is_refused(start, schedule, codes):
    assert failures(start_time=start, schedule=schedule) == codes


def test_a_start_time_alone_is_enough_and_the_day_then_has_no_known_end():
    assert failures(start_time=time(9), schedule="") == []
    assert day_end(start=time(9), text="") is None


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_schedule_failure_is_worded_in_both_languages(language):
    params = {"limit": 30, "line": 2, "text": "x", "time": "09:00", "before": "09:30", "start": "09:30"}
    for code in ("schedule_too_long", "schedule_line", "schedule_order", "schedule_without_start",
                 "schedule_before_start"):
        assert condition_message(code, params, language)


def test_the_referee_gives_the_start_time_and_schedule_on_their_page(client, tournament, referee, checker):
    client.force_login(referee)
    url = f"/board/tournaments/{tournament.pk}/announcement/"
    assert 'name="start_time"' in client.get(url).content.decode()
    response = client.post(url, _post_data(tournament, start_time="09:00",
                                           schedule="9:30 Round 1\r\n12:30 Lunch\r\n19:00 Prize-giving"))
    assert response.status_code == 302
    announcement = Announcement.objects.get()
    assert announcement.start_time == time(9)
    assert announcement.schedule == "9:30 Round 1\n12:30 Lunch\n19:00 Prize-giving"
    assert "09:00" in client.get(url).content.decode()  # shown again to be changed


def test_a_schedule_out_of_order_is_refused_beside_its_field(client, tournament, referee, checker):
    client.force_login(referee)
    response = client.post(f"/board/tournaments/{tournament.pk}/announcement/",
                           _post_data(tournament, start_time="09:00", schedule="13:00 Round 2\n9:30 Round 1"))
    assert response.status_code == 400
    assert "give the lines in the order of the day" in response.content.decode()
    assert not Announcement.objects.exists()


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["from 9 a.m.", "The day's schedule", "09:30 Round 1", "12:30 Lunch"]),
    ("fr", ["à partir de 09:00", "Programme de la journée", "09:30 Round 1", "12:30 Lunch"]),
])
def test_the_tournaments_page_gives_the_start_time_and_the_schedule(client, tournament, referee, language, words):
    announce(tournament, referee, start_time=time(9), schedule="09:30 Round 1\n12:30 Lunch")
    client.cookies["django_language"] = language
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    missing = [word for word in words if word not in page]
    assert not missing, missing
