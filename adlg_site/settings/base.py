"""Settings shared by every environment; the environment variables decide the rest."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab
from django.utils.translation import gettext_lazy

from adlg_site.env import (
    env_bool,
    env_email,
    env_int,
    env_list,
    env_url,
    parse_database_url,
    parse_email_url,
    validate_redis_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "axes",
    "allauth",
    "allauth.account",
    "players",
    "tournaments",
    "ratings",
    "championship",
]

MIDDLEWARE = [
    # First: the container's healthcheck, over plain HTTP on 127.0.0.1, is answered before the HTTPS redirect and
    # the host check (adlg_site.middleware).
    "adlg_site.middleware.healthz",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session is read (its cookie is a query too) and any view reads a parameter: a NUL character,
    # which PostgreSQL refuses in text, answers 400 (adlg_site.middleware).
    "adlg_site.middleware.refuse_nul",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A service's Forbidden, let through by a view, is the 403 page (adlg_site.middleware).
    "adlg_site.middleware.ForbiddenAs403",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Every sign-in (the site's, django-allauth's, and the admin's) goes through authenticate(), where django-axes
# counts failures before any password is checked. allauth's backend is Django's ModelBackend that also takes an
# email address: players sign in with their email, the board and referees with their usernames (either works).
# The site's subclass checks a password once per sign-in, whether the account was named by address or username.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "players.account_adapter.AuthenticationBackend",
]
# 5 failed sign-ins of one account from one client address lock that pair out for 15 minutes, even with the
# right password; a success clears the count. Per account *and* address: someone guessing a board member's
# password from elsewhere cannot lock the board member out. The counts live in the database (axes' default
# handler), so sign-in works without Redis.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "players.account_views.attempted_username"
AXES_CLIENT_IP_CALLABLE = "adlg_site.client.client_address"
AXES_LOCKOUT_CALLABLE = "players.account_views.locked_out"
AXES_VERBOSE = False
# The client's address: REMOTE_ADDR, unless the site runs behind reverse proxies that append the address they
# received the connection from to a header (X-Forwarded-For): then TRUSTED_PROXY_HEADER names that header and
# TRUSTED_PROXY_COUNT how many proxies of ours append to it. Anything a client writes in the header itself
# stands to the left of what our proxies wrote, and is never read.
TRUSTED_PROXY_HEADER = os.environ.get("TRUSTED_PROXY_HEADER", "").strip()
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1 if TRUSTED_PROXY_HEADER else 0)
# Everything that counts requests per client reads it from adlg_site.client.client_address.

# Per-client rate limits (adlg_site.limits): a signed-in account, or a client address, per group. Counted in the
# cache, atomically; with the cache unreachable a request passes (a limit must not take the site down with Redis).
RATE_LIMITS = {
    # The whole read API, per client: a script reading every page of a list stays far below it.
    "api": "300/m",
    # The public player search (the one page whose query a visitor writes freely): a person types a few a minute,
    # and a tournament hall behind one address shares the count.
    "search": "120/m",
    # Private links that lead nowhere (a token revoked, mistyped or made up), per address: failures only, so a
    # hall's phones opening their links behind one address are never refused; a script trying tokens meets the
    # limit long before it could find one (2^256 of them).
    "live_link": "240/m",
    # What is sent at one private link (a result entered, an account linked), per link, from wherever: a player
    # enters their table once a round and corrects it once or twice.
    "live_link_post": "20/m",
    # A claim token's page and the claim code's form, per account (both need one) or address: a person opens a
    # link or types a code a few times; a script trying codes meets the limit long before one (2^80 of them).
    "claim_token": "10/m",
    # The form that writes to the technical board, per account or address: a person writes a few messages a day.
    "board_write": "5/h",


    # The tournament day. A hall's phones share the venue Wi-Fi's one address (a mobile carrier's NAT puts many
    # phones behind one too), so the limits are per address as generous as a full hall needs, and each group has
    # its own count: one client that exhausts the searches leaves the polls of everyone else behind its address
    # alone. Every limit is far above what a person does and far below what a script at full speed sends.
    # The polled fragment, the big screen, the clock's face and a visitor's live page are not limited: they are
    # read from the cache (the live run's row and the parts rendered once per change of the day), a 304 without
    # a query, and a hall of 300 phones behind one address must never be refused them.
    # What costs on the live page: a search (?q=, matched against the current tables worked out once per
    # version), a signed-in account's page (its own table read from the whole day, counted per account) and the
    # public draw checks (a pairing re-run). A player searches for their table at a round's publication; 128
    # players each searching within the same minute are 128. Five a second from one client is about a tenth of a
    # core, not the whole server.
    "live_page": "300/m",
    # A player's own result (signed in, so counted per account, not per address): one a round, a correction or
    # two. More than one every three seconds is a script.
    "live_claim": "20/m",
    # The referee's search of the federation's players on the day's players page (per account): a referee
    # checking a hall in adds a player every few seconds at most.
    "live_find": "120/m",
    # The read API of the live tournaments (tournaments.live.api), apart from the rest of the API, at the 600 a
    # minute it had: each answer is built afresh (no ETag, no shared rendering), so the hall's phones read the
    # page's fragment, and a script following the day stays far below it.
    "live_api": "600/m",
    # Wrong current passwords on the signed-in account's forms (changing the password, closing the account), per
    # account, both forms together: a stolen session cannot guess the password there. Only failures count.
    "current_password": "5/15m",
}
RATELIMIT_FAIL_OPEN = True

# Content-Security-Policy (django-csp): scripts only from the site itself; inline style attributes are allowed
# (pages and charts use them), inline scripts are not. No page may be framed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "adlg_site.urls"
WSGI_APPLICATION = "adlg_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "players.context_processors.account",
            ],
        },
    },
]

DATABASES = {
    "default": parse_database_url(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), base_dir=BASE_DIR
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FIXTURE_DIRS = [BASE_DIR / "fixtures"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True
# One date format per language (adlg_site/formats/<lang>/formats.py): templates write {{ day|date }}.
FORMAT_MODULE_PATH = ["adlg_site.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Players' own accounts (django-allauth, its account app only: no social providers). A player signs up with an
# email address, which must be confirmed before the first sign-in; the board and referees keep their usernames
# (accounts made in the admin, which have no address to confirm: players.account_adapter). Every message leaves
# through the worker, never inside the request (players.account_adapter.AccountAdapter.send_mail).
ACCOUNT_ADAPTER = "players.account_adapter.AccountAdapter"
ACCOUNT_USER_DISPLAY = "players.account_adapter.user_display"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# A new player, once their address is confirmed, lands on their account page: finding their record is next.
ACCOUNT_SIGNUP_REDIRECT_URL = "account"
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "AdlG · "
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_FORMS = {"login": "players.account_views.SignInForm"}
# allauth's limits live in the cache and refuse everything when Redis is down (after waiting a second for a
# lock). Sign-in is django-axes' to throttle, in the database: allauth's sign-in limits are off, so sign-in works
# without Redis as before. Its limits on what sends email (sign-ups, reset and confirmation emails, address
# changes) stay: without Redis the worker's queue is down too, and no email could leave anyway. A password change is
# counted by the site instead, wrong current passwords only, per account (RATE_LIMITS["current_password"]):
# allauth's limit counted every change, right ones too, 5 a minute.
ACCOUNT_RATE_LIMITS = {"login_failed": None, "login": None, "change_password": None}

# Email (EMAIL_URL, adlg_site.env.parse_email_url): the console locally, the federation's SMTP server in
# production (where it is required). Sent by the worker only (players.tasks.send_email).
_EMAIL = parse_email_url(os.environ.get("EMAIL_URL") or "console://")
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST = _EMAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _EMAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _EMAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _EMAIL.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = _EMAIL.get("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_email("EMAIL_FROM", "AdlG Federation <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address as emails the worker writes link to it (no request there to read it from).
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000")
# The name every email and its sender speak in (players.notices, allauth's emails), in the recipient's language.
SITE_NAME = gettext_lazy("AdlG Federation")
# Where a message written to the board with the site's form goes (BOARD_EMAILS, comma-separated), besides the
# board's queue page; none set: the confirmed addresses of the board's accounts.
BOARD_EMAILS = [a.strip() for a in os.environ.get("BOARD_EMAILS", "").split(",") if a.strip()]

# Result sheets are refused above 5 MB (RESULT_SHEET.md); the request body limit stops bigger uploads
# before Django reads them into memory.
SHEET_MAX_BYTES = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = SHEET_MAX_BYTES + 512 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = SHEET_MAX_BYTES + 512 * 1024
# Result sheets one account may send in an hour, on the upload page and the API together (counted in the
# database: tournaments.sheets.upload_limits).
SHEET_UPLOADS_PER_HOUR = 30
# Uploads that were never imported (rejected, or checked and never confirmed) are deleted, file and report,
# this many days after they were sent; imported sheets are kept for good.
SHEET_UNIMPORTED_KEPT_DAYS = 30
# seed_demo creates accounts with known passwords (board/board): the production settings forbid it.
SEED_DEMO_ALLOWED = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # A service's refusal (rules.words.Refused) answers 403 (Forbidden) or 400, worded in the reader's language.
    "EXCEPTION_HANDLER": "adlg_site.api_base.exception_handler",
    # Every API view counts against RATE_LIMITS["api"] for its client (adlg_site.limits); a view that names its
    # own throttle_classes lists it too.
    "DEFAULT_THROTTLE_CLASSES": ["adlg_site.limits.ClientRateThrottle"],
    # DRF's own throttles (get_ident) read X-Forwarded-For only as far as our proxies wrote it; never otherwise.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT if TRUSTED_PROXY_HEADER.casefold() == "x-forwarded-for" else 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "AdlG federation ratings API",
    "DESCRIPTION": "Ratings, tournaments and championships of L'Art de la Guerre and Battle Empire.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Celery: with REDIS_URL the broker is Redis and a worker runs the tasks; without it they run in-process.
REDIS_URL = os.environ.get("REDIS_URL")
# The cache only saves work (the rating list's filter choices, the live fragment) and holds the per-client rate
# limits' counts. With Redis unreachable, django-redis answers every read as a miss and drops every write
# (IGNORE_EXCEPTIONS): the pages are computed from the database and the limits let requests through. Every call
# is bounded by a quarter of a second (connecting and reading), and a failure opens a breaker (adlg_site.cache):
# for CACHE_RETRY_SECONDS the process does not call Redis at all, so a Redis that accepts connections and never
# answers costs what a closed port costs. The breaker logs one line when it opens (at most every
# CACHE_LOG_SECONDS), not a traceback per request.
CACHES = {
    "default": (
        {
            "BACKEND": "adlg_site.cache.BreakerRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "adlg",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.25,
                "SOCKET_TIMEOUT": 0.25,
            },
        }
        if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
CACHE_RETRY_SECONDS = 5
CACHE_LOG_SECONDS = 60
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False
if REDIS_URL:
    CELERY_BROKER_URL = validate_redis_url(REDIS_URL)
    # No result backend: nothing reads a task's return value (a replay's state is its ReplayRequest row), and
    # Redis's result backend retried for many seconds on every enqueue while Redis was down.
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://localhost/"  # a host, or kombu warns on every start
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
# A request that commits facts enqueues their replay after the commit: with the broker down, the publish gives
# up within about a second instead of kombu's default of retrying for several (a confirm waited 19 s). The
# request row is the durable part and the sweep enqueues it again (ratings.requests).
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    # Two connection attempts at most when a message is sent, each given half a second to connect, and every
    # command half a second to be answered: a Redis that accepts connections and never answers no longer holds a
    # sending thread (ratings.tasks.enqueue_replay) forever. The worker's BRPOP waits in the event loop, not on
    # this timeout.
    "socket_connect_timeout": 0.5,
    "socket_timeout": 0.5,
    "max_retries": 1,
    "interval_start": 0,
}
CELERY_TASK_IGNORE_RESULT = True
# The open-data downloads are built again by the worker after each replay and each official list.
OPEN_DATA_AFTER_CHANGES = True
# The calibration page's numbers are worked out again by the worker after each replay.
CALIBRATION_AFTER_REPLAY = True
# What a tournament day's hall reads (the public live page, its polled fragment, the players' places at their
# private links) is built again at most once in these seconds while the day keeps changing, for its latest change
# (tournaments.live.hall_parts.shared_or_earlier), in a thread behind the poll that finds it missing (0: for the
# request that asks, as the tests do). A player's own table is always read afresh.
LIVE_HALL_SETTLE_SECONDS = 3
CELERY_BEAT_SCHEDULE = {
    "close-year": {
        "task": "ratings.tasks.close_year_task",
        "schedule": crontab(minute=30, hour=23, day_of_month=31, month_of_year=12),
    },
    "sweep-replay-requests": {
        "task": "ratings.tasks.sweep_replay_requests",
        "schedule": 60.0,
    },
    "purge-unimported-sheets": {
        "task": "tournaments.tasks.purge_unimported_sheets",
        "schedule": crontab(minute=45, hour=3),
    },
    "expire-yellow-cards": {
        "task": "players.tasks.expire_yellow_cards",
        "schedule": crontab(minute=15, hour=3),
    },
    # "Your tournament was rated": the replay records which tournaments it rated; this sends what a lost
    # message left behind (the replay's task enqueues the sending itself).
    "send-rating-emails": {
        "task": "ratings.tasks.send_rating_emails",
        "schedule": 300.0,
    },
    # Before the tournament: the reminder of a missing list (once per entry), the lists published (once per
    # entry), the list checkers' digest of new lists (once per tournament, checker and day). Each is idempotent:
    # the hourly run sends only what no earlier run sent.
    # The official rating lists of the month (ratings.official_lists), at five past midnight on the 1st.
    "issue-official-lists": {
        "task": "ratings.tasks.issue_official_lists",
        "schedule": crontab(minute=5, hour=0, day_of_month=1),
    },
    "before-the-day-emails": {
        "task": "tournaments.tasks.send_before_the_day_emails",
        "schedule": crontab(minute=5),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # No secret of a URL (a private link, a claim token) reaches a log line (adlg_site.log_filters).
    "filters": {"private_links": {"()": "adlg_site.log_filters.PrivateLinkFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["private_links"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Eager tasks log one line per run at INFO; the replay logs its own summary.
    "loggers": {
        "celery.app.trace": {"level": "WARNING"},
        # axes logs every sign-in at INFO; its lockouts (WARNING) are what an operator needs.
        "axes": {"level": "WARNING"},
        # The loggers that write a request's path, filtered where the record is made, before any handler (Django's
        # own debug console included) sees it. The development server's lines go to the same console.
        "django.request": {"filters": ["private_links"]},
        "django.server": {"filters": ["private_links"], "handlers": ["console"], "propagate": False},
    },
}
