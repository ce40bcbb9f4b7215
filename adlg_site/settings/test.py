"""Test runs: same stack as local, fast password hashing, no persistent connections."""

from .base import *  # noqa: F403
from .base import DATABASES
from .base import SECRET_KEY as _SECRET_KEY

SECRET_KEY = _SECRET_KEY or "test-only-not-secret"
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["CONN_MAX_AGE"] = 0
ALLOWED_HOSTS = ["*"]
