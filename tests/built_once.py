"""Data built once for a whole test module, when building it per test would cost more than the tests themselves
(seeding the demo federation takes seconds).

`built_once(django_db_blocker)` is a context manager for a module-scoped fixture:

    @pytest.fixture(scope="module")
    def demo(django_db_setup, django_db_blocker):
        with built_once(django_db_blocker) as build:
            build(lambda: call_command("seed_demo", ...))
            yield

`build(fn)` runs `fn` as a test would run it (the database open, the reference data there, tasks in-process,
English active) but outside any test's transaction: what it writes is committed, and its on-commit hooks run, as
they do for a user. The database is closed again between `build` calls and the tests, so each test still asks
for the database access it needs: `db` for tests that read the data (their own writes are rolled back at the end
of each test, so no test sees another's), or an unblocked database for a live server that reads it. The tests
must use the database (a `django_db` mark, or the `db` fixture): pytest-django creates the test database only
for a run that has such tests. When the module is done the database is flushed, as after a transactional test,
so nothing leaks into the next module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def built_once(django_db_blocker) -> Iterator[Callable[[Callable[[], T]], T]]:
    def build(fn: Callable[[], T]) -> T:
        from django.utils import translation

        from adlg_site.celery import app
        from adlg_site.reference_data import ensure_reference_data

        previous = app.conf.task_always_eager, app.conf.task_eager_propagates
        app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
        try:
            with django_db_blocker.unblock(), translation.override("en"):
                ensure_reference_data()
                return fn()
        finally:
            app.conf.task_always_eager, app.conf.task_eager_propagates = previous

    try:
        yield build
    finally:
        with django_db_blocker.unblock():
            flush()


def flush() -> None:
    """Empty every table, as Django does after a TransactionTestCase (and so after a transactional test)."""
    from django.core.management import call_command
    from django.db import connections

    for alias in connections:
        call_command("flush", verbosity=0, interactive=False, database=alias, reset_sequences=False,
                     allow_cascade=False, inhibit_post_migrate=False)
