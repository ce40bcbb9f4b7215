import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from adlg_site.env import (
    env_bool,
    env_email,
    env_list,
    env_url,
    parse_database_url,
    parse_email_url,
    validate_redis_url,
)

ROOT = Path(__file__).resolve().parents[2]


def test_it_reads_a_sqlite_url_relative_to_the_project():
    config = parse_database_url("sqlite:///db/test.sqlite3", base_dir=ROOT)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(ROOT / "db/test.sqlite3")


def test_it_reads_an_absolute_sqlite_path():
    assert parse_database_url("sqlite:////tmp/x.sqlite3", base_dir=ROOT)["NAME"] == "/tmp/x.sqlite3"


def test_it_reads_a_postgres_url_with_credentials():
    config = parse_database_url("postgres://ann:s%40cret@db.example:6543/ratings", base_dir=ROOT)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"], config["NAME"]) == (
        "ann", "s@cret", "db.example", "6543", "ratings")


@pytest.mark.parametrize("url", ["mysql://x@y/z", "postgres://host/", "sqlite://", "postgres://h:notaport/db"])
def test_it_refuses_a_database_url_it_cannot_use(url):
    with pytest.raises(ImproperlyConfigured):
        parse_database_url(url, base_dir=ROOT)


@pytest.mark.parametrize("url", ["http://localhost:6379", "redis://", "redis://host:port/0"])
def test_it_refuses_a_bad_redis_url(url):
    with pytest.raises(ImproperlyConfigured):
        validate_redis_url(url)


def test_it_parses_booleans_strictly(monkeypatch):
    monkeypatch.setenv("DEBUG", "yes")
    assert env_bool("DEBUG", False) is True
    monkeypatch.setenv("DEBUG", "off")
    assert env_bool("DEBUG", True) is False
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured):
        env_bool("DEBUG", False)


