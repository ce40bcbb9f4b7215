"""Sign in and out. Every sign-in, this page's and the admin's, is throttled by django-axes (settings: AXES_*).

Terms:
- *client address*: where the request comes from, as this site can trust it: REMOTE_ADDR, or behind reverse
  proxies of ours the address the outermost of them received the connection from (TRUSTED_PROXY_HEADER and
  TRUSTED_PROXY_COUNT). A client can write anything in X-Forwarded-For; only what our own proxies appended is
  read.
- *lockout*: after AXES_FAILURE_LIMIT failed sign-ins of one account from one client address, every attempt of
  that pair is refused, even with the right password, until AXES_COOLOFF_TIME has passed. The counts are rows in
  the database (django-axes' default handler), so sign-in does not depend on Redis.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from players import permissions
from tournaments.live.selectors import referees_a_live_run

LOCKED_OUT = _("Too many failed sign-in attempts. Wait 15 minutes, then try again.")


def client_address(request) -> str:
    """The client's address (see the module's terms); REMOTE_ADDR when the proxy header is absent or short."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    header = settings.TRUSTED_PROXY_HEADER
    count = settings.TRUSTED_PROXY_COUNT
    if not header or count < 1:
        return remote
    key = "HTTP_" + header.upper().replace("-", "_")
    hops = [hop.strip() for hop in request.META.get(key, "").split(",") if hop.strip()]
    if len(hops) < count:
        return remote
    candidate = hops[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # our proxy never writes anything but an address: a misconfiguration, not a client
        return remote


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


# Where a signed-in account has pages of its own: a `next` there is where it was sent from, and it goes back.
OWN_PAGES = ("/referee/", "/board/", "/admin/")


class LoginView(auth_views.LoginView):
    """Sign in. A referee lands on their tournament day's pages (referee:live_home, their tournament running live
    first), unless the sign-in came from one of the pages of the signed-in (`next` under OWN_PAGES); a player, a
    board member or any other account lands where they were (`next`, which the sign-in link carries)."""

    form_class = SignInForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get_success_url(self):
        url = self.get_redirect_url()
        if url and url.startswith(OWN_PAGES):
            return url
        user = self.request.user
        if permissions.is_referee(user) and (not permissions.is_board(user) or referees_a_live_run(user)):
            try:
                return reverse("referee:live_home")
            except NoReverseMatch:  # the referee's pages are not mounted
                pass
        return url or self.get_default_redirect_url()

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
