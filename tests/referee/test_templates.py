"""Downloading the result sheet: blank, or pre-filled with a tournament of the site."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from rules.sheet.format import FORMAT

pytestmark = pytest.mark.django_db


def workbook(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return load_workbook(io.BytesIO(response.content))


def tournament_values(book) -> dict:
    return {row[0]: row[1] for row in book["Tournament"].iter_rows(values_only=True) if row and row[0]}


def test_the_blank_sheet_has_the_three_sheets_and_the_format(client):
    book = workbook(client.get(reverse("referee:template")))
    assert {"Tournament", "Players", "Games"} <= set(book.sheetnames)
    values = tournament_values(book)
    assert values["Format"] == FORMAT
    assert values["Tournament ID"] is None


def test_the_prefilled_sheet_carries_the_tournament_and_its_players(client, referee, tournament):
    client.force_login(referee)
    response = client.get(reverse("referee:tournament_template", args=[tournament.pk]))
    assert f'filename="result-sheet-{tournament.pk}.xlsx"' in response["Content-Disposition"]
    book = workbook(response)
    values = tournament_values(book)
    assert values["Tournament ID"] == tournament.pk
    assert (values["Name"], values["City"], values["Country"], values["Rounds"]) == ("Spring Clash", "Lyon", "FR", 3)
    ids = [row[0] for row in book["Players"].iter_rows(min_row=2, values_only=True) if row[0] is not None]
    assert ids == [101, 102, 104]


def test_a_tournament_number_typed_in_leads_to_its_sheet(client, board, tournament):
    client.force_login(board)
    response = client.get(reverse("referee:template"), {"tournament": str(tournament.pk)})
    assert response["Location"] == reverse("referee:tournament_template", args=[tournament.pk])
    assert client.get(reverse("referee:template"), {"tournament": "12a"}).status_code == 404


def test_an_unknown_tournament_is_404(client, board):
    client.force_login(board)
    assert client.get(reverse("referee:tournament_template", args=[999999])).status_code == 404
