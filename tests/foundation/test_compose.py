"""No Docker engine runs here: check what can be checked of docker-compose.yml and the Dockerfile."""

import importlib
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_it_defines_the_five_services():
    assert set(COMPOSE["services"]) == {"web", "worker", "beat", "postgres", "redis"}


def test_the_three_python_services_share_one_image():
    images = {COMPOSE["services"][name]["image"] for name in ("web", "worker", "beat")}
    assert images == {"adlg-site:latest"}
    assert all(COMPOSE["services"][name]["build"] == "." for name in ("web", "worker", "beat"))


def test_every_service_but_beat_has_a_healthcheck_and_data_lives_in_volumes():
    for name in ("web", "worker", "postgres", "redis"):
        assert "test" in COMPOSE["services"][name]["healthcheck"], name
    assert set(COMPOSE["volumes"]) == {"postgres-data", "redis-data"}
    assert "--appendonly yes" in COMPOSE["services"]["redis"]["command"]




def test_every_command_names_a_module_that_exists():
    web = COMPOSE["services"]["web"]["command"]
    wsgi = re.search(r"gunicorn (\S+):(\w+)", web)
    assert getattr(importlib.import_module(wsgi.group(1)), wsgi.group(2)) is not None
    for name in ("worker", "beat"):
        argv = shlex.split(COMPOSE["services"][name]["command"])
        app_module = argv[argv.index("-A") + 1]
        assert importlib.import_module(app_module).celery_app.main == "adlg_site"


def test_every_settings_module_named_exists_and_production_is_used():
    assert COMPOSE["x-app"]["environment"]["DJANGO_SETTINGS_MODULE"] == "adlg_site.settings.production"
    for name in ("web", "worker", "beat"):
        assert COMPOSE["services"][name]["environment"]["DJANGO_SETTINGS_MODULE"] == "adlg_site.settings.production"
    assert importlib.util.find_spec("adlg_site.settings.production") is not None
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "DJANGO_SETTINGS_MODULE=adlg_site.settings.production" in dockerfile


def test_the_beat_schedule_names_tasks_that_exist():
    from adlg_site.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]


def test_the_yearly_downgrade_runs_at_half_past_eleven_on_new_years_eve_in_paris():
    schedule = settings.CELERY_BEAT_SCHEDULE["close-year"]["schedule"]
    assert schedule.minute == {30} and schedule.hour == {23}
    assert schedule.day_of_month == {31} and schedule.month_of_year == {12}
    assert settings.CELERY_TIMEZONE == "Europe/Paris"


def test_the_healthcheck_url_answers(client):
    assert client.get("/healthz").status_code == 200


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def production_gunicorn(tmp_path):
    """gunicorn as the container starts it (gunicorn.conf.py from the project's folder, the production settings:
    HTTPS redirect on, ALLOWED_HOSTS a public name), one worker, on a free port of 127.0.0.1."""
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "adlg_site.settings.production",
           "SECRET_KEY": "ci-" + "k3y-f0r-the-healthcheck-test-0123456789-abcdefghijklmnop",
           "ALLOWED_HOSTS": "ratings.example.org", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "EMAIL_URL": "console://"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "adlg_site.wsgi:application",
                               "--bind", f"127.0.0.1:{port}", "--workers", "1"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.poll() is None:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield port, env
    finally:
        server.terminate()
        server.wait(10)


def _healthcheck(port: int, env: dict) -> subprocess.CompletedProcess:
    """The compose file's own healthcheck command, aimed at `port`."""
    check = COMPOSE["services"]["web"]["healthcheck"]["test"]
    assert check[:3] == ["CMD", "python", "-c"]
    return subprocess.run([sys.executable, "-c", check[3].replace("8000", str(port))], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)


def test_the_web_healthcheck_passes_under_the_production_settings(production_gunicorn):
    """It failed: plain HTTP to 127.0.0.1 was redirected to HTTPS, and 127.0.0.1 is not an allowed host."""
    result = _healthcheck(*production_gunicorn)
    assert result.returncode == 0, result.stderr[-2000:]


def test_a_slow_client_does_not_hold_the_worker(production_gunicorn):
    port, env = production_gunicorn
    slow = socket.create_connection(("127.0.0.1", port))
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: ratings.example.org\r\n")  # and never ends its headers
        start = time.monotonic()
        result = _healthcheck(port, env)
        assert result.returncode == 0, result.stderr[-2000:]
        assert time.monotonic() - start < 5
    finally:
        slow.close()


def test_gunicorns_settings_are_read_from_one_file_and_bound_slow_clients():
    settings_file = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings_file)  # noqa: S102 - our own settings file
    assert settings_file["worker_class"] == "gthread" and settings_file["threads"] >= 4
    assert settings_file["timeout"] <= 30 and settings_file["keepalive"] <= 5
    web = COMPOSE["services"]["web"]["command"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    bench = (ROOT / "bench" / "live_load.py").read_text()  # the tournament day is measured as it is served
    for option in ("--timeout", "--workers", "--keep-alive", "--threads", "--worker-class"):  # nothing overrides it
        assert option not in web and option not in dockerfile and option not in bench
    assert "WORKDIR /app" in dockerfile and "COPY . ." in dockerfile  # the file is in gunicorn's folder
