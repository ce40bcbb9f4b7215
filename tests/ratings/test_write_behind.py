"""Writes sent behind run on the caller's connection, in the caller's transaction, in the order sent; their
errors reach the caller."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from players.models import Country
from ratings.write_behind import write_behind

pytestmark = pytest.mark.django_db(transaction=True)


def _add_country(code: str) -> str:
    Country.objects.create(code=code, name=f"Country {code}")
    return threading.current_thread().name


def test_jobs_run_in_order_in_the_callers_transaction():
    with pytest.raises(RuntimeError, match="undo"), transaction.atomic():
        with write_behind() as behind:
            first = behind.submit(_add_country, "XQ")
            second = behind.submit(lambda: list(Country.objects.filter(code__in=["XQ", "XR"]).values_list(
                "code", flat=True)))
        assert second.result() == ["XQ"]  # the second job saw the first one's row
        assert Country.objects.filter(code="XQ").exists()  # and so does the caller, before commit
        if connection.vendor == "postgresql":
            assert first.result().startswith("write-behind")  # it did run on the second thread
        raise RuntimeError("undo")
    assert not Country.objects.filter(code="XQ").exists()  # rolled back with the caller's transaction


def test_an_error_of_a_job_reaches_the_caller_at_the_end_of_the_block():
    def fail():
        raise ValueError("bad row")

    reached_the_end = False
    with pytest.raises(ValueError, match="bad row"), transaction.atomic(), write_behind() as behind:
        behind.submit(_add_country, "XT")
        behind.submit(fail)
        reached_the_end = True
    assert reached_the_end
    assert not Country.objects.filter(code="XT").exists()  # the whole transaction rolled back


def test_disabled_runs_jobs_at_once_in_this_thread():
    with transaction.atomic(), write_behind(enabled=False) as behind:
        assert behind.submit(_add_country, "XS").result() == threading.current_thread().name
    assert Country.objects.filter(code="XS").exists()


def test_after_a_failed_job_the_later_ones_do_not_run_and_the_first_error_is_raised():
    ran = []

    def fail():
        raise ValueError("bad row")

    with pytest.raises(ValueError, match="bad row"), transaction.atomic(), write_behind() as behind:
        behind.submit(fail)
        behind.submit(ran.append, "later")
    assert ran == []


def test_an_error_of_the_block_cancels_the_jobs_not_yet_started():
    if connection.vendor != "postgresql":
        pytest.skip("jobs run at once, in this thread, elsewhere")
    started = threading.Event()
    ran = []

    def slow():
        started.set()
        time.sleep(0.3)

    with pytest.raises(RuntimeError, match="compute failed"), transaction.atomic(), write_behind() as behind:
        behind.submit(slow)
        behind.submit(ran.append, "later")
        started.wait(5)
        raise RuntimeError("compute failed")
    assert ran == []
