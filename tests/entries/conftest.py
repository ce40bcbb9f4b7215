"""Before the tournament: an announced tournament of the `referee` persona, its list checker, linked players."""

from __future__ import annotations

import io
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from openpyxl import Workbook

from tests.governance.factories import make_club, make_player, make_tournament
from tournaments.before.announcement import announcement_save
from tournaments.before.army_lists import army_list_submit
from tournaments.before.entries import entry_register
from tournaments.demo import list_pdf


def announce(tournament, user, **overrides):
    """Save an announcement that meets the charter, with `overrides`."""
    data = {
        "venue": "Salle des fêtes, 3 rue du Château",
        "game_minutes": 150,
        "duration_note": "",
        "list_deadline": tournament.start_date - timedelta(days=14),
        "list_checker": None,
        "lists_published": True,
        "first_round": "draw",
        "first_round_note": "",
        "pools": [{"name": "A", "theme": "Antiquity", "allowed_armies": ""}],
    }
    today = overrides.pop("today", None)
    data.update(overrides)
    return announcement_save(user=user, tournament=tournament, data=data, today=today)


def workbook_bytes(text: str = "Carthaginian") -> bytes:
    book = Workbook()
    book.active["A1"] = text
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def send(user, entry, **kwargs):
    """A list sent for `entry` by `user`: the official workbook of army no. 45, or what `kwargs` say."""
    values = {"army_name": "Carthaginian", "army_number": "45", "file_name": "list.xlsx", "data": workbook_bytes()}
    values.update(kwargs)
    if "url" in kwargs:
        values.pop("file_name"), values.pop("data")
    return army_list_submit(user=user, entry=entry, **values)


def after_deadline(deadline, days=1):
    """Midnight `days` after the deadline's day (before it when negative), as an aware datetime."""
    return timezone.make_aware(datetime.combine(deadline + timedelta(days=days), datetime.min.time()))


PDF = list_pdf("Later Carthaginian")  # a one-page PDF a reader opens, as a list builder prints


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def checker(django_user_model):
    return django_user_model.objects.create_user("checker", password="checker-pass-123")


@pytest.fixture
def tournament(db, referee, today):
    """A 200-point tournament of the `referee` persona, in 30 days."""
    return make_tournament("Tournoi des Listes", start=today + timedelta(days=30), referees=[referee])


@pytest.fixture
def announced(tournament, referee, checker):
    """`tournament` announced: lists by 14 days before the start (entries open), checked by `checker`."""
    announce(tournament, referee, list_checker=checker)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def club(db):
    return make_club("Les Hoplites")


@pytest.fixture
def linked_player(player_user, club):
    return make_player("Joueur", "Simple", user=player_user, club=club)


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("other_player", password="other-player-123")


@pytest.fixture
def other_linked(other_user, club):
    return make_player("Autre", "Joueur", user=other_user, club=club)


@pytest.fixture
def entry(announced, player_user, linked_player):
    """The `player_user` persona entered in pool A of `announced`."""
    return entry_register(user=player_user, tournament=announced, pool="A")
