"""Reads of a live tournament for the read API and the `live_*` commands: what the public may see of it.

Terms
-----
public ID
    How a live player is named outside the site's pages: their federation ID; for a player new to the federation
    (no ID before publication) the tag `N<entrant row>`, the tag the official workbook gives them, so that the
    `new_players` of the publication's report ({"N12": 2345}) says which ID each one received. The spare is 99.
public round
    A published round (LiveRound.published_at set). A proposed round is the referee's draft: never shown.

The tournament itself is read by tournaments.live_selectors.live_view, as the pages read it: the API and the
commands show its published rounds and the standings after its complete rounds.
"""

from __future__ import annotations

from django.db.models import QuerySet

from rules.rulesets import SPARE_ID
from tournaments.models import LiveEntrant, LiveTournament

SPARE_NAME = "Spare"


def public_id(entrant: LiveEntrant | None) -> int | str:
    """The federation ID, the tag N<row> of a player new to the federation, or 99 for the spare (None)."""
    if entrant is None:
        return SPARE_ID
    return entrant.player_id if entrant.player_id is not None else f"N{entrant.pk}"


def entrant_name(entrant: LiveEntrant | None) -> str:
    return SPARE_NAME if entrant is None else str(entrant)


def live_find(tournament_id: int) -> LiveTournament | None:
    if not 0 < tournament_id < 2**63:  # the ID is a foreign key: the database would not take a larger number
        return None
    return LiveTournament.objects.select_related("tournament__system", "tournament__country").filter(
        pk=tournament_id).first()


def live_list(*, running: bool | None = None) -> QuerySet[LiveTournament]:
    """The tournaments run live, the latest first; `running`: not yet published (True) or published (False)."""
    rows = LiveTournament.objects.select_related("tournament__country", "tournament__system")
    if running is not None:
        rows = rows.filter(published_at__isnull=running)
    return rows.order_by("-tournament__start_date", "-tournament_id")
