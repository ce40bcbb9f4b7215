"""Fixtures of the referee pages: the federation's known players and the personas' tournaments."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache

from tests.referee.helpers import create_known_players, make_tournament


@pytest.fixture(autouse=True)
def _clean_cache():
    """The upload API is throttled per user through the cache: every test starts with a fresh count."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def known_players(db):
    return create_known_players()


@pytest.fixture
def tournament(known_players, referee):
    """The referee's tournament, registered on the site: the valid sheet with its ID is its results."""
    return make_tournament(referees=[referee], registered=[known_players[pid] for pid in (101, 102, 104)])


@pytest.fixture
def other_tournament(known_players, other_referee):
    return make_tournament(referees=[other_referee], name="Autumn Clash", start=date(2024, 4, 20),
                           end=date(2024, 4, 21))
