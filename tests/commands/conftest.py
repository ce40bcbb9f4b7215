"""Fixtures of the command tests. Migrating a database takes seconds: it is done once per run (`migrated_sqlite`),
and each test, or module, that runs commands in a process of their own copies the migrated file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.commands.cli import ROOT, command_env, copy_database


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An empty database file with every migration applied by `manage.py migrate`: copy it, never write to it."""
    db = tmp_path_factory.mktemp("cli-migrated") / "cli.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=command_env(db), check=True,
                   timeout=180)
    return db


@pytest.fixture
def fresh_cli_env(migrated_sqlite, tmp_path) -> dict[str, str]:
    """The environment of a command run on a freshly migrated database of the test's own."""
    return command_env(copy_database(migrated_sqlite, tmp_path))
