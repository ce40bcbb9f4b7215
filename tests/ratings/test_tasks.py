import logging
from datetime import date, timedelta

import pytest
from django.utils import timezone

from ratings import tasks
from ratings.models import ReplayRequest
from ratings.services import replay_failed
from tests.ratings.helpers import imported, roster, sheet
from tournaments.models import Sheet

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sweep_enqueues_only_systems_with_requests_left_waiting(monkeypatch):
    enqueued = []
    monkeypatch.setattr(tasks, "enqueue_replay", enqueued.append)
    old = ReplayRequest.objects.create(system_id="adlg", since=None, reason="lost message")
    ReplayRequest.objects.filter(pk=old.pk).update(requested_at=timezone.now() - timedelta(minutes=5))
    ReplayRequest.objects.create(system_id="battle-empire", since=None, reason="just now")
    assert tasks.sweep_replay_requests(older_than_seconds=60) == ["adlg"]
    assert enqueued == ["adlg"]


@pytest.mark.parametrize("in_process", [True, False], ids=["in-process", "through-the-broker"])
def test_a_broker_outage_at_enqueue_loses_nothing(monkeypatch, caplog, in_process):
    def broker_down(*args, **kwargs):
        raise ConnectionError("redis is down")

    request = ReplayRequest.objects.create(system_id="adlg", since=None, reason="sheet imported")
    monkeypatch.setitem(tasks.replay_system.app.conf, "task_always_eager", in_process)
    monkeypatch.setattr(tasks.replay_system, "delay", broker_down)
    with caplog.at_level(logging.ERROR, logger=tasks.logger.name):
        tasks.enqueue_replay("adlg")  # logs, does not raise: the request row stays for the sweep

    [record] = [r for r in caplog.records if r.name == tasks.logger.name]
    assert record.getMessage() == "could not enqueue the replay of adlg; the sweep will retry"
    assert isinstance(record.exc_info[1], ConnectionError)
    assert ReplayRequest.objects.get(pk=request.pk).status == ReplayRequest.PENDING
    enqueued = []
    monkeypatch.setattr(tasks, "enqueue_replay", enqueued.append)
    ReplayRequest.objects.filter(pk=request.pk).update(requested_at=timezone.now() - timedelta(minutes=5))
    assert tasks.sweep_replay_requests() == ["adlg"]  # the next sweep enqueues it again
    assert enqueued == ["adlg"]


def test_a_replay_that_fails_for_good_marks_its_requests_and_sheets_failed_and_the_next_run_covers_them():
    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    request = ReplayRequest.objects.create(system_id="adlg", since=date(2024, 3, 17), reason="x")
    Sheet.objects.filter(pk=outcome.sheet.pk).update(status=Sheet.IMPORTED, replay_request=request)
    replay_failed(system_code="adlg", error="OperationalError: boom")
    request.refresh_from_db()
    assert request.status == ReplayRequest.FAILED and "boom" in request.error
    assert Sheet.objects.get(pk=outcome.sheet.pk).status == Sheet.FAILED
    tasks.replay_system.delay("adlg")
    request.refresh_from_db()
    assert request.status == ReplayRequest.DONE and request.error == ""
    assert Sheet.objects.get(pk=outcome.sheet.pk).status == Sheet.REPLAYED


def test_the_sweep_retries_a_replay_failed_for_good_an_hour_later_and_leaves_a_recent_failure(monkeypatch):
    enqueued = []
    monkeypatch.setattr(tasks, "enqueue_replay", enqueued.append)
    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    request = ReplayRequest.objects.create(system_id="adlg", since=date(2024, 3, 17), reason="x")
    Sheet.objects.filter(pk=outcome.sheet.pk).update(status=Sheet.IMPORTED, replay_request=request)
    ReplayRequest.objects.exclude(pk=request.pk).update(status=ReplayRequest.DONE)
    replay_failed(system_code="adlg", error="OperationalError: the database went away")
    recent = ReplayRequest.objects.create(system_id="battle-empire", since=None, reason="y")
    replay_failed(system_code="battle-empire", error="OperationalError: again")
    enqueued.clear()  # what the import and the requests enqueued on commit

    assert tasks.sweep_replay_requests() == []  # both failed just now: not yet
    assert enqueued == []
    ReplayRequest.objects.filter(pk=request.pk).update(
        finished_at=timezone.now() - tasks.RETRY_FAILED_AFTER - timedelta(minutes=1))

    assert tasks.sweep_replay_requests() == ["adlg"]
    assert enqueued == ["adlg"]
    request.refresh_from_db()
    assert request.status == ReplayRequest.PENDING and "went away" in request.error  # last error kept
    assert Sheet.objects.get(pk=outcome.sheet.pk).status == Sheet.IMPORTED  # waiting for the replay again
    assert ReplayRequest.objects.get(pk=recent.pk).status == ReplayRequest.FAILED

    tasks.replay_system("adlg")
    request.refresh_from_db()
    assert request.status == ReplayRequest.DONE and request.error == ""
    assert Sheet.objects.get(pk=outcome.sheet.pk).status == Sheet.REPLAYED


def test_close_year_task_closes_a_year_once():
    roster()
    assert tasks.close_year_task(2021) == ["adlg", "battle-empire"]
    assert tasks.close_year_task(2021) == []


def test_the_board_closes_a_year_in_the_admin_and_history_replays(client, board):
    from players.models import AuditEntry
    from ratings.models import ClosedYear, PlayerRating, RatingEvent

    roster()
    client.force_login(board)
    response = client.post("/admin/ratings/closedyear/add/", {"system": "adlg", "year": 2020})
    assert response.status_code == 302
    assert ClosedYear.objects.filter(system="adlg", year=2020, closed_by=board).exists()
    assert RatingEvent.objects.filter(kind=RatingEvent.ADJUSTMENT, year=2020, player_id=101).exists()
    assert PlayerRating.objects.get(player_id=101).rating == 1250  # 1350 from the old site, inactive in 2020
    assert AuditEntry.objects.filter(action="close_year", user=board).exists()
    again = client.post("/admin/ratings/closedyear/add/", {"system": "adlg", "year": 2020})
    assert again.status_code == 200 and ClosedYear.objects.filter(year=2020).count() == 1
    future = client.post("/admin/ratings/closedyear/add/", {"system": "adlg", "year": 2999})
    assert future.status_code == 200 and b"has not ended" in future.content
