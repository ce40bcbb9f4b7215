"""Sign in and out. Sign-in attempts are throttled so a password cannot be guessed by trying many.

Terms:
- *window*: 15 minutes from the first failed attempt of a username from one address.
- *limit*: 5 failed attempts per username and address in a window; after that every attempt is refused (even with
  the right password) until the window passes. One address may also fail at most 50 times in a window, whatever
  the usernames (password spraying).
The counters live in Django's cache (``CACHES["default"]``): with several web processes it must be a shared
cache (Redis or the database), not the per-process memory cache.
"""

from __future__ import annotations

import hashlib
import time

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import NoReverseMatch
from django.utils.translation import gettext_lazy as _

WINDOW_SECONDS = 15 * 60
MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_ADDRESS = 50


def _clock() -> float:
    return time.time()


def _client_address(request) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is set by the client unless a trusted proxy overwrites it.
    return request.META.get("REMOTE_ADDR", "")


def _keys(request, username: str) -> list[tuple[str, int]]:
    address = _client_address(request)
    user_key = hashlib.sha256(f"{username.strip().casefold()}|{address}".encode()).hexdigest()
    address_key = hashlib.sha256(address.encode()).hexdigest()
    return [(f"login-fail:u:{user_key}", MAX_FAILURES_PER_USERNAME),
            (f"login-fail:a:{address_key}", MAX_FAILURES_PER_ADDRESS)]


def _current(key: str) -> dict | None:
    entry = cache.get(key)
    if entry is None or _clock() - entry["first"] >= WINDOW_SECONDS:
        return None
    return entry


def login_blocked(request, username: str) -> bool:
    for key, limit in _keys(request, username):
        entry = _current(key)
        if entry is not None and entry["count"] >= limit:
            return True
    return False


def login_failed(request, username: str) -> None:
    for key, _limit in _keys(request, username):
        entry = _current(key) or {"first": _clock(), "count": 0}
        entry["count"] += 1
        cache.set(key, entry, timeout=WINDOW_SECONDS)


def login_succeeded(request, username: str) -> None:
    key, _limit = _keys(request, username)[0]
    cache.delete(key)


class ThrottledAuthenticationForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _("Too many failed sign-in attempts. Wait 15 minutes, then try again."),
    }

    def clean(self):
        username = self.data.get("username", "") or ""
        if login_blocked(self.request, username):
            raise ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError:
            login_failed(self.request, username)
            raise
        if self.get_user() is not None:
            login_succeeded(self.request, username)
        return cleaned


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        try:
            return super().get_default_redirect_url()
        except NoReverseMatch:  # the public home page is not mounted (yet)
            return "/"

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("__all__", "throttled"):
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """POST only (Django's default), so a link or an image on another site cannot sign anyone out."""

    def get_success_url(self):
        try:
            return super().get_success_url()
        except NoReverseMatch:
            return "/"
