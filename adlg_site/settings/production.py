"""Deployment: secrets and hosts only from the environment, HTTPS everywhere."""

import os
import re

from django.core.exceptions import ImproperlyConfigured

from adlg_site.env import env_bool, env_email, env_list, env_url

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
# Players confirm their address and reset their password by email: a deployment that cannot send mail says so now.
if not os.environ.get("EMAIL_URL", "").strip():
    raise ImproperlyConfigured(
        "EMAIL_URL must be set in production: smtp://user:pass@host:587?tls=1 (or console:// to log messages)."
    )
DEFAULT_FROM_EMAIL = env_email("EMAIL_FROM", f"AdlG Federation <noreply@{ALLOWED_HOSTS[0].lstrip('.')}>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
SITE_URL = env_url("SITE_URL", f"https://{ALLOWED_HOSTS[0].lstrip('.')}")
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
