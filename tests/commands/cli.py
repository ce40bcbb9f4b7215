"""The command line as a referee runs it: `python manage.py …` in a process of its own, on a SQLite file."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def command_env(db: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{db}",
            "DJANGO_SETTINGS_MODULE": "adlg_site.settings.local"}


def copy_database(template: Path, folder: Path) -> Path:
    """The file and its write-ahead log, if the migrating process left one (journal_mode=WAL)."""
    for part in template.parent.glob(f"{template.name}*"):
        shutil.copy(part, folder / part.name)
    return folder / template.name
