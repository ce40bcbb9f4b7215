"""The replay pipeline on the real stack: PostgreSQL, Redis and a Celery worker in its own process."""

from __future__ import annotations

import threading
import time
from datetime import date

import pytest
from django.db import connection, connections, transaction

from ratings.models import RatingEvent, RatingSystem, ReplayRequest
from ratings.services import replay_from_scratch
from ratings.tasks import sweep_replay_requests
from tests.ratings.helpers import derived_state, roster, sheet
from tournaments.models import Sheet
from tournaments.sheets.services import sheet_import_bytes

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def wait_until_replayed(timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not ReplayRequest.objects.exclude(status=ReplayRequest.DONE).exists():
            return
        time.sleep(0.2)
    raise AssertionError(f"requests still pending: {list(ReplayRequest.objects.values_list('status', 'since'))}")


def assert_state_is_a_clean_replay() -> None:
    stored = derived_state()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == stored


def test_a_real_worker_rates_an_imported_sheet_and_publishes_it(celery_worker_process):
    celery_worker_process()
    roster()
    wait_until_replayed()
    outcome = sheet_import_bytes(data=sheet(name="Spring Clash", start=date(2024, 3, 16)), file_name="s.xlsx")
    assert outcome.ok
    wait_until_replayed()
    assert Sheet.objects.get(pk=outcome.sheet.pk).status == Sheet.REPLAYED
    assert_state_is_a_clean_replay()


def _big_history(tournaments: int) -> None:
    """Enough history for a replay to take a few seconds, imported without a worker running."""
    from bench.replay import federation_load
    from bench.synthetic import make_federation

    with transaction.atomic():
        federation_load(make_federation(players=2000, games=tournaments * 60, seed=3))


def _inside_replay_transaction(database: str) -> bool:
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid() "
            "AND (query ILIKE 'COPY%%' OR state = 'idle in transaction' OR query ILIKE '%%tournaments_game%%')",
            [database])
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_in_the_middle_of_a_replay_leaves_a_state_equal_to_a_clean_replay(celery_worker_process):
    _big_history(tournaments=600)
    worker = celery_worker_process()
    ReplayRequest.objects.create(system_id="adlg", since=None, reason="test")
    from ratings.tasks import replay_system

    replay_system.delay("adlg")
    database = connection.settings_dict["NAME"]
    # A worker starting on a busy machine (the other test process, a browser) can take most of a minute.
    deadline = time.monotonic() + 150
    while not _inside_replay_transaction(database):
        assert time.monotonic() < deadline, "the worker never started the replay"
        time.sleep(0.05)
    worker.kill()
    # The replay's transaction died with the worker: nothing of it was committed, the request is still open.
    assert ReplayRequest.objects.get().status == ReplayRequest.RUNNING
    assert not RatingEvent.objects.exists()
    celery_worker_process()
    sweep_replay_requests(older_than_seconds=0)  # the periodic sweep, run now instead of in a minute
    wait_until_replayed(timeout=180)
    assert_state_is_a_clean_replay()


def test_two_imports_at_the_same_moment_end_as_if_one_had_gone_first(celery_worker_process):
    celery_worker_process()
    roster()
    wait_until_replayed()
    sheets = [sheet(name="North Open", start=date(2024, 3, 16)), sheet(name="South Open", start=date(2024, 3, 16))]
    outcomes: list = [None, None]
    barrier = threading.Barrier(2)

    def run(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = sheet_import_bytes(data=sheets[index], file_name=f"{index}.xlsx")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(outcome.ok for outcome in outcomes)
    given = [pid for outcome in outcomes for pid in outcome.new_players.values()]
    assert len(set(given)) == 4 and 99 not in given
    assert sorted(given) == list(range(min(given), min(given) + 4))
    wait_until_replayed()
    assert_state_is_a_clean_replay()


def test_an_upload_whose_transaction_rolls_back_enqueues_nothing(celery_worker_process):
    from adlg_site.celery import app

    roster()
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")
    ReplayRequest.objects.all().delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        assert sheet_import_bytes(data=sheet(name="Doomed", start=date(2024, 3, 16)), file_name="d.xlsx").ok
        raise RuntimeError("something after the import failed")
    with app.connection_for_write() as conn:
        name, messages, consumers = conn.default_channel.queue_declare("celery", passive=False)
    assert messages == 0
    assert not ReplayRequest.objects.exists() and not Sheet.objects.exists()


def test_a_second_replay_of_the_same_system_waits_its_turn():
    """SKIP LOCKED: while one replay holds the system's lock, another returns at once and leaves the requests."""
    from ratings.models import ReplayLock
    from ratings.services import ReplayBusy, replay_pending

    roster()
    held, release = threading.Event(), threading.Event()

    def hold_lock() -> None:
        try:
            with transaction.atomic():
                ReplayLock.objects.select_for_update().get(system_id="adlg")
                held.set()
                release.wait(timeout=30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=hold_lock)
    thread.start()
    held.wait(timeout=10)
    ReplayRequest.objects.create(system_id="adlg", since=None, reason="waiting")
    with pytest.raises(ReplayBusy):
        replay_pending(system_code="adlg")
    release.set()
    thread.join()
    assert replay_pending(system_code="adlg")
    assert not ReplayRequest.objects.exclude(status=ReplayRequest.DONE).exists()
