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
