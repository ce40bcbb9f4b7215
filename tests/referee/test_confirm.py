"""Confirming a checked sheet: the import, the replay followed to "published", and every accepted file kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players.models import Player
from ratings.models import RatingEvent, ReplayRequest
from ratings.services import replay_pending
from tests.referee.helpers import upload, valid_sheet
from tournaments.models import Game, Registration, Sheet, Tournament

pytestmark = pytest.mark.django_db


def checked_sheet(client, user, data) -> Sheet:
    client.force_login(user)
    upload(client, data)
    sheet = Sheet.objects.latest("id")
    assert sheet.status == Sheet.CHECKED, sheet.report
    return sheet


def confirm(client, sheet, **data):
    return client.post(reverse("referee:sheet_confirm", args=[sheet.pk]), data)


def test_confirming_imports_and_the_status_page_reaches_published(client, referee, tournament,
                                                                  django_capture_on_commit_callbacks):
    sheet = checked_sheet(client, referee, valid_sheet(tournament).build())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = confirm(client, sheet)
    # The replay, enqueued once the import is committed (beside it: the rating list's filters forgotten).
    assert len([c for c in callbacks if c.__module__ == "ratings.requests"]) == 1
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
    sheet.refresh_from_db()
    assert sheet.status == Sheet.REPLAYED
    assert sheet.replay_request.status == ReplayRequest.DONE
    assert tournament.games.count() == 15 and tournament.registrations.count() == 10
    page = client.get(response["Location"]).content.decode()
    assert "Published: the tournament and the new ratings are on the site." in page
    assert 'http-equiv="refresh"' not in page
    assert reverse("tournament_detail", args=[tournament.pk]) in page
    assert "N1" in page and str(sheet.new_players["N1"]) in page  # the IDs given to the new players


def test_the_status_page_refreshes_itself_until_the_ratings_are_published(client, referee, tournament):
    sheet = checked_sheet(client, referee, valid_sheet(tournament).build())
    confirm(client, sheet)  # the test transaction never commits: the replay waits, as if the worker were slow
    sheet.refresh_from_db()
    assert (sheet.status, sheet.replay_request.status) == (Sheet.IMPORTED, ReplayRequest.PENDING)
    page = client.get(reverse("referee:sheet_status", args=[sheet.pk])).content.decode()
    assert '<meta http-equiv="refresh" content="2">' in page
    assert "Ratings are being updated." in page and "Waiting for the rating worker." in page
    replay_pending(system_code="adlg")
    page = client.get(reverse("referee:sheet_status", args=[sheet.pk])).content.decode()
    assert 'http-equiv="refresh"' not in page
    assert "Published" in page


def test_a_second_confirmation_imports_nothing_more(client, referee, tournament):
    sheet = checked_sheet(client, referee, valid_sheet(tournament).build())
    confirm(client, sheet)
    players = Player.objects.count()
    response = confirm(client, sheet)
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
    sheet.refresh_from_db()
    assert sheet.status == Sheet.IMPORTED
    assert Player.objects.count() == players
    assert ReplayRequest.objects.count() == 1


def test_the_same_file_again_changes_nothing(client, referee, tournament, django_capture_on_commit_callbacks):
    data = valid_sheet(tournament).build()
    first = checked_sheet(client, referee, data)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(client, first)
    events = RatingEvent.objects.count()
    response = upload(client, data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("referee:sheet_status", args=[first.pk])
    assert "This file was already imported on" in response.content.decode()
    assert (Sheet.objects.count(), Tournament.objects.count(), RatingEvent.objects.count(),
            ReplayRequest.objects.count()) == (1, 1, events, 1)


def test_an_import_that_rolls_back_writes_and_enqueues_nothing(client, referee, tournament, monkeypatch,
                                                               django_capture_on_commit_callbacks):
    sheet = checked_sheet(client, referee, valid_sheet(tournament).build())
    counts = [m.objects.count() for m in (Tournament, Game, Registration, Player, ReplayRequest)]

    def broken(**kwargs):
        raise RuntimeError("the audit log is down")

    monkeypatch.setattr("tournaments.sheets.services.audit_record", broken)  # the last write of the import
    enqueued = []
    monkeypatch.setattr("ratings.tasks.enqueue_replay", enqueued.append)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = confirm(client, sheet)
    assert callbacks == [] and enqueued == []
    assert [m.objects.count() for m in (Tournament, Game, Registration, Player, ReplayRequest)] == counts
    sheet.refresh_from_db()
    assert (sheet.status, sheet.replay_request, sheet.new_players) == (Sheet.CHECKED, None, {})
    assert response["Location"] == reverse("referee:sheet", args=[sheet.pk])
    page = client.get(response["Location"]).content.decode()
    assert "The import failed because of a problem on the site; nothing was changed." in page


def test_an_accepted_file_downloads_byte_for_byte(client, referee, tournament):
    data = valid_sheet(tournament).build()
    sheet = checked_sheet(client, referee, data)
    confirm(client, sheet)
    response = client.get(reverse("referee:sheet_file", args=[sheet.pk]))
    assert response.status_code == 200
    assert response.content == data
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"] == 'attachment; filename="results.xlsx"'


def test_the_tournament_lists_every_accepted_version(client, referee, board, tournament, known_players):
    sheet = checked_sheet(client, referee, valid_sheet(tournament).build())
    confirm(client, sheet)
    correction = checked_sheet(client, referee, valid_sheet(tournament).set("City", "Lille").build())
    confirm(client, correction, acknowledge="on")  # N1 and N2 now match the players the first import added
    correction.refresh_from_db()
    assert correction.status == Sheet.IMPORTED
    rejected = valid_sheet(tournament).set_game(0, "A losses %", 150).build()
    upload(client, rejected)
    client.force_login(board)
    page = client.get(reverse("referee:tournament_sheets", args=[tournament.pk])).content.decode()
    for accepted in (sheet, correction):
        assert reverse("referee:sheet_file", args=[accepted.pk]) in page
    assert reverse("referee:sheet_file", args=[Sheet.objects.get(status=Sheet.REJECTED).pk]) not in page


def test_a_rejected_sheet_cannot_be_confirmed(client, referee, tournament):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).set_game(0, "A losses %", 150).build())
    sheet = Sheet.objects.get()
    response = confirm(client, sheet)
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
    assert not tournament.games.exists()
    page = client.get(response["Location"]).content.decode()
    assert "The sheet has errors to fix: nothing was imported." in page
