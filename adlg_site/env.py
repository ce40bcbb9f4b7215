"""Configuration read from the environment.

Every reader fails loudly (ImproperlyConfigured) on a value it cannot use, so a typo in a deployment
stops the process at start-up instead of running with a silent default.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use one of true/false, 1/0, yes/no, on/off.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if value < 0:
        raise ImproperlyConfigured(f"{name}={raw!r} must be 0 or more.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but empty: give a comma-separated list.")
    return items


def parse_database_url(url: str, *, base_dir: Path) -> dict:
    """Turn `sqlite:///path` or `postgres://user:pass@host:port/name` into a DATABASES entry."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # As in SQLAlchemy and dj-database-url: sqlite:///relative/path, sqlite:////absolute/path.
        raw_path = unquote(url[len("sqlite://"):])
        raw_path = raw_path[1:] if raw_path.startswith("/") else raw_path
        if raw_path in ("", "/"):
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no SQLite file: use sqlite:///path/to/db.sqlite3.")
        path = Path(raw_path)
        if not path.is_absolute():
            path = base_dir / path
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(path),
            # IMMEDIATE makes writers take the lock at BEGIN, so two imports queue instead of failing mid-way.
            "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
        }
    if scheme in ("postgres", "postgresql", "pgsql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no database: add /dbname at the end.")
        try:
            port = parts.port
        except ValueError as exc:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} has an invalid port.") from exc
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {scheme!r}; use sqlite:///path or postgres://user@host/name."
    )


def validate_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL={url!r} is not a redis://host:port/db URL.")
    try:
        _ = parts.port  # urlsplit checks the port only when it is read
    except ValueError as exc:
        raise ImproperlyConfigured(f"REDIS_URL={url!r} has an invalid port.") from exc
    return url
