"""Who sees which sheet: the board, the sender, the tournament's referees; nobody else learns it exists."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.referee.helpers import upload, valid_sheet
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db

SHEET_PAGES = ["referee:sheet", "referee:sheet_status", "referee:sheet_annotated", "referee:sheet_file"]


@pytest.fixture
def imported_sheet(client, referee, tournament):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).build())
    sheet = Sheet.objects.get()
    client.post(reverse("referee:sheet_confirm", args=[sheet.pk]))
    client.logout()
    sheet.refresh_from_db()
    assert sheet.status == Sheet.IMPORTED
    return sheet


@pytest.mark.parametrize("name", SHEET_PAGES)
def test_another_referee_cannot_see_someone_elses_sheet(client, other_referee, other_tournament, imported_sheet,
                                                        name):
    client.force_login(other_referee)
    assert client.get(reverse(name, args=[imported_sheet.pk])).status_code == 404


def test_another_referee_cannot_confirm_someone_elses_sheet(client, referee, other_referee, tournament,
                                                            other_tournament):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).build())
    sheet = Sheet.objects.get()
    client.force_login(other_referee)
    assert client.post(reverse("referee:sheet_confirm", args=[sheet.pk])).status_code == 404
    sheet.refresh_from_db()
    assert sheet.status == Sheet.CHECKED


def test_another_referee_gets_no_tournament_pages(client, other_referee, tournament, other_tournament):
    client.force_login(other_referee)
    assert client.get(reverse("referee:tournament_template", args=[tournament.pk])).status_code == 403
    assert client.get(reverse("referee:tournament_sheets", args=[tournament.pk])).status_code == 403


@pytest.mark.parametrize("name", SHEET_PAGES)
def test_a_co_referee_and_the_board_see_the_accepted_sheet(client, django_user_model, board, tournament,
                                                           imported_sheet, name):
    colleague = django_user_model.objects.create_user("colleague")
    tournament.referees.add(colleague)
    for user in (colleague, board):
        client.force_login(user)
        assert client.get(reverse(name, args=[imported_sheet.pk])).status_code in (200, 302)


def test_anonymous_visitors_are_sent_to_sign_in(client, imported_sheet):
    for name in SHEET_PAGES:
        response = client.get(reverse(name, args=[imported_sheet.pk]))
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_player_account_sees_no_sheet(client, player_user, imported_sheet):
    client.force_login(player_user)
    assert client.get(reverse("referee:sheet_status", args=[imported_sheet.pk])).status_code == 404
