"""Test runs: same stack as local, fast password hashing, no persistent connections."""

import os

from .base import *  # noqa: F403
from .base import DATABASES, RATE_LIMITS
from .base import SECRET_KEY as _SECRET_KEY

SECRET_KEY = _SECRET_KEY or "test-only-not-secret"
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["CONN_MAX_AGE"] = 0
ALLOWED_HOSTS = ["*"]
# The suite sends thousands of requests from one address in a minute: its limits are far above them, and the
# tests of the limits (tests/foundation/test_limits.py) set the real ones.
RATE_LIMITS = {group: "100000/m" for group in RATE_LIMITS}
# A migrated database to copy each test database from (PostgreSQL's CREATE DATABASE … TEMPLATE), instead of
# migrating each: CI's PostgreSQL pass migrates one once for its three processes (.ci/run).
if os.environ.get("TEST_DATABASE_TEMPLATE"):
    DATABASES["default"]["TEST"] = {"TEMPLATE": os.environ["TEST_DATABASE_TEMPLATE"]}
# No open-data build after every replay of every test: the tests of the open data build it themselves.
OPEN_DATA_AFTER_CHANGES = False
# A test reads each change at its next request; tests/live/test_hall_reads.py sets the production delay.
LIVE_HALL_SETTLE_SECONDS = 0
