"""The annotated copy of a faulty sheet: the referee's workbook with each problem marked on its cell."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.referee.helpers import upload, valid_sheet
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db


def annotated(client, sheet, **extra):
    return client.get(reverse("referee:sheet_annotated", args=[sheet.pk]), **extra)


def test_it_marks_each_faulty_cell_with_its_message(client, referee, tournament):
    client.force_login(referee)
    builder = valid_sheet(tournament).set_game(0, "A losses %", 150).set_player(105, "Last name", "Jonas")
    upload(client, builder.build(), "spring.xlsx")
    response = annotated(client, Sheet.objects.get())
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="spring-annotated.xlsx"'
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames[0] == "Report"
    error = workbook["Games"][builder.game_cell(0, "A losses %")]
    warning = workbook["Players"][builder.player_cell(105, "Last name")]
    assert "150" in error.comment.text and error.fill.start_color.rgb.endswith("FFC7CE")
    assert "Jonas" in warning.comment.text and warning.fill.start_color.rgb.endswith("FFEB9C")
    assert workbook["Games"]["A2"].comment is None


def test_the_comments_follow_the_page_language(client, referee, tournament):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).set_game(0, "A losses %", 150).build())
    response = annotated(client, Sheet.objects.get(), HTTP_ACCEPT_LANGUAGE="fr")
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook["Report"]["A1"].value == "Rapport de la feuille"


def test_a_file_that_is_no_workbook_gets_a_sentence_not_a_copy(client, referee, tournament):
    client.force_login(referee)
    upload(client, b"PK\x03\x04 not really a zip", "results.xlsx")
    response = annotated(client, Sheet.objects.get())
    assert response.status_code == 409
    assert "This file cannot be annotated" in response.content.decode()
