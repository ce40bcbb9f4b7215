"""Fixtures of the command tests. Migrating a database takes seconds: it is done once per run (`migrated_sqlite`,
tests/conftest.py), and each test, or module, that runs commands in a process of their own copies the migrated file.
"""

from __future__ import annotations

import pytest

from tests.commands.cli import command_env, copy_database, runs_by_command_line


@pytest.fixture
def fresh_cli_env(migrated_sqlite, tmp_path) -> dict[str, str]:
    """The environment of a command run on a freshly migrated database of the test's own."""
    return command_env(copy_database(migrated_sqlite, tmp_path))


@pytest.fixture(scope="module")
def bad_command_lines(migrated_sqlite, tmp_path_factory, request):
    """The module's BAD_COMMAND_LINES, each run on one migrated database of the module's own, all of them in one
    process (each refuses its input before writing anything): their CompletedProcess by argv."""
    env = command_env(copy_database(migrated_sqlite, tmp_path_factory.mktemp("bad-input")))
    return runs_by_command_line(request.module.BAD_COMMAND_LINES, env)
