"""django-allauth, fitted to the site: its emails leave through the worker, and accounts the board made in the
admin (the board's, referees') sign in with their usernames without an address to confirm.

- *send_mail*: allauth renders each message (the confirmation of an address, a password reset, "an account
  already exists") in the request, where the page's language and address are known; the worker sends it, after
  the request's transaction commits (players.tasks.email_later). Nothing waits for a mail server.
- *email verification*: mandatory for every account that has an address on the site (players sign up with one);
  an account with none at all (made in the admin with a username) signs in as before. Such an account that adds
  an address must confirm it before its next sign-in.
"""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter

# allauth's internals first: importing its stages before them is a circular import (the worker, which loads no
# allauth view, hit it).
from allauth.account.internal import flows  # noqa: F401, I001
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.core import context as allauth_context
from django.contrib.sites.shortcuts import get_current_site
from django.urls import reverse

from adlg_site import words
from adlg_site.client import client_address
from players.accounts import account_language_remember
from players.tasks import email_later


class VerifyAddressesStage(EmailVerificationStage):
    """allauth's stage, but for an account without any address (the board made it in the admin)."""

    def handle(self):
        if not EmailAddress.objects.filter(user=self.login.user).exists():
            return None, True
        return super().handle()


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        request = allauth_context.request
        rendered = {"request": request, "email": email, "current_site": get_current_site(request)}
        rendered.update(context)
        email_later(self.render_mail(template_prefix, email, rendered))

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
