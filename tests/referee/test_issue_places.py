"""Each issue of a report says what its row is about: beside the cell for an uploaded sheet ("Games!D5 round
1, table 2"), instead of the cell for a tournament day's publication, whose referee never saw the workbook."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.live.helpers import federation_players, live_tournament, play_round
from tests.referee.helpers import upload
from tests.sheets.builders import SheetBuilder
from tournaments.live.publication import live_publish
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db


def test_an_uploaded_sheets_report_gives_the_cell_and_the_round_and_table(client, referee, tournament):
    client.force_login(referee)
    upload(client, SheetBuilder.valid().set_game(1, "Player B", 108).set_player(101, "Penalty", 20).build())
    sheet = Sheet.objects.get()
    page = client.get(reverse("referee:sheet", args=[sheet.pk])).content.decode()
    assert '<code class="cell">Games!D5</code> <span class="small muted">round 1, table 4</span>' in page
    assert '<code class="cell">Players!I2</code> <span class="small muted">Paul Martin (101)</span>' in page
    assert "Juan Lopez (108) plays two games in round 1" in page


def test_a_published_days_warnings_name_the_round_and_table_not_a_cell(client, board):
    live = live_tournament(federation_players(6, clubs=1))
    rng = random.Random(3)
    for number in (1, 2, 3):
        play_round(live, number, rng)
    outcome = live_publish(live, user=board)
    assert outcome.ok and outcome.report.warnings
    client.force_login(board)
    page = client.get(reverse("referee:sheet_status", args=[outcome.sheet.pk])).content.decode()
    assert "round 1, table 1" in page
    assert "Games!" not in page and "Players!" not in page
    assert "Test Player1 (2001)" in page
