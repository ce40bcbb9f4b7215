"""Sign in and out. Every sign-in, this page's and the admin's, is throttled by django-axes (settings: AXES_*).

Terms:
- *client address*: adlg_site.client.client_address, the one the whole site counts by (AXES_CLIENT_IP_CALLABLE).
- *lockout*: after AXES_FAILURE_LIMIT failed sign-ins of one account from one client address, every attempt of
  that pair is refused, even with the right password, until AXES_COOLOFF_TIME has passed. The counts are rows in
  the database (django-axes' default handler), so sign-in does not depend on Redis.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.urls import NoReverseMatch
from django.utils.translation import gettext_lazy as _

LOCKED_OUT = _("Too many failed sign-in attempts. Wait 15 minutes, then try again.")


def attempted_username(request, credentials: dict) -> str:
    """The username as counted: 'Board', 'board ' and 'BOARD' are one account's attempts."""
    username = (credentials or {}).get("username") or ""
    return str(username).strip().casefold()


class SignInForm(AuthenticationForm):
    """Django's form; the lockout is django-axes' business (locked_out below)."""


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out attempt: the sign-in page, saying why, with status 429. The form is
    not bound: validating it would authenticate again, and count one more failure."""
    username = str((credentials or {}).get("username") or request.POST.get("username") or "")
    return render(
        request,
        "registration/login.html",
        {
            "form": SignInForm(request, initial={"username": username}),
            "locked_out": LOCKED_OUT,
            "next": request.POST.get("next") or request.GET.get("next", ""),
        },
        status=429,
    )


class LoginView(auth_views.LoginView):
    form_class = SignInForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        try:
            return super().get_default_redirect_url()
        except NoReverseMatch:  # the public home page is not mounted (yet)
            return "/"


class LogoutView(auth_views.LogoutView):
    """POST only (Django's default), so a link or an image on another site cannot sign anyone out."""

    def get_success_url(self):
        try:
            return super().get_success_url()
        except NoReverseMatch:
            return "/"
