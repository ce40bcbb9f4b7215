"""The derived tables skip PostgreSQL's write-ahead log (UNLOGGED): crash recovery empties them, and the site
must notice and rebuild them from the facts. A crash is simulated the way recovery leaves the tables: empty."""

from datetime import date

import pytest
from django.apps import apps
from django.db import connection

from championship.models import ChampionshipResult, ChampionshipTotal
from ratings import tasks
from ratings.models import DerivedRowsMark, PlayerRating, RatingCount, RatingEvent, RatingSystem, ReplayRequest
from ratings.services import replay_from_scratch
from tests.ratings.helpers import derived_state, imported, roster, sheet
from tournaments.models import Standing, TournamentOutcome

pytestmark = pytest.mark.django_db(transaction=True)

DERIVED = [RatingEvent, PlayerRating, RatingCount, DerivedRowsMark, Standing, TournamentOutcome,
           ChampionshipResult, ChampionshipTotal]


def _crash_recovery() -> None:
    """What PostgreSQL's recovery does to unlogged tables: all of them emptied at once."""
    tables = [model._meta.db_table for model in DERIVED]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")  # noqa: S608 - names from the models


def _federation() -> dict:
    roster()
    early = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Cup", start=date(2024, 7, 6), two_pools=True, new_players=early.new_players))
    return derived_state()


def test_on_postgresql_exactly_the_derived_tables_are_unlogged():
    if connection.vendor != "postgresql":
        pytest.skip("table persistence is PostgreSQL's")
    project = [model for app in ("players", "ratings", "tournaments", "championship")
               for model in apps.get_app_config(app).get_models()]
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, relpersistence FROM pg_class WHERE relkind = 'r'")
        persistence = dict(cursor.fetchall())
    unlogged = {model.__name__ for model in project if persistence[model._meta.db_table] == "u"}
    assert unlogged == {model.__name__ for model in DERIVED}


def test_every_replay_marks_its_system_as_stored():
    stored = _federation()
    assert DerivedRowsMark.objects.filter(system_id="adlg").exists()
    assert stored["events"] and stored["standings"] and stored["results"]


def test_the_sweep_rebuilds_derived_rows_a_crash_emptied_exactly_as_they_were(monkeypatch):
    stored = _federation()
    _crash_recovery()
    assert not PlayerRating.objects.exists()
    # Battle Empire has no facts: nothing to rebuild there.
    assert tasks.sweep_replay_requests() == ["adlg"]
    request = ReplayRequest.objects.order_by("-id").first()
    assert (request.system_id, request.since, request.status) == ("adlg", None, ReplayRequest.DONE)
    assert derived_state() == stored
    assert DerivedRowsMark.objects.filter(system_id="adlg").exists()
    assert tasks.sweep_replay_requests() == []  # a second sweep finds nothing lost


def test_the_sweep_leaves_a_lost_system_with_an_open_request_to_it(monkeypatch):
    _federation()
    _crash_recovery()
    monkeypatch.setattr(tasks, "enqueue_replay", lambda code: None)  # the broker holds the request
    ReplayRequest.objects.create(system_id="adlg", since=date(2024, 7, 7), reason="a correction")
    assert tasks.sweep_replay_requests(older_than_seconds=60) == []
    assert ReplayRequest.objects.count() == ReplayRequest.objects.filter(status=ReplayRequest.DONE).count() + 1


def test_a_replay_from_a_date_after_a_crash_rebuilds_everything_not_from_an_empty_history():
    _federation()
    _crash_recovery()
    # A sheet arrives before the sweep has run: its replay asks for "from 5 October on" only.
    imported(sheet(name="Autumn Open", start=date(2024, 10, 5)))
    after_crash = derived_state()
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert after_crash == derived_state()
    assert {event[4] for event in after_crash["events"]} >= {date(2024, 3, 17), date(2024, 10, 6)}
