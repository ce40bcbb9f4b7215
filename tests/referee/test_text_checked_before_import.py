"""Every text limit and every formula-like text is refused by the check, with its cell, before anything is
written: on SQLite, which does not enforce lengths, an over-long name used to pass the check and fail the
import (a 500 on the web, a traceback from the command)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from players.models import Player
from tests.referee.helpers import upload, valid_sheet
from tournaments.models import Sheet, Tournament

pytestmark = pytest.mark.django_db


def _command(tmp_path, data: bytes) -> tuple[int, str, str]:
    path = tmp_path / "results.xlsx"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_results", str(path), stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_an_over_long_new_player_is_refused_on_the_web_with_its_cell(client, referee, tournament):
    client.force_login(referee)
    builder = valid_sheet(tournament).set_player("N1", "Last name", "L" * 81)
    response = upload(client, builder.build())
    sheet = Sheet.objects.get()
    assert response.status_code == 302 and sheet.status == Sheet.REJECTED
    page = client.get(reverse("referee:sheet", args=[sheet.pk])).content.decode()
    assert builder.player_cell("N1", "Last name") in page
    assert "is 81 characters long, more than the 80 the site keeps" in page


def test_an_over_long_tournament_name_is_refused_by_the_command(tmp_path, known_players):
    builder = valid_sheet().set("Name", "N" * 151)
    tournaments, players = Tournament.objects.count(), Player.objects.count()
    code, _out, err = _command(tmp_path, builder.build())
    assert code == 1
    assert f"error Tournament!{builder.tournament_cell('Name')}: \"Name\" is 151 characters long" in err
    assert "Traceback" not in err
    assert (Tournament.objects.count(), Player.objects.count()) == (tournaments, players)


def test_players_named_as_formulas_are_refused_by_the_command(tmp_path, known_players):
    builder = (valid_sheet().set_player("N1", "Last name", '=HYPERLINK("http://evil.example/","x")')
               .set_player("N2", "Club", "=1+2"))
    code, _out, err = _command(tmp_path, builder.build())
    assert code == 1
    assert f"error Players!{builder.player_cell('N1', 'Last name')}: \"Last name\" is" in err
    assert f"error Players!{builder.player_cell('N2', 'Club')}: \"Club\" is \"=1+2\"" in err
    assert not Player.objects.filter(last_name__startswith="=").exists()
