from __future__ import annotations

import uuid

import pytest


@pytest.fixture(autouse=True)
def _own_rate_limits(settings):
    """allauth counts sign-ups and emails per address in the cache: each test starts with its own, empty cache (a
    fresh local-memory one, never the shared Redis of CI's second pass)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"accounts-{uuid.uuid4()}"}}
