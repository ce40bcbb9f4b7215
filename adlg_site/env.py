"""Configuration read from the environment.

Every reader fails loudly (ImproperlyConfigured) on a value it cannot use, so a typo in a deployment
stops the process at start-up instead of running with a silent default.
"""

from __future__ import annotations

import os
from email.utils import parseaddr
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


_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}
_EMAIL_OPTIONS = {"tls", "ssl", "timeout"}


def parse_email_url(url: str) -> dict:
    """Turn EMAIL_URL into Django's EMAIL_* settings (a dict of them, to update the settings module with).

    `console://` writes each message on the worker's standard output (a laptop); `smtp://user:pass@host:587?tls=1`
    sends through a server with STARTTLS (`?ssl=1`, or `smtps://host:465`, for implicit TLS); `?timeout=10` bounds
    each connection (10 seconds unless told). `locmem://` and `dummy://` keep or drop messages (tests). User and
    password are percent-decoded, as in DATABASE_URL.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _EMAIL_BACKENDS:
        raise ImproperlyConfigured(
            f"EMAIL_URL={url!r}: unsupported scheme {scheme!r}; use console:// or smtp://user:pass@host:587?tls=1."
        )
    config = {"EMAIL_BACKEND": _EMAIL_BACKENDS[scheme]}
    if scheme not in ("smtp", "smtps"):
        if parts.netloc or parts.query:
            raise ImproperlyConfigured(f"EMAIL_URL={url!r}: {scheme}:// takes no host and no options.")
        return config
    if not parts.hostname:
        raise ImproperlyConfigured(f"EMAIL_URL={url!r} names no server: use smtp://user:pass@host:587?tls=1.")
    try:
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"EMAIL_URL={url!r} has an invalid port.") from exc
    options = {}
    for pair in filter(None, parts.query.split("&")):
        name, _, value = pair.partition("=")
        name = name.lower()
        if name not in _EMAIL_OPTIONS:
            raise ImproperlyConfigured(f"EMAIL_URL={url!r}: unknown option {name!r}; use tls=1, ssl=1 or timeout=N.")
        options[name] = unquote(value).strip().lower()
    flags = {}
    for name in ("tls", "ssl"):
        raw = options.get(name, "0")
        if raw in _TRUE:
            flags[name] = True
        elif raw in _FALSE:
            flags[name] = False
        else:
            raise ImproperlyConfigured(f"EMAIL_URL={url!r}: {name}={raw!r} is not a boolean (1 or 0).")
    if scheme == "smtps":
        flags["ssl"] = True
    if flags["tls"] and flags["ssl"]:
        raise ImproperlyConfigured(f"EMAIL_URL={url!r}: choose tls=1 (STARTTLS) or ssl=1 (implicit TLS), not both.")
    timeout = options.get("timeout", "10")
    if not timeout.isdigit() or int(timeout) < 1:
        raise ImproperlyConfigured(f"EMAIL_URL={url!r}: timeout={timeout!r} is not a number of seconds.")
    config.update({
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if flags["ssl"] else 587 if flags["tls"] else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": flags["tls"],
        "EMAIL_USE_SSL": flags["ssl"],
        "EMAIL_TIMEOUT": int(timeout),
    })
    return config


def env_email(name: str, default: str) -> str:
    """An address to send from, `Name <user@host>` or `user@host`."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    _, address = parseaddr(raw.strip())
    local, _, domain = address.partition("@")
    if not local or not domain or " " in address:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an email address (user@host, or Name <user@host>).")
    return raw.strip()


def env_url(name: str, default: str) -> str:
    """An http(s) address with a host, such as the site's own (https://ratings.example.org)."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an http(s) address (https://host).")
    return raw.strip().rstrip("/")
