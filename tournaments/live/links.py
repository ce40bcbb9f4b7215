"""The players' private links (PAIRING.md §6, 2026-11-26): every entrant has one, printed on their slip as a link
and a QR code; whoever holds it sees the player's table and enters their result, with no account. A link works
only for its tournament while it runs; the referee revokes one by issuing the entrant a new one.

Terms
-----
token
    The link's secret: 43 URL-safe characters, one per entrant, unique on the site. Stored nowhere: the entrant
    holds a random salt, the token is the salt's HMAC under the SECRET_KEY (adlg_site.tokens.derived_secret), so
    the site prints it again on a reprinted slip, and the page finds the entrant by the token's digest. A database
    read alone gives no link (docs/decisions.md, "Secrets at rest").
path
    The link relative to the site's root: /tournaments/<tournament>/live/me/<token>/.
finished
    A link of a tournament day published or handed over leads nowhere for results; for LINKING_DAYS after the
    tournament's last day its page still offers a signed-in account to link the record (players.claims), the
    link being the proof.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from adlg_site import tokens
from players.audit import audit_record
from tournaments.live.hall_row import live_row
from tournaments.live.pools import bump, locked
from tournaments.models import LiveEntrant, LiveTournament

PURPOSE = "live-link"
# How long after its tournament's last day a private link still links an account to its record.
LINKING_DAYS = 60


def _salted(entrant: LiveEntrant) -> None:
    entrant.link_salt = tokens.salt_new()
    entrant.link_digest = tokens.digest(tokens.derived_secret(PURPOSE, entrant.link_salt))


def link_salt_new(entrant: LiveEntrant) -> None:
    """Give an entrant not yet saved its private link."""
    _salted(entrant)


def entrant_link_token(entrant: LiveEntrant) -> str:
    """The entrant's token, made again from its salt (one made first if it has none, or only a digest)."""
    if not entrant.link_salt:
        links_issue(entrant.live)
        entrant.refresh_from_db(fields=["link_salt", "link_digest"])
    return tokens.derived_secret(PURPOSE, entrant.link_salt)


def entrant_link_path(entrant: LiveEntrant) -> str:
    """The entrant's private link, relative to the site's root."""
    return f"/tournaments/{entrant.live_id}/live/me/{entrant_link_token(entrant)}/"


def links_issue(live: LiveTournament) -> int:
    """Give every entrant of the tournament without a printable link one; returns how many were made."""
    missing = list(LiveEntrant.objects.filter(live=live, link_salt__isnull=True))
    for entrant in missing:
        _salted(entrant)
    LiveEntrant.objects.bulk_update(missing, ["link_salt", "link_digest"])
    return len(missing)


def link_reissue(live: LiveTournament, entrant: LiveEntrant, *, user=None) -> LiveEntrant:
    """Revoke the entrant's link and give them a new one (a slip lost, a link shared): the old one stops at once."""
    with transaction.atomic():
        live = locked(live)
        entrant = LiveEntrant.objects.select_for_update().get(pk=entrant.pk, live=live)
        _salted(entrant)
        entrant.save(update_fields=["link_salt", "link_digest"])
        audit_record(user=user, action="live_link_reissue", obj=live.tournament,
                     summary=f"{entrant}: private link revoked and a new one issued", changes={"entrant": entrant.pk})
        bump(live)
    return entrant


def _entrant(tournament_id: int, token: str):
    if not 0 < tournament_id < 2**31 or not token or len(token) > 64:
        return None
    # The day's row from the hall's cache (written again at every change of the day): a hall's links read only
    # their entrant's row, not the tournament's, its system and its country with it.
    live = live_row(tournament_id)
    if live is None:
        return None
    entrant = tokens.find(LiveEntrant.objects.select_related("player").filter(live_id=tournament_id), token,
                          field="link_digest")
    if entrant is not None:
        entrant.live = live
    return entrant


def entrant_by_link(tournament_id: int, token: str) -> LiveEntrant | None:
    """The entrant a private link names, while its tournament runs live; None for any other link (revoked,
    another tournament's, a tournament published or not run live)."""
    entrant = _entrant(tournament_id, token)
    if entrant is None or link_finished(entrant.live):
        return None
    return entrant


def link_finished(live: LiveTournament) -> bool:
    return live.published_at is not None or live.handed_over_at is not None


def finished_entrant_by_link(tournament_id: int, token: str, *, today: date | None = None) -> LiveEntrant | None:
    """The entrant a private link of a finished tournament day names, while it may still link an account to the
    entrant's record (LINKING_DAYS after the tournament's last day); None otherwise."""
    entrant = _entrant(tournament_id, token)
    if entrant is None or not link_finished(entrant.live):
        return None
    if (today or timezone.localdate()) > entrant.live.tournament.end_date + timedelta(days=LINKING_DAYS):
        return None
    return entrant


def published_entrant_by_link(tournament_id: int, token: str) -> LiveEntrant | None:
    """The entrant a private link names once their tournament is published, however long ago: the link then leads
    to the final standings for good (PAIRING.md §7, decision of 2026-12-02: a permanent redirect, never a bare
    404); None for a link that names nobody."""
    entrant = _entrant(tournament_id, token)
    if entrant is None or entrant.live.published_at is None:
        return None
    return entrant
