"""The players' private links (PAIRING.md §6, 2026-11-26): every entrant has one, printed on their slip as a link
and a QR code; whoever holds it sees the player's table and enters their result, with no account. A link works
only for its tournament while it runs; the referee revokes one by issuing the entrant a new one.

Terms
-----
token
    The link's secret: 32 random bytes, URL-safe (43 characters), one per entrant, unique on the site.
path
    The link relative to the site's root: /tournaments/<tournament>/live/me/<token>/.
"""

from __future__ import annotations

import secrets

from django.db import transaction

from players.audit import audit_record
from tournaments.live.pools import bump, locked
from tournaments.models import LiveEntrant, LiveTournament

TOKEN_BYTES = 32


def link_token_new() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def entrant_link_path(entrant: LiveEntrant) -> str:
    """The entrant's private link, relative to the site's root (its token made first if it has none yet)."""
    if not entrant.link_token:
        links_issue(entrant.live)
        entrant.refresh_from_db(fields=["link_token"])
    return f"/tournaments/{entrant.live_id}/live/me/{entrant.link_token}/"


def links_issue(live: LiveTournament) -> int:
    """Give every entrant of the tournament without a link one; returns how many were made."""
    missing = list(LiveEntrant.objects.filter(live=live, link_token__isnull=True))
    for entrant in missing:
        entrant.link_token = link_token_new()
    LiveEntrant.objects.bulk_update(missing, ["link_token"])
    return len(missing)


def link_reissue(live: LiveTournament, entrant: LiveEntrant, *, user=None) -> LiveEntrant:
    """Revoke the entrant's link and give them a new one (a slip lost, a link shared): the old one stops at once."""
    with transaction.atomic():
        live = locked(live)
        entrant = LiveEntrant.objects.select_for_update().get(pk=entrant.pk, live=live)
        entrant.link_token = link_token_new()
        entrant.save(update_fields=["link_token"])
        audit_record(user=user, action="live_link_reissue", obj=live.tournament,
                     summary=f"{entrant}: private link revoked and a new one issued", changes={"entrant": entrant.pk})
        bump(live)
    return entrant


def entrant_by_link(tournament_id: int, token: str) -> LiveEntrant | None:
    """The entrant a private link names, while its tournament runs live; None for any other link (revoked,
    another tournament's, a tournament published or not run live)."""
    if not 0 < tournament_id < 2**31 or not token or len(token) > 64:
        return None
    return (LiveEntrant.objects.select_related("live__tournament__system")
            .filter(live_id=tournament_id, link_token=token, live__published_at__isnull=True,
                    live__handed_over_at__isnull=True).first())
