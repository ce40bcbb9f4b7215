"""django-allauth, fitted to the site: its emails leave through the worker, and accounts the board made in the
admin (the board's, referees') sign in with their usernames without an address to confirm.

- *send_mail*: allauth renders each message (the confirmation of an address, a password reset, "an account
  already exists") in the request, where the page's language and address are known; the worker sends it, after
  the request's transaction commits (players.mail.email_later). Nothing waits for a mail server.
- *email verification*: mandatory for every account that has an address on the site (players sign up with one);
  an account with none at all (made in the admin with a username) signs in as before. Such an account that adds
  an address must confirm it before its next sign-in.
- *links in an email*: built from settings.SITE_URL, never from the request's Host header (which a client
  writes: a forged one would mail a reset link to someone else's server).
- *after signing in*: a safe `next` (not the home page), else the page of the account's most specific role
  (players.context_processors.role_home).
- *a sign-up with an address the site knows*: answered as one with a new address (allauth's enumeration-safe
  flow, ACCOUNT_PREVENT_ENUMERATION); the owner of the address gets "an account already exists".
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend

# allauth's internals first: importing its stages before them is a circular import (the worker, which loads no
# allauth view, hit it).
from allauth.account.internal import flows  # noqa: F401, I001
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.core import context as allauth_context
from django.conf import settings
from django.urls import reverse

from adlg_site import words
from adlg_site.client import client_address
from players import notices
from players.accounts import account_language_remember
from players.context_processors import role_home
from players.mail import email_later
from players.models import SentEmail
from players.selectors import account_address, person_name


class VerifyAddressesStage(EmailVerificationStage):
    """allauth's stage, but for an account without any address (the board made it in the admin)."""

    def handle(self):
        # No user: a sign-up with an address that already has an account, which allauth's own stage answers as a
        # new one (its "account already exists" email, the same "check your email" page).
        if self.login.user is not None and not EmailAddress.objects.filter(user=self.login.user).exists():
            return None, True
        return super().handle()


class AuthenticationBackend(AllauthBackend):
    """allauth's backend (a username or an email address), checking each account's password at most once per
    sign-in. allauth's sign-in passes an address as both `username` and `email`, and its backend tries the address
    under each: a wrong password for a known address cost two hashings, for an unknown one a single decoy, and the
    time told which addresses have an account."""

    def authenticate(self, request, **credentials):
        self._checked = set()
        return super().authenticate(request, **credentials)

    def _check_password(self, user, password):
        if user is not None:
            if user.pk in self._checked:
                return None
            self._checked.add(user.pk)
        return super()._check_password(user, password)


class SiteOfTheLinks:
    """What allauth's email templates call the current site: its name (settings.SITE_NAME, in the email's
    language), its domain read from SITE_URL."""

    def __init__(self):
        self.domain = urlsplit(settings.SITE_URL).netloc
        self.name = str(settings.SITE_NAME)


def site_link(path: str) -> str:
    """An absolute address on the site for an email: SITE_URL and the path, whatever Host the request named."""
    return settings.SITE_URL.rstrip("/") + path


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        request = allauth_context.request
        rendered = {"request": request, "email": email}
        rendered.update(context)
        rendered["current_site"] = SiteOfTheLinks()
        rendered["site_url"] = settings.SITE_URL.rstrip("/")
        # The "unknown account" email's link is built by allauth from the request, past the methods below.
        if "signup_url" in rendered:
            rendered["signup_url"] = site_link(reverse("account_signup"))
        message = self.render_mail(template_prefix, email, rendered)
        email_later(message, record=self._recorded(message, email, context.get("user")))

    def _recorded(self, message, email: str, user) -> int | None:
        """The email in its account's record of emails (players.models.SentEmail), when the address has one."""
        if user is None or not getattr(user, "pk", None):
            user = next((row.user for row in EmailAddress.objects.filter(email__iexact=email).select_related("user")),
                        None)
        if user is None:
            return None
        return SentEmail.objects.create(user=user, address=email, kind=notices.ACCOUNT,
                                        language=words.language(), subject=str(message.subject)[:300]).pk

    def get_from_email(self) -> str:
        """The site's name, in the email's language, on the configured address (allauth's default has none)."""
        return notices.sender()

    def get_reset_password_from_key_url(self, key: str) -> str:
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return site_link(path.replace("UID-KEY", quote(key)))

    def get_email_confirmation_url(self, request, emailconfirmation) -> str:
        return site_link(reverse("account_confirm_email", args=[emailconfirmation.key]))

    def send_account_already_exists_mail(self, email: str) -> None:
        self.send_mail("account/email/account_already_exists", email, {
            "signup_url": site_link(reverse("account_signup")),
            "password_reset_url": site_link(reverse("account_reset_password")),
        })

    def is_safe_url(self, url) -> bool:
        """allauth's check of a `next`, and the home page is none: a sign-in from it lands on the role's page."""
        return url != "/" and super().is_safe_url(url)

    def get_login_redirect_url(self, request) -> str:
        """Without a `next`: the page of the account's most specific role (players.context_processors)."""
        return role_home(request.user)

    def get_email_verification_redirect_url(self, email_address) -> str:
        """A confirmed address lands on the account page, where finding one's record is the next step."""
        return reverse("account")

    def get_client_ip(self, request) -> str:
        """allauth's limits count per client address as django-axes does (never what a client wrote)."""
        return client_address(request) or "0.0.0.0"  # noqa: S104 - a key for counting, not an address to bind

    def get_login_stages(self) -> list[str]:
        stages = super().get_login_stages()
        own = f"{VerifyAddressesStage.__module__}.{VerifyAddressesStage.__qualname__}"
        return [own if stage == "allauth.account.stages.EmailVerificationStage" else stage for stage in stages]

    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            account_language_remember(user=user, language=words.language())
        return user


def user_display(user) -> str:
    """How allauth's pages and messages name an account ("Signed in as …"): the person's name, else the address it
    signs in with, else its username. A player who signed up with an address never chose a username (allauth
    makes one from the address), so none is shown to them."""
    return person_name(user) or account_address(user) or user.get_username()
