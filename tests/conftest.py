"""Shared fixtures: the personas every test meets (a board member, a referee, another referee, a player with an
account) and the switch that runs service tests only where services exist.

Tests marked `services` need PostgreSQL and Redis. On the embedded default they are skipped; when
REQUIRE_SERVICES=1 (CI's second pass) a missing service is a failure, never a silent skip.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest


def services_available() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


def pytest_configure(config):
    """Under pytest-xdist each worker has a test database of its own (pytest-django names it test_<name>_gw0,
    _gw1…) and, from here, a Redis database of its own: REDIS_URL's database number minus the worker's number
    (…/15 gives gw0 15 and gw1 14). Tests clear the cache (django-redis flushes the whole database), count throttled
    requests in it, and purge the broker's queue: one worker must not do that to the other's.

    Django's settings are loaded before any conftest (pytest-django), but the cache and Celery read them only when
    first used, which is later: the settings, and REDIS_URL for the processes tests start (a Celery worker), are
    rewritten here.

    With TEST_SQLITE_TEMPLATE (a migrated SQLite file), SQLite test databases are copied from it (below)."""
    if os.environ.get("TEST_SQLITE_TEMPLATE"):
        _sqlite_test_databases_copied_from(os.environ["TEST_SQLITE_TEMPLATE"])
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL")
    if not (worker.startswith("gw") and url):
        return
    from urllib.parse import urlsplit, urlunsplit

    from django.conf import settings

    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) - int(worker[2:])
    if number < 0:
        raise pytest.UsageError(f"REDIS_URL={url}: too few Redis databases below it for worker {worker}")
    url = urlunsplit(parts._replace(path=f"/{number}"))
    os.environ["REDIS_URL"] = url
    settings.REDIS_URL = url
    settings.CACHES["default"]["LOCATION"] = url
    settings.CELERY_BROKER_URL = url


def _sqlite_test_databases_copied_from(template: str) -> None:
    """On SQLite, each process's in-memory test database starts as a copy of `template`, a database file already
    migrated (CI migrates it once, beside the linters: .ci/run), as PostgreSQL's are copied from
    TEST_DATABASE_TEMPLATE: migrating took 8.5 s of CPU in each pytest process, copying takes milliseconds. Django's
    `migrate` still runs on the copy, and finds nothing left to apply; without the variable each process migrates."""
    import sqlite3
    from contextlib import closing

    from django.conf import settings
    from django.db.backends.sqlite3.creation import DatabaseCreation

    if not Path(template).is_file():
        raise pytest.UsageError(f"TEST_SQLITE_TEMPLATE={template}: no such database file")
    create = DatabaseCreation._create_test_db

    def create_from_template(self, verbosity, autoclobber, keepdb=False):
        name = create(self, verbosity, autoclobber, keepdb)
        if keepdb or not self.is_in_memory_db(name):
            return name
        # Django's own next steps (close, then the test name) done first, so that the copy lands in the connection
        # it keeps: an in-memory database lives as long as that connection, which Django never closes.
        self.connection.close()
        settings.DATABASES[self.connection.alias]["NAME"] = self.connection.settings_dict["NAME"] = name
        self.connection.ensure_connection()
        with closing(sqlite3.connect(template)) as source:
            source.backup(self.connection.connection)
        return name

    DatabaseCreation._create_test_db = create_from_template


def pytest_addoption(parser):
    parser.addoption(
        "--engine-tests-only", action="store_true",
        help="only the tests that reach the database, the cache or the broker (CI's PostgreSQL + Redis pass: a test "
             "that reaches none of them gives the same answer on every engine, and the SQLite pass ran it)")


# What a test reaches the database, the cache or the broker through (its fixtures' closure says it).
_ENGINE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "client",
                    "admin_client", "rf", "settings", "django_db_reset_sequences", "django_db_serialized_rollback"}


def _engine_tests_only(config, items):
    keep, drop = [], []
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        reaches = (_ENGINE_FIXTURES & fixtures or item.get_closest_marker("django_db") or "services" in item.keywords)
        # Command lines run in a process of their own on a SQLite file (tests/commands/cli.py), whatever the engine
        # of the pass: a test that only runs such command lines reaches the file, not the engine.
        if "migrated_sqlite" in fixtures and not _ENGINE_FIXTURES & fixtures:
            reaches = False
        (keep if reaches else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.hookimpl(trylast=True)  # after pytest's own reordering, which would undo the files' order
def pytest_collection_modifyitems(config, items):
    _unique_node_ids(items)
    if config.getoption("--engine-tests-only"):
        _engine_tests_only(config, items)
    _longest_files_first(items)
    if services_available():
        return
    required = os.environ.get("REQUIRE_SERVICES") == "1"
    for item in items:
        if "services" in item.keywords:
            if required:
                item.add_marker(pytest.mark.usefixtures("_fail_missing_services"))
            else:
                item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL=postgres://… and REDIS_URL"))


# A test's expected seconds, for the order below: a `slow` one, a browser one, any other (measured on CI's machine).
_EXPECTED_SECONDS = {"slow": 60.0, "browser": 4.0, "other": 0.3}


def _longest_files_first(items):
    """Under pytest-xdist the files are handed to the two workers in the order of the collection (make test passes
    --no-loadscope-reorder: xdist's own order, by number of tests, put the long single-test files, the browser
    acceptance tests among them, at the very end, where one worker ran them while the other had nothing left). The
    longest files go first and the short ones fill in at the end (longest processing time first). A file's length is
    estimated from its tests: `slow` (marked), browser (tests/browser), or other; the order within a file is kept.
    Only under xdist: a run in one process keeps the collection's order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    length: Counter[str] = Counter()
    for item in items:
        kind = "slow" if item.get_closest_marker("slow") else "browser" if "/browser/" in item.nodeid else "other"
        length[item.nodeid.split("::")[0]] += _EXPECTED_SECONDS[kind]
    items.sort(key=lambda item: -length[item.nodeid.split("::")[0]])  # stable: each file's order is kept


