"""Shared fixtures: the personas of STYLE.md and the switch that runs service tests only where services exist.

Tests marked `services` need PostgreSQL and Redis. On the embedded default they are skipped; when
REQUIRE_SERVICES=1 (CI's second pass) a missing service is a failure, never a silent skip.
"""

from __future__ import annotations

import os

import pytest


def services_available() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config, items):
    if services_available():
        return
    required = os.environ.get("REQUIRE_SERVICES") == "1"
    for item in items:
        if "services" in item.keywords:
            if required:
                item.add_marker(pytest.mark.usefixtures("_fail_missing_services"))
            else:
                item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL=postgres://… and REDIS_URL"))


_DB_FIXTURES = {"db", "transactional_db", "live_server", "django_db_serialized_rollback"}


@pytest.fixture(autouse=True)
def _reference_data(request):
    """Countries, rating systems and the spare, which a transactional test's flush removes."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None and not (_DB_FIXTURES & set(request.fixturenames)):
        yield
        return
    transactional = "live_server" in request.fixturenames or "transactional_db" in request.fixturenames or (
        marker is not None and marker.kwargs.get("transaction", False))
    request.getfixturevalue("transactional_db" if transactional else "db")
    from adlg_site.reference_data import ensure_reference_data

    ensure_reference_data()
    yield


@pytest.fixture(autouse=True)
def _english_until_asked_otherwise():
    """Each test starts in the site's default language: a French request leaves French active in the thread, and
    services word their refusals in the active language (players.governance)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _tasks_in_process_unless_testing_the_worker(request):
    """With REDIS_URL set (CI's second pass) only the worker tests use the broker; the others run tasks
    in-process as on the embedded default, so they test the same thing on both stacks."""
    from adlg_site.celery import app

    if "services" in request.keywords:
        yield
        return
    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture
def _fail_missing_services():
    pytest.fail("REQUIRE_SERVICES=1 but DATABASE_URL (postgres://…) or REDIS_URL is missing")


@pytest.fixture
def board(django_user_model):
    """A member of the technical board (staff)."""
    return django_user_model.objects.create_user("board", password="board-pass-123", is_staff=True,
                                                 is_superuser=True)


@pytest.fixture
def referee(django_user_model):
    return django_user_model.objects.create_user("referee", password="referee-pass-123")


@pytest.fixture
def other_referee(django_user_model):
    return django_user_model.objects.create_user("other_referee", password="other-pass-123")


@pytest.fixture
def player_user(django_user_model):
    """A player with an account linked to a federation ID (the link is made by the test that needs it)."""
    return django_user_model.objects.create_user("player", password="player-pass-123")


@pytest.fixture(autouse=True)
def _no_cached_filter_choices():
    """Each test starts without the rating list's cached filters: a rolled-back test's clubs must not live on.
    (Not cache.clear(): on CI's second pass the cache is the Redis database the worker's broker uses.)"""
    from ratings.selectors import filter_choices_forget

    filter_choices_forget()
    yield
