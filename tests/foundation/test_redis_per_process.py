"""On CI's second pass the cache and the broker are Redis: each test process (each pytest-xdist worker) has a Redis
database of its own, as it has a test database of its own (tests/conftest.py), so that one process clearing the
cache or purging the queue does not do it to the other's tests."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.services


def test_the_cache_and_the_broker_use_the_redis_database_of_this_process():
    import redis
    from django.core.cache import cache

    from adlg_site.celery import app

    url = os.environ["REDIS_URL"]  # under pytest-xdist, already the worker's own (tests/conftest.py)
    assert app.conf.broker_url == url
    key = f"which-database-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    cache.set(key, "here", 30)
    try:
        assert redis.Redis.from_url(url).exists(cache.make_and_validate_key(key)) == 1
    finally:
        cache.delete(key)
