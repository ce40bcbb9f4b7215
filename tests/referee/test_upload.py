"""Sending a result sheet: who may, what is refused before it is read, and the report of a faulty sheet."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.referee.helpers import upload, valid_sheet, xlsx
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db

CITY_BLANK = "\"City\" is required and is blank. Fill it in."


def test_it_shows_the_upload_page_to_a_referee(client, referee, tournament):
    client.force_login(referee)
    response = client.get(reverse("referee:home"))
    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("referee:template") in page
    assert reverse("referee:tournament_template", args=[tournament.pk]) in page
    assert 'enctype="multipart/form-data"' in page


def test_it_sends_anonymous_visitors_to_sign_in(client):
    response = client.get(reverse("referee:home"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_it_refuses_an_account_that_referees_nothing(client, player_user):
    client.force_login(player_user)
    assert client.get(reverse("referee:home")).status_code == 403
    assert upload(client, valid_sheet().build()).status_code == 403
    assert not Sheet.objects.exists()


def test_it_keeps_a_valid_sheet_and_leads_to_its_preview(client, referee, tournament):
    client.force_login(referee)
    data = valid_sheet(tournament).build()
    response = upload(client, data, "spring.xlsx")
    sheet = Sheet.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("referee:sheet", args=[sheet.pk])
    assert (sheet.status, sheet.file_name, bytes(sheet.content), sheet.uploaded_by) == (
        Sheet.CHECKED, "spring.xlsx", data, referee)
    assert sheet.tournament == tournament


def test_it_accepts_a_sheet_for_a_new_tournament_from_any_referee(client, other_referee, other_tournament):
    client.force_login(other_referee)
    upload(client, valid_sheet().build())
    assert Sheet.objects.get().status == Sheet.CHECKED


def test_it_lists_each_error_with_its_cell_and_sentence(client, referee, tournament):
    client.force_login(referee)
    builder = valid_sheet(tournament).set("City", None)
    response = upload(client, builder.build(), follow=True)
    page = response.content.decode()
    assert Sheet.objects.get().status == Sheet.REJECTED
    assert "Tournament!B7" in page and builder.tournament_cell("City") == "B7"
    assert "&quot;City&quot; is required and is blank. Fill it in." in page
    assert reverse("referee:sheet_annotated", args=[Sheet.objects.get().pk]) in page


def test_it_writes_the_report_in_the_page_language(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, valid_sheet(tournament).set("City", None).build(), follow=True,
                      HTTP_ACCEPT_LANGUAGE="fr")
    page = response.content.decode()
    assert "«\u00a0City\u00a0» est obligatoire et n’est pas rempli. Remplissez-le." in page
    assert CITY_BLANK not in page


def test_it_shows_the_warnings_of_a_faulty_sheet_too(client, referee, tournament):
    client.force_login(referee)
    builder = valid_sheet(tournament).set_game(0, "A losses %", 150).set_player(105, "Last name", "Jonas")
    page = upload(client, builder.build(), follow=True).content.decode()
    assert f"Games!{builder.game_cell(0, 'A losses %')}" in page
    assert "Warnings" in page
    assert f"Players!{builder.player_cell(105, 'Last name')}" in page


def test_it_refuses_a_request_over_the_limit_before_reading_it(client, referee, tournament, settings):
    client.force_login(referee)
    response = upload(client, valid_sheet(tournament).build(), CONTENT_LENGTH=str(settings.SHEET_MAX_BYTES * 3))
    assert response.status_code == 413
    assert "the limit for a result sheet" in response.content.decode()
    assert not Sheet.objects.exists()


def test_it_refuses_a_file_over_the_limit(client, referee, tournament, settings):
    settings.SHEET_MAX_BYTES = 2000
    client.force_login(referee)
    response = upload(client, valid_sheet(tournament).build())
    assert response.status_code == 400
    assert "; the limit for a result sheet is 1.9 KB" in response.content.decode()  # 2,000 bytes, rounded down
    assert not Sheet.objects.exists()


def test_it_refuses_a_file_that_is_not_an_xlsx(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, b"Round;Table\n1;1\n", "results.csv")
    assert response.status_code == 400
    assert "is neither an Excel workbook (.xlsx) nor a tournament in JSON (.json)" in response.content.decode()
    assert not Sheet.objects.exists()


def test_it_refuses_an_empty_file(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, b"", "results.xlsx")
    assert response.status_code == 400
    assert "The file is empty" in response.content.decode()


def test_it_reports_an_xlsx_that_is_no_workbook_without_an_annotated_copy(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, b"this is not a zip at all", "results.xlsx", follow=True)
    sheet = Sheet.objects.get()
    page = response.content.decode()
    assert response.status_code == 200
    assert sheet.status == Sheet.REJECTED
    assert "not an .xlsx workbook" in page
    assert reverse("referee:sheet_annotated", args=[sheet.pk]) not in page


def test_it_refuses_and_forgets_a_sheet_of_another_referees_tournament(client, other_referee, tournament,
                                                                      other_tournament):
    client.force_login(other_referee)
    response = upload(client, valid_sheet(tournament).build())
    assert response.status_code == 403
    assert f"Tournament no. {tournament.pk}" in response.content.decode()
    assert not Sheet.objects.exists()


def test_the_board_may_send_any_tournament(client, board, tournament):
    client.force_login(board)
    upload(client, valid_sheet(tournament).build())
    assert Sheet.objects.get().status == Sheet.CHECKED


def test_it_checks_the_csrf_token_after_the_size(referee, tournament):
    client = Client(enforce_csrf_checks=True)
    client.force_login(referee)
    response = client.post(reverse("referee:upload"), {"file": xlsx(valid_sheet(tournament).build())})
    assert response.status_code == 403
    assert not Sheet.objects.exists()


def test_it_sends_a_get_of_the_upload_address_to_the_page(client, referee, tournament):
    client.force_login(referee)
    assert client.get(reverse("referee:upload"))["Location"] == reverse("referee:home")


def test_a_french_workbooks_faults_are_placed_in_its_own_sheet_names(client, referee, tournament):
    import io

    from openpyxl import load_workbook

    from tests.sheets.test_template_languages import filled, words_in

    workbook = load_workbook(io.BytesIO(filled(words_in("fr"))))
    workbook["Parties"]["E2"] = "X"  # not a result
    out = io.BytesIO()
    workbook.save(out)
    client.force_login(referee)
    page = upload(client, out.getvalue(), follow=True, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Parties!E2" in page and "Games!E2" not in page
