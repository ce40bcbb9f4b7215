"""Accounts as players make them: a user with a confirmed (or not) address, linked (or not) to a record."""

from __future__ import annotations

import itertools

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "a-long-player-pass-42"
_numbers = itertools.count(1)


def account(email: str | None = None, *, verified: bool = True, player=None):
    email = email or f"player{next(_numbers)}@example.org"
    user = get_user_model().objects.create_user(email.split("@")[0] + str(next(_numbers)), email=email,
                                                password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=verified, primary=True)
    if player is not None:
        player.user = user
        player.save(update_fields=["user"])
    return user
