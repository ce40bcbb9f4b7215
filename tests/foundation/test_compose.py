"""No Docker engine runs here: check what can be checked of docker-compose.yml and the Dockerfile."""

import importlib
import re
import shlex
from pathlib import Path

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
