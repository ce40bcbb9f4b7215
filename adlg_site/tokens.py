"""The site's one scheme for secrets handed to a person: a player's private link of a tournament day
(tournaments.live.links), a claim token and the board's claim code (players.claims). A secret is stored nowhere in
clear: the database holds its SHA-256 digest, and a secret presented is found by its digest (docs/decisions.md,
"Secrets at rest").

    secret_new()                  a random secret (32 bytes, URL-safe: 43 characters)
    derived_secret(purpose, salt) a secret that can be made again: HMAC-SHA256 of the salt under SECRET_KEY, for a
                                  secret the site must print again (a private link on a reprinted slip)
    digest(secret)                what is stored
    find(queryset, secret)        the row whose `digest` is the secret's, or None (a malformed secret finds nothing)

A digest is one-way and the secrets are 256 bits of randomness (or HMAC output), so a plain SHA-256 needs no salt
or stretching: a leaked database gives no secret, and a leaked database with no SECRET_KEY gives no derived one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings

SECRET_BYTES = 32
MAX_SECRET_LENGTH = 200


def secret_new() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def salt_new() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def derived_secret(purpose: str, salt: str) -> str:
    """The secret `salt` stands for, made again whenever needed; `purpose` keeps two uses of one salt apart."""
    mac = hmac.new(settings.SECRET_KEY.encode("utf-8"), f"{purpose}:{salt}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def find(queryset, secret: str, *, field: str = "digest"):
    """The row of `queryset` holding the secret's digest in `field`, or None."""
    if not secret or len(secret) > MAX_SECRET_LENGTH:
        return None
    return queryset.filter(**{field: digest(secret)}).first()
