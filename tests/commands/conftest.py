"""Fixtures of the command tests. Migrating a database takes seconds: it is done once per run (`migrated_sqlite`,
tests/conftest.py), and each test, or module, that runs commands in a process of their own copies the migrated file.
"""

from __future__ import annotations

import pytest

from tests.commands.cli import command_env, copy_database


@pytest.fixture
def fresh_cli_env(migrated_sqlite, tmp_path) -> dict[str, str]:
    """The environment of a command run on a freshly migrated database of the test's own."""
    return command_env(copy_database(migrated_sqlite, tmp_path))