def test_it_splits_allowed_hosts_and_refuses_an_empty_list(monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", "a.org, b.org")
    assert env_list("ALLOWED_HOSTS", []) == ["a.org", "b.org"]
    monkeypatch.setenv("ALLOWED_HOSTS", " , ")
    with pytest.raises(ImproperlyConfigured):
        env_list("ALLOWED_HOSTS", [])


def _settings_in_subprocess(module: str, env: dict) -> subprocess.CompletedProcess:
    code = "import django; django.setup(); from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER)"
    base = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": module}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True,
                          text=True, timeout=60)


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = _settings_in_subprocess("adlg_site.settings.production", {"ALLOWED_HOSTS": "x.org"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_bad_debug_value_stops_start_up():
    result = _settings_in_subprocess("adlg_site.settings.local", {"DEBUG": "perhaps"})
    assert result.returncode != 0
    assert "DEBUG='perhaps' is not a boolean" in result.stderr


def test_tasks_run_in_process_without_redis_and_on_the_broker_with_it():
    assert _settings_in_subprocess("adlg_site.settings.local", {}).stdout.strip() == "True"
    with_redis = _settings_in_subprocess("adlg_site.settings.local", {"REDIS_URL": "redis://127.0.0.1:6379/0"})
    assert with_redis.stdout.strip() == "False"


def _env_example_secret_key() -> str:
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.startswith("SECRET_KEY="):
            return line.removeprefix("SECRET_KEY=")
    raise AssertionError(".env.example has no SECRET_KEY line")


def test_production_settings_refuse_the_placeholder_key_of_env_example():
    placeholder = _env_example_secret_key()
    assert len(placeholder) >= 50  # long enough to pass a length check alone
    result = _settings_in_subprocess("adlg_site.settings.production",
                                     {"ALLOWED_HOSTS": "x.org", "SECRET_KEY": placeholder, "EMAIL_URL": "console://"})
    assert result.returncode != 0
    assert "SECRET_KEY is a placeholder" in result.stderr
    assert "secrets.token_urlsafe" in result.stderr


def test_production_settings_start_with_a_random_key():
    import secrets

    result = _settings_in_subprocess("adlg_site.settings.production",
                                     {"ALLOWED_HOSTS": "x.org", "SECRET_KEY": secrets.token_urlsafe(64),
                                      "EMAIL_URL": "smtp://adlg:s3cret@mail.x.org:587?tls=1"})
    assert result.returncode == 0, result.stderr


def test_production_settings_refuse_to_start_without_a_way_to_send_email():
    import secrets

    result = _settings_in_subprocess("adlg_site.settings.production",
                                     {"ALLOWED_HOSTS": "x.org", "SECRET_KEY": secrets.token_urlsafe(64)})
    assert result.returncode != 0
    assert "EMAIL_URL must be set in production" in result.stderr


def test_a_bad_email_url_stops_start_up():
    result = _settings_in_subprocess("adlg_site.settings.local", {"EMAIL_URL": "smtp://mail.x.org:587?tls=maybe"})
    assert result.returncode != 0
    assert "tls='maybe' is not a boolean" in result.stderr


def test_seed_demo_refuses_to_run_under_the_production_settings(tmp_path):
    import secrets

    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "adlg_site.settings.production",
           "ALLOWED_HOSTS": "x.org", "SECRET_KEY": secrets.token_urlsafe(64), "EMAIL_URL": "console://",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'never-created.sqlite3'}"}
    result = subprocess.run([sys.executable, "manage.py", "seed_demo"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1
    assert "refuses to run under the production settings" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "never-created.sqlite3").exists() or (tmp_path / "never-created.sqlite3").stat().st_size == 0


def test_a_bad_proxy_count_stops_start_up():
    result = _settings_in_subprocess("adlg_site.settings.local", {"TRUSTED_PROXY_COUNT": "two"})
    assert result.returncode != 0
    assert "TRUSTED_PROXY_COUNT='two' is not a whole number" in result.stderr


def test_it_reads_the_console_email_url():
    assert parse_email_url("console://") == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_it_reads_an_smtp_url_with_starttls_and_credentials():
    config = parse_email_url("smtp://ratings%40adlg.org:p%40ss@mail.example.org:587?tls=1")
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"], config["EMAIL_HOST_USER"], config["EMAIL_HOST_PASSWORD"]) == (
        "mail.example.org", 587, "ratings@adlg.org", "p@ss")
    assert (config["EMAIL_USE_TLS"], config["EMAIL_USE_SSL"], config["EMAIL_TIMEOUT"]) == (True, False, 10)


def test_it_reads_implicit_tls_and_default_ports():
    assert parse_email_url("smtps://mail.example.org")["EMAIL_PORT"] == 465
    assert parse_email_url("smtps://mail.example.org")["EMAIL_USE_SSL"] is True
    assert parse_email_url("smtp://mail.example.org?ssl=1&timeout=5")["EMAIL_TIMEOUT"] == 5
    assert parse_email_url("smtp://mail.example.org")["EMAIL_PORT"] == 25


@pytest.mark.parametrize("url", [
    "", "mail://x", "smtp://", "smtp://:587", "smtp://host:port", "smtp://host?tls=maybe", "smtp://host?tls=1&ssl=1",
    "smtp://host?starttls=1", "smtp://host?timeout=0", "console://host", "console://?x=1",
])
def test_it_refuses_an_email_url_it_cannot_use(url):
    with pytest.raises(ImproperlyConfigured):
        parse_email_url(url)


def test_it_checks_the_sender_and_the_sites_address(monkeypatch):
    monkeypatch.setenv("EMAIL_FROM", "AdlG Federation <ratings@adlg.org>")
    assert env_email("EMAIL_FROM", "x@y") == "AdlG Federation <ratings@adlg.org>"
    monkeypatch.setenv("EMAIL_FROM", "not an address")
    with pytest.raises(ImproperlyConfigured):
        env_email("EMAIL_FROM", "x@y")
    monkeypatch.setenv("SITE_URL", "https://ratings.adlg.org/")
    assert env_url("SITE_URL", "") == "https://ratings.adlg.org"
    monkeypatch.setenv("SITE_URL", "ratings.adlg.org")
    with pytest.raises(ImproperlyConfigured):
        env_url("SITE_URL", "")
