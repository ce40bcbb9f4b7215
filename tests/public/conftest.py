"""Fixtures of the public pages and API tests: a small federation, and a visitor reading English or French."""

from __future__ import annotations

import pytest

from tests import factories


@pytest.fixture
def federation(db):
    """Six players from France, Belgium and Italy, one rated tournament, championship totals of 2024."""
    return factories.federation(6)


@pytest.fixture
def visitor(client):
    """An anonymous visitor whose browser asks for English."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def french_visitor(client):
    """An anonymous visitor whose browser asks for French."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    return client


def text(response) -> str:
    return response.content.decode()
