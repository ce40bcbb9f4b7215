"""Registering a tournament (charter App. 1 §1-2): two months' notice, two per club and year of different formats."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players import permissions
from players.models import AuditEntry, Country
from ratings.models import RatingSystem
from rules.words import Forbidden
from tests.governance.factories import make_club, make_tournament
from tournaments.before.conditions import (
    CharterRefused,
    add_months,
    condition_message,
    format_key,
    new_tournament_failures,
)
from tournaments.before.new_tournament import tournament_register
from tournaments.models import Tournament

# --- the pure rules ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("announced", "earliest"), [
    (date(2025, 1, 15), date(2025, 3, 15)),
    (date(2025, 1, 31), date(2025, 3, 31)),
    (date(2024, 12, 31), date(2025, 2, 28)),
    (date(2023, 12, 31), date(2024, 2, 29)),
    (date(2025, 11, 30), date(2026, 1, 30)),
])
def test_it_asks_for_two_months_notice(announced, earliest):
    assert add_months(announced, 2) == earliest
    ok = new_tournament_failures(start=earliest, announced_on=announced, club_id=None, format="individual-200",
                               year_tournaments_of_club=[])
    late = new_tournament_failures(start=earliest - timedelta(days=1), announced_on=announced, club_id=None,
                                 format="individual-200", year_tournaments_of_club=[])
    assert ok == []
    assert [code for code, _ in late] == ["announced_too_late"]
    assert late[0][1]["earliest"] == earliest.isoformat()


@pytest.mark.parametrize(("others", "codes"), [
    ([], []),
    ([(1, "team-200")], []),
    ([(1, "individual-200")], ["club_same_format"]),
    ([(1, "team-200"), (2, "individual-300")], ["club_year_full"]),
    ([(1, "team-200"), (2, "individual-200")], ["club_year_full", "club_same_format"]),
])
def test_it_allows_two_tournaments_per_club_and_year_of_different_formats(others, codes):
    failures = new_tournament_failures(start=date(2025, 9, 1), announced_on=date(2025, 1, 1), club_id=7,
                                     format="individual-200", year_tournaments_of_club=others)
    assert [code for code, _ in failures] == codes


def test_it_does_not_limit_a_tournament_without_club():
    failures = new_tournament_failures(start=date(2025, 9, 1), announced_on=date(2025, 1, 1), club_id=None,
                                     format="individual-200", year_tournaments_of_club=[(1, "individual-200")] * 3)
    assert failures == []


def test_it_reports_every_failure_at_once():
    failures = new_tournament_failures(start=date(2025, 2, 1), announced_on=date(2025, 1, 1), club_id=3,
                                     format="team-200", year_tournaments_of_club=[(4, "team-200"), (5, "x")])
    assert [code for code, _ in failures] == ["announced_too_late", "club_year_full", "club_same_format"]


@pytest.mark.parametrize(("text", "points", "key"), [
    ("200 points individual", None, "individual-200"),
    ("individual", 200, "individual-200"),
    ("Équipes 300 pts", None, "team-300"),
    ("doubles", 200, "team-200"),
    ("200 points individual", 300, "individual-300"),
    ("", None, "individual"),
])
def test_it_reads_the_format_key(text, points, key):
    assert format_key(text, points) == key


@pytest.mark.parametrize("code", ["announced_too_late", "club_year_full", "club_same_format"])
def test_it_explains_each_failure_in_english_and_french(code):
    failures = new_tournament_failures(start=date(2025, 2, 1), announced_on=date(2025, 1, 1), club_id=3,
                                     format="team-200", year_tournaments_of_club=[(4, "team-200"), (5, "x")])
    params = dict(failures)[code]
    english, french = condition_message(code, params, "en"), condition_message(code, params, "fr-FR")
    assert english != french
    assert "technical board" in english and "bureau technique" in french
    assert condition_message(code, params, None) == english


def test_it_names_the_dates_in_the_message():
    (code, params), = new_tournament_failures(start=date(2025, 2, 1), announced_on=date(2025, 1, 1), club_id=None,
                                            format="x", year_tournaments_of_club=[])
    assert "2025-03-01" in condition_message(code, params, "en")
    assert "2025-03-01" in condition_message(code, params, "fr")


# --- the service -------------------------------------------------------------------------------------------------


def _data(**overrides):
    start = timezone.localdate() + timedelta(days=90)
    data = {
        "name": "Tournoi d'automne", "system": RatingSystem.objects.get(code="adlg"), "start_date": start,
        "end_date": start + timedelta(days=1), "city": "Lyon", "country": Country.objects.get(code="FR"),
        "organising_club": None, "format": "200 points individual", "army_points": 200, "pools": 1, "rounds": 5,
        "official": True, "worlds": False, "referees": [],
    }
    return {**data, **overrides}


@pytest.fixture
def organiser(referee, tournament):
    """The `referee` persona, who runs `tournament` and so may register others."""
    return referee


@pytest.mark.django_db
def test_it_registers_a_tournament_for_its_referees(organiser, other_referee):
    created = tournament_register(user=organiser, data=_data(referees=[other_referee]))
    assert created.status == Tournament.REGISTERED
    assert created.announced_on == timezone.localdate()
    assert set(created.referees.all()) == {organiser, other_referee}
    assert not created.exception_approved
    assert AuditEntry.objects.get(action="tournament_register").object_id == str(created.pk)


@pytest.mark.django_db
def test_it_refuses_a_late_announcement(organiser):
    with pytest.raises(CharterRefused) as refused:
        tournament_register(user=organiser, data=_data(start_date=timezone.localdate() + timedelta(days=20),
                                                       end_date=timezone.localdate() + timedelta(days=21)))
    assert [code for code, _ in refused.value.failures] == ["announced_too_late"]
    assert not Tournament.objects.filter(name="Tournoi d'automne").exists()


@pytest.mark.django_db
def test_it_counts_the_clubs_official_tournaments_of_the_same_year(organiser):
    club = make_club("Les Hoplites")
    start = timezone.localdate() + timedelta(days=90)
    make_tournament("Premier", start=start.replace(day=1), club=club, fmt="200 points individual")
    make_tournament("Amical", start=start.replace(day=1), club=club, official=False, fmt="200 points individual")
    with pytest.raises(CharterRefused) as refused:
        tournament_register(user=organiser, data=_data(organising_club=club))
    assert [code for code, _ in refused.value.failures] == ["club_same_format"]
    # Not official: the club's limit does not apply.
    assert tournament_register(user=organiser, data=_data(organising_club=club, official=False))
    # A different format is fine.
    assert tournament_register(user=organiser, data=_data(organising_club=club, format="300 points team",
                                                          army_points=300))


@pytest.mark.django_db
def test_it_lets_only_the_board_approve_an_exception(organiser, board):
    late = _data(start_date=timezone.localdate() + timedelta(days=7), end_date=timezone.localdate() + timedelta(days=8),
                 exception_approved=True, exception_reason="replaces a cancelled event")
    with pytest.raises(Forbidden):
        tournament_register(user=organiser, data=late)
    created = tournament_register(user=board, data={**late, "referees": [organiser]})
    assert created.exception_approved and created.exception_reason == "replaces a cancelled event"
    assert list(created.referees.all()) == [organiser]  # the board registers it for the referee


@pytest.mark.django_db
def test_it_refuses_a_player_or_a_stranger(player_user):
    with pytest.raises(Forbidden):
        tournament_register(user=player_user, data=_data())


# --- the pages ---------------------------------------------------------------------------------------------------


def _form(**overrides):
    start = timezone.localdate() + timedelta(days=90)
    form = {"name": "Tournoi d'automne", "system": "adlg", "start_date": start.isoformat(),
            "end_date": (start + timedelta(days=1)).isoformat(), "city": "Lyon", "country": "FR",
            "organising_club": "", "format": "individual", "army_points": "200", "pools": "1", "rounds": "5",
            "referees": "", "official": "on"}
    return {**form, **overrides}


@pytest.mark.django_db
def test_the_page_registers_a_tournament(client, organiser, other_referee, other_tournament):
    client.force_login(organiser)
    response = client.post(reverse("board:tournament_register"), _form(referees="other_referee"))
    assert response.status_code == 302
    created = Tournament.objects.get(name="Tournoi d'automne")
    assert created.format == "200 points individual"
    assert set(created.referees.all()) == {organiser, other_referee}


@pytest.mark.django_db
def test_the_page_shows_the_failures_and_registers_nothing(client, organiser):
    client.force_login(organiser)
    soon = timezone.localdate() + timedelta(days=10)
    response = client.post(reverse("board:tournament_register"),
                           _form(start_date=soon.isoformat(), end_date=soon.isoformat()))
    assert response.status_code == 200
    assert "less than 2 months after it is announced" in response.content.decode()
    assert not Tournament.objects.filter(name="Tournoi d'automne").exists()


@pytest.mark.django_db
def test_the_page_speaks_french(client, organiser):
    client.force_login(organiser)
    soon = timezone.localdate() + timedelta(days=10)
    response = client.post(reverse("board:tournament_register"),
                           _form(start_date=soon.isoformat(), end_date=soon.isoformat()), HTTP_ACCEPT_LANGUAGE="fr")
    assert "demandez une dérogation au bureau technique" in response.content.decode()


@pytest.mark.django_db
def test_the_page_offers_the_exception_to_the_board_only(client, organiser, board):
    client.force_login(organiser)
    assert "exception_approved" not in client.get(reverse("board:tournament_register")).content.decode()
    soon = timezone.localdate() + timedelta(days=10)
    late = _form(start_date=soon.isoformat(), end_date=soon.isoformat(), exception_approved="on",
                 exception_reason="x")
    client.post(reverse("board:tournament_register"), late)  # the fields are ignored for a referee
    assert not Tournament.objects.filter(name="Tournoi d'automne").exists()
    client.force_login(board)
    assert "exception_approved" in client.get(reverse("board:tournament_register")).content.decode()
    assert client.post(reverse("board:tournament_register"), late).status_code == 302
    assert Tournament.objects.get(name="Tournoi d'automne").exception_approved


@pytest.mark.django_db
def test_the_page_names_an_unknown_referee_account(client, organiser):
    client.force_login(organiser)
    response = client.post(reverse("board:tournament_register"), _form(referees="nobody-here"))
    assert "nobody-here: not the user name of a referee." in response.content.decode()


@pytest.mark.django_db
def test_a_referee_cannot_make_an_account_a_referee(client, organiser, player_user):
    client.force_login(organiser)
    response = client.post(reverse("board:tournament_register"), _form(referees="player"))
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Tournoi d'automne").exists()
    assert not permissions.is_referee(player_user)


@pytest.mark.django_db
def test_the_field_does_not_tell_which_usernames_exist(client, organiser, player_user):
    client.force_login(organiser)

    def error(name: str) -> str:
        page = client.post(reverse("board:tournament_register"), _form(referees=name)).content.decode()
        return re.search(r'<(\w+) class="error">(.*?)</\1>', page, re.S)[2].replace(name, "NAME")

    assert error("player") == error("nobody-here")


@pytest.mark.django_db
def test_the_board_may_make_any_account_a_referee(client, board, player_user):
    client.force_login(board)
    response = client.post(reverse("board:tournament_register"), _form(referees="player"))
    assert response.status_code == 302
    assert permissions.is_referee(player_user)


@pytest.mark.django_db
def test_the_page_refuses_an_end_before_the_start(client, organiser):
    client.force_login(organiser)
    start = timezone.localdate() + timedelta(days=90)
    response = client.post(reverse("board:tournament_register"),
                           _form(end_date=(start - timedelta(days=1)).isoformat()))
    assert "The last day is before the first day." in response.content.decode()


@pytest.mark.django_db
def test_my_tournaments_lists_mine_only(client, organiser, tournament, other_tournament):
    client.force_login(organiser)
    page = client.get(reverse("board:my_tournaments")).content.decode()
    assert tournament.name in page and other_tournament.name not in page
    assert reverse("board:tournament_cards", args=[tournament.pk]) in page


@pytest.mark.django_db
def test_the_registration_form_names_countries_in_the_pages_language(client, organiser):
    client.force_login(organiser)
    english = client.get(reverse("board:tournament_register")).content.decode()
    french = client.get(reverse("board:tournament_register"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert ">Germany</option>" in english and ">Allemagne</option>" in french
    assert french.index(">Allemagne</option>") < french.index(">Belgique</option>")
