"""An upload costs bounded work and storage: a sheet full of errors stores and shows a bounded report and its
annotated copy is linear; a sheet is parsed once per upload; uploads are limited per account on the page and the
API together; uploads never imported are deleted after a while.

Bounds have room (CPU time of this process, memory Python allocates), and growth is checked as a ratio."""

from __future__ import annotations

import io
import json
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from tests.bounds import cpu_and_peak
from tests.referee.helpers import upload, valid_sheet
from tests.sheets.test_limits import _with_players_xml
from tournaments.models import Sheet, UploadAttempt
from tournaments.sheets import services
from tournaments.tasks import purge_unimported_sheets

pytestmark = pytest.mark.django_db


def _errors_sheet(tournament, bad_rows: int) -> bytes:
    builder = valid_sheet(tournament)
    for _ in range(bad_rows):
        builder.add_game(["x", "t", "p?", "q?", "W", "lots", "many", "perhaps"])  # eight errors a row
    return builder.build()


def test_a_sheet_of_80_000_errors_stores_and_shows_a_bounded_report(client, referee, tournament):
    client.force_login(referee)
    data = _errors_sheet(tournament, 9_980)
    upload(client, data)
    sheet = Sheet.objects.get()
    assert sheet.status == Sheet.REJECTED
    stored = len(json.dumps(sheet.report)) + len(json.dumps(sheet.reading))
    assert stored < 3 * 1024 * 1024  # the reported upload stored 28 MB of report (the reading keeps the games)
    assert len(sheet.report["en"]["errors"]) == 501 and sheet.report["counts"]["errors"] == 79_840
    page = client.get(reverse("referee:sheet", args=[sheet.pk])).content.decode()
    assert len(page) < 1024 * 1024  # 17 MB before
    assert "79840 errors. Nothing was imported." in page
    assert "…and 79340 more errors, not listed: the report lists the first 500." in page


def _annotated_seconds(client, sheet) -> tuple[bytes, float]:
    best, content = float("inf"), b""
    for _ in range(2):
        start = time.process_time()
        response = client.get(reverse("referee:sheet_annotated", args=[sheet.pk]))
        best = min(best, time.process_time() - start)
        content = response.content
        assert response.status_code == 200
    return content, best


def test_the_annotated_copy_of_a_sheet_full_of_errors_is_linear(client, referee, tournament):
    client.force_login(referee)
    upload(client, _errors_sheet(tournament, 1_000))
    upload(client, _errors_sheet(tournament, 9_980))
    small, large = Sheet.objects.order_by("pk")
    content, large_seconds = _annotated_seconds(client, large)
    _, small_seconds = _annotated_seconds(client, small)
    # Ten times the rows: about ten times the time (the file is ten times larger); quadratic was a hundred.
    assert large_seconds / small_seconds < 25
    assert large_seconds < 60  # past the web server's timeout before
    report_sheet = load_workbook(io.BytesIO(content), read_only=True)["Report"]
    rows = list(report_sheet.iter_rows(values_only=True))
    assert len(rows) == 2 + 501  # heading, header, 500 errors and the line saying how many more
    assert rows[-1][3].startswith("…and 79340 more errors")


def test_a_sheet_of_millions_of_cells_is_refused_quickly_in_bounded_memory(client, referee, tournament):
    client.force_login(referee)
    data = _with_players_xml(cells=2_300_000)
    response, elapsed, peak = cpu_and_peak(lambda: upload(client, data))
    assert response.status_code == 302
    assert elapsed < 10 and peak < 300 * 1024 * 1024  # 10.9 s and 1.3 GB before
    sheet = Sheet.objects.order_by("pk").first()
    assert [issue["code"] for issue in sheet.report["en"]["errors"]] == ["too_many_cells"]
    page = client.get(reverse("referee:sheet", args=[sheet.pk])).content.decode()
    assert "over one of the limits of a result sheet" in page
    assert "could not read this file" not in page


