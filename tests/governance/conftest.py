"""Fixtures of the governance tests: the personas' tournaments and players, a clean cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.governance.factories import make_club, make_player, make_tournament, register


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club(db):
    return make_club()


@pytest.fixture
def tournament(db, referee):
    """A tournament the `referee` persona runs, starting in 30 days."""
    return make_tournament("Tournoi du référé", referees=[referee])


@pytest.fixture
def other_tournament(db, other_referee):
    return make_tournament("Tournoi de l'autre", referees=[other_referee])


@pytest.fixture
def entrant(db, tournament, club):
    """A player registered in `tournament`."""
    player = make_player("Martin", "Paul", club=club)
    register(tournament, player)
    return player


@pytest.fixture
def linked_player(db, player_user):
    """The `player_user` persona's federation record."""
    return make_player("Joueur", "Simple", user=player_user)


@pytest.fixture
def personas(db, board, referee, other_referee, player_user, linked_player, tournament, other_tournament):
    from django.contrib.auth.models import AnonymousUser

    return {"anonymous": AnonymousUser(), "player": player_user, "referee": referee, "other_referee": other_referee,
            "board": board}
