"""What the tournament day's tests share: the referee's browser session."""

from __future__ import annotations

import pytest


@pytest.fixture
def signed_in(client, referee):
    """The test client signed in as the tournament's referee (the `referee` fixture of tests/conftest.py)."""
    client.force_login(referee)
    return client