def test_a_sheet_is_parsed_once_per_upload(client, referee, tournament, monkeypatch):
    client.force_login(referee)
    calls = []
    read = services.read_upload
    monkeypatch.setattr(services, "read_upload", lambda *args, **kwargs: calls.append(1) or read(*args, **kwargs))
    upload(client, valid_sheet(tournament).set_player(104, "Army", None).build())
    sheet = Sheet.objects.get()
    assert calls == [1]
    assert client.get(reverse("referee:sheet", args=[sheet.pk])).status_code == 200  # the preview
    assert client.post(reverse("referee:sheet_confirm", args=[sheet.pk])).status_code == 302
    sheet.refresh_from_db()
    assert sheet.status in (Sheet.IMPORTED, Sheet.REPLAYED)
    assert client.get(reverse("referee:sheet_annotated", args=[sheet.pk])).status_code == 200
    assert calls == [1]


def test_a_rejected_sheet_is_annotated_from_its_stored_report(client, referee, tournament, monkeypatch):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).set("City", None).build())
    sheet = Sheet.objects.get()
    monkeypatch.setattr(services, "read_upload", lambda *a, **k: pytest.fail("the file was parsed again"))
    response = client.get(reverse("referee:sheet_annotated", args=[sheet.pk]))
    assert response.status_code == 200
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook["Tournament"]["B7"].comment.text == '"City" is required and is blank. Fill it in.'


# -- how many uploads


def test_the_upload_page_stops_at_the_hourly_limit(client, referee, tournament, settings):
    settings.SHEET_UPLOADS_PER_HOUR = 3
    client.force_login(referee)
    data = valid_sheet(tournament).set("City", None).build()
    assert [upload(client, data).status_code for _ in range(3)] == [302, 302, 302]
    response = upload(client, data)
    assert response.status_code == 429
    assert 3600 - 5 <= int(response["Retry-After"]) <= 3600
    assert "You have sent 3 result sheets in the last hour" in response.content.decode()
    assert Sheet.objects.count() == 3


def test_the_page_and_the_api_share_one_limit(client, referee, tournament, settings):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    settings.SHEET_UPLOADS_PER_HOUR = 2
    client.force_login(referee)
    data = valid_sheet(tournament).set("City", None).build()
    assert upload(client, data).status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=referee)[0].key}")
    from tests.referee.helpers import xlsx

    assert api.post("/api/sheets/", {"file": xlsx(data)}, format="multipart").status_code == 400
    assert api.post("/api/sheets/", {"file": xlsx(data)}, format="multipart").status_code == 429
    assert upload(client, data).status_code == 429


def test_the_limit_is_per_account(client, referee, other_referee, tournament, other_tournament, settings):
    settings.SHEET_UPLOADS_PER_HOUR = 1
    data = valid_sheet().set("City", None).build()
    client.force_login(referee)
    assert upload(client, data).status_code == 302
    assert upload(client, data).status_code == 429
    client.force_login(other_referee)
    assert upload(client, data).status_code == 302


def test_an_hour_later_uploads_are_accepted_again(client, referee, tournament, settings):
    settings.SHEET_UPLOADS_PER_HOUR = 1
    client.force_login(referee)
    data = valid_sheet(tournament).set("City", None).build()
    assert upload(client, data).status_code == 302
    UploadAttempt.objects.update(at=timezone.now() - timedelta(hours=1, seconds=1))
    assert upload(client, data).status_code == 302


# -- how long uploads are kept


def test_uploads_never_imported_are_deleted_after_thirty_days(client, referee, tournament, settings):
    client.force_login(referee)
    upload(client, valid_sheet(tournament).set("City", None).build(), "rejected.xlsx")
    upload(client, valid_sheet(tournament).build(), "checked.xlsx")
    checked = Sheet.objects.get(file_name="checked.xlsx")
    client.post(reverse("referee:sheet_confirm", args=[checked.pk]))
    upload(client, valid_sheet().set("Name", "Another").set("City", None).build(), "recent.xlsx")
    old = timezone.now() - timedelta(days=settings.SHEET_UNIMPORTED_KEPT_DAYS, seconds=1)
    Sheet.objects.exclude(file_name="recent.xlsx").update(uploaded_at=old)
    UploadAttempt.objects.update(at=old)
    assert purge_unimported_sheets() == 1
    assert sorted(Sheet.objects.values_list("file_name", flat=True)) == ["checked.xlsx", "recent.xlsx"]
    assert Sheet.objects.get(file_name="checked.xlsx").status in (Sheet.IMPORTED, Sheet.REPLAYED)
    assert not UploadAttempt.objects.exists()