def _unique_node_ids(items):
    """schemathesis names the test of each API operation test_…[GET /api/…] but gives them all one node id, and
    pytest-xdist hands tests to its workers by node id: it would run one of them and drop the others silently. Such
    tests get their name (with its [GET /api/…]) as node id; any other duplicate stops the run."""
    counts = Counter(item.nodeid for item in items)
    for item in items:
        named = getattr(item, "originalname", item.name)
        if counts[item.nodeid] > 1 and item.name.startswith(f"{named}[") and item.name.endswith("]"):
            item._id = item._id.with_params(item.name[len(named) + 1:-1])  # pytest 9 builds node ids from this
    duplicates = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if duplicates:
        raise pytest.UsageError(f"tests sharing a node id, which pytest-xdist would run once: {duplicates[:5]}")


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


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """An empty SQLite database file with every migration applied by `manage.py migrate` in a process of its own,
    for the tests that run commands that way (tests/commands/cli.py): copy it, never write to it. Migrating takes
    9 s of CPU: once per run, the pytest-xdist workers sharing the file in the run's folder (the first to need it
    migrates it, the other waits for it); not at all when TEST_SQLITE_TEMPLATE names one migrated already (CI's)."""
    import fcntl
    import subprocess
    import sys

    from tests.commands.cli import ROOT, command_env

    if os.environ.get("TEST_SQLITE_TEMPLATE"):  # migrated once for the whole run already (.ci/run)
        return Path(os.environ["TEST_SQLITE_TEMPLATE"])

    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent  # each worker's folder is in the run's
    folder = run_folder / "cli-migrated"
    folder.mkdir(exist_ok=True)
    db, done = folder / "cli.sqlite3", folder / "migrated"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            for part in folder.glob(f"{db.name}*"):  # what a worker that failed to migrate left
                part.unlink()
            subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=command_env(db),
                           check=True, timeout=180)
            done.touch()
    return db


@pytest.fixture(autouse=True)
def _no_cached_filter_choices():
    """Each test starts without the rating list's cached filters: a rolled-back test's clubs must not live on.
    (Not cache.clear(): on CI's second pass the cache is the Redis database the worker's broker uses.)"""
    from ratings.selectors import filter_choices_forget

    filter_choices_forget()
    yield
