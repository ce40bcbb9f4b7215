"""The status page of an upload: each step of the job, refreshing itself only while something runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import ReplayRequest
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db

REFRESH = '<meta http-equiv="refresh" content="2">'


@pytest.fixture
def sheet(referee, tournament):
    request = ReplayRequest.objects.create(system_id="adlg", since=tournament.end_date, reason="test")
    return Sheet.objects.create(file_name="spring.xlsx", content=b"x", sha256="0" * 64, size=1, uploaded_by=referee,
                                status=Sheet.IMPORTED, tournament=tournament, replay_request=request,
                                imported_at=timezone.now(), report={"en": {"errors": [], "warnings": []}})


def page(client, user, sheet) -> str:
    client.force_login(user)
    response = client.get(reverse("referee:sheet_status", args=[sheet.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_running_replay_says_so_and_refreshes(client, referee, sheet):
    ReplayRequest.objects.filter(pk=sheet.replay_request_id).update(status=ReplayRequest.RUNNING)
    text = page(client, referee, sheet)
    assert REFRESH in text and "Being computed." in text


def test_a_failed_replay_stops_the_refresh_and_says_what_to_do(client, referee, sheet):
    ReplayRequest.objects.filter(pk=sheet.replay_request_id).update(status=ReplayRequest.FAILED, error="boom")
    text = page(client, referee, sheet)
    assert REFRESH not in text
    assert "The import failed. Nothing you can fix in the sheet" in text
    assert "boom" not in text  # the board's details, not the referee's


def test_a_failed_sheet_says_it_failed(client, referee, sheet):
    Sheet.objects.filter(pk=sheet.pk).update(status=Sheet.FAILED)
    text = page(client, referee, sheet)
    assert REFRESH not in text and "The import failed." in text


def test_a_replay_waiting_too_long_stops_refreshing_and_says_whom_to_tell(client, referee, sheet):
    ReplayRequest.objects.filter(pk=sheet.replay_request_id).update(
        requested_at=timezone.now() - timedelta(hours=1))
    text = page(client, referee, sheet)
    assert REFRESH not in text
    assert "tell the technical board" in text
    assert reverse("referee:sheet_status", args=[sheet.pk]) in text


def test_a_checked_sheet_waits_for_its_referee_without_refreshing(client, referee, sheet):
    Sheet.objects.filter(pk=sheet.pk).update(status=Sheet.CHECKED, replay_request=None, imported_at=None)
    text = page(client, referee, sheet)
    assert REFRESH not in text
    assert "Waiting for your confirmation." in text
    assert reverse("referee:sheet", args=[sheet.pk]) in text


def test_the_sheet_page_of_an_imported_sheet_leads_to_its_status(client, referee, sheet):
    Sheet.objects.filter(pk=sheet.pk).update(status=Sheet.IMPORTED)
    client.force_login(referee)
    response = client.get(reverse("referee:sheet", args=[sheet.pk]))
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
