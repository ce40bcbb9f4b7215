"""A player's own account: its settings (the emails it wants, in which language) and closing it.

Terms
-----
account settings
    ``AccountSettings``: whether the account hears that a tournament of its player was rated (on unless turned
    off), and the language of its emails (the page's language when it signed up, then what it chooses).
closing an account
    The owner deletes their account: the user row, its addresses, its sessions and django-axes' records of its
    sign-ins (addresses and browsers) go; the federation record it
    was linked to stays (a fact of the federation), unlinked; its requests stay in the history, without the
    account. Audited. The board's and referees' accounts are the board's to close, in the admin: a referee named
    on tournaments is a fact of those tournaments.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.db import transaction
from django.db.models import Q

from players.audit import audit_record
from players.models import AccountSettings, Player, PlayerClaim
from rules.words import Refused, gettext_noop


class AccountError(Refused, ValueError):
    """A refused step; its sentence says why and what to do instead."""

    sentences = {
        "board_account": gettext_noop("A technical board account is closed by another board member, in the "
                                      "administration."),
        "referee": gettext_noop("You are a referee of tournaments on the site: ask the technical board to close your "
                                "account."),
    }


def account_settings(user) -> AccountSettings:
    """The account's settings, its defaults when it never saved any (not stored until it does)."""
    found = AccountSettings.objects.filter(user=user).first()
    return found or AccountSettings(user=user)


def account_settings_save(*, user, rating_emails: bool, language: str) -> AccountSettings:
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    row, _created = AccountSettings.objects.update_or_create(
        user=user, defaults={"rating_emails": rating_emails, "language": language})
    return row


def account_language_remember(*, user, language: str) -> None:
    """At sign-up: the emails speak the language the account was made in, until it chooses."""
    if language in dict(settings.LANGUAGES):
        AccountSettings.objects.get_or_create(user=user, defaults={"language": language})


def close_problem(user) -> AccountError | None:
    """Why this account cannot close itself, or None."""
    if user.is_staff or user.is_superuser:
        return AccountError.one("board_account")
    if user.refereed_tournaments.exists():
        return AccountError.one("referee")
    return None


def account_close(*, user) -> int | None:
    """Delete the account; its player record stays, unlinked. Returns the record's ID (None if it had none)."""
    problem = close_problem(user)
    if problem:
        raise problem
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user=user).first()
        player_id = player.pk if player is not None else None
        if player is not None:
            player.user = None
            player.save(update_fields=["user"])
        PlayerClaim.objects.filter(user=user, status=PlayerClaim.PENDING).update(status=PlayerClaim.CANCELLED)
        account = user.pk
        audit_record(user=None, action="account_close", object_type="auth.User", object_id=str(account),
                     summary=(f"Account {account} closed by its owner" +
                              (f"; player {player_id} unlinked, the record kept" if player_id else "")),
                     changes={"player": player_id} if player_id else {})
        _sign_in_records_delete(user)
        user.delete()
    return player_id


def _sign_in_records_delete(user) -> None:
    """django-axes' rows of the account (its sign-ins and failures, with the client's address and browser): kept
    by name, they would outlive the account. Its name as axes counted it: the username, or an address."""
    names = {user.get_username().casefold(), *(address.casefold() for address in
                                                EmailAddress.objects.filter(user=user).values_list("email", flat=True))}
    if user.email:
        names.add(user.email.casefold())
    names.discard("")
    named = Q()
    for name in names:
        named |= Q(username__iexact=name)
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(named).delete()
