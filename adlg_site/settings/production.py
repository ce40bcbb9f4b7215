"""Deployment: secrets and hosts only from the environment, HTTPS everywhere."""

import os
import re

from django.core.exceptions import ImproperlyConfigured

from adlg_site.env import env_bool, env_list

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY", "")
_GENERATE = 'generate one with: python -c "import secrets; print(secrets.token_urlsafe(64))"'
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperlyConfigured(
        f"SECRET_KEY must be set to a random string of at least 50 characters in production: {_GENERATE}"
    )
# The placeholder of .env.example (and its like) is long enough to pass the test above, and public.
if re.search(r"change[-_ ]?me|placeholder|example|insecure|not[-_ ]?secret", SECRET_KEY, re.IGNORECASE):
    raise ImproperlyConfigured(
        f"SECRET_KEY is a placeholder (such as the one of .env.example), not a secret: {_GENERATE}"
    )
if "ALLOWED_HOSTS" not in os.environ:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set in production (comma-separated host names).")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [f"https://{host}" for host in ALLOWED_HOSTS])

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# seed_demo's accounts have known passwords (board/board, referee/referee).
SEED_DEMO_ALLOWED = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
