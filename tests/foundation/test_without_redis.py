"""With Redis unreachable the site works: pages and sign-in answer (the cache degrades to a miss), an upload and
its confirmation go through with a true message, and enqueueing a replay never holds a request more than about
a second (the request row and the sweep guarantee the replay).

"Redis down" is a closed port on this machine (127.0.0.1:6390): the shared Redis is never touched."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import transaction
from django.urls import reverse

from ratings import tasks
from tests import factories as f
from tests.referee.helpers import create_known_players, make_tournament, upload, valid_sheet
from tournaments.models import Sheet

ROOT = Path(__file__).resolve().parents[2]
CLOSED = "redis://127.0.0.1:6390/14"

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": CLOSED,
            "KEY_PREFIX": "adlg",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
        }
    }
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False


def test_the_rating_list_answers_without_redis(client, redis_down):
    player = f.player("Martin")
    f.rating(player, value=1500)
    f.renumber_positions()
    response = client.get("/ratings/adlg/")
    assert response.status_code == 200
    assert "Martin" in response.content.decode()


def test_sign_in_works_without_redis(client, referee, redis_down):
    response = client.post(reverse("login"), {"login": "referee", "password": "referee-pass-123"})
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_sign_in_is_still_throttled_without_redis(client, referee, redis_down):
    for _ in range(5):
        client.post(reverse("login"), {"login": "referee", "password": "wrong"})
    response = client.post(reverse("login"), {"login": "referee", "password": "referee-pass-123"})
    assert response.status_code == 429


def test_an_upload_and_its_confirmation_go_through_without_redis(client, referee, redis_down,
                                                                 django_capture_on_commit_callbacks):
    known = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[known[pid] for pid in (101, 102, 104)])
    client.force_login(referee)
    assert upload(client, valid_sheet(tournament).build()).status_code == 302
    sheet = Sheet.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("referee:sheet_confirm", args=[sheet.pk]), {"acknowledge": "on"})
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
    sheet.refresh_from_db()
    assert sheet.status in (Sheet.IMPORTED, Sheet.REPLAYED)


@pytest.mark.django_db(transaction=True)  # the import must really commit for an on-commit hook to fail after it
def test_a_failure_after_the_commit_says_the_sheet_was_imported(client, referee, monkeypatch):
    known = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[known[pid] for pid in (101, 102, 104)])
    client.force_login(referee)
    upload(client, valid_sheet(tournament).build())
    sheet = Sheet.objects.get()
    from tournaments.sheets import views as referee_views

    real_import = referee_views.sheet_import

    def import_then_fail_after_commit(**kwargs):
        outcome = real_import(**kwargs)

        def broken():
            raise ConnectionError("Redis is down")

        transaction.on_commit(broken)  # not robust: it raises once the import has committed
        return outcome

    monkeypatch.setattr(referee_views, "sheet_import", import_then_fail_after_commit)
    response = client.post(reverse("referee:sheet_confirm", args=[sheet.pk]), {"acknowledge": "on"})
    sheet.refresh_from_db()
    assert sheet.status in (Sheet.IMPORTED, Sheet.REPLAYED)
    assert response["Location"] == reverse("referee:sheet_status", args=[sheet.pk])
    page = client.get(response["Location"]).content.decode()
    assert "The sheet was imported" in page
    assert "nothing was changed" not in page


def test_enqueueing_holds_the_request_at_most_a_second_whatever_the_broker_does(monkeypatch):
    from adlg_site.celery import app

    monkeypatch.setattr(tasks.replay_system, "delay", lambda code: time.sleep(5))  # a broker that never answers
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        start = time.monotonic()
        tasks.enqueue_replay("adlg")
        assert time.monotonic() - start < 1.5
    finally:
        app.conf.task_always_eager = eager


def test_a_closed_broker_port_fails_the_enqueue_within_a_second():
    code = ("import time, django; django.setup(); from ratings.tasks import enqueue_replay, _send\n"
            "start = time.monotonic(); _send('adlg'); print(time.monotonic() - start)")
    env = {**os.environ, "REDIS_URL": CLOSED, "DJANGO_SETTINGS_MODULE": "adlg_site.settings.test",
           "DATABASE_URL": "sqlite:///unused.sqlite3"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert float(result.stdout.strip().splitlines()[-1]) < 1.0  # 19 s before: the result backend retried
