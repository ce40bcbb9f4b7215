"""Finishing a live day in the spreadsheet (PAIRING.md §7): the venue lost the network, or the referee
prefers Excel for the last rounds. The referee downloads the workbook so far, hands the day over, fills the
workbook in and uploads it like any result sheet.

Terms
-----
hand-over
    The live run stops changing (every service of the day refuses it, as a published run) and no longer holds
    the sheet import back: an upload of the tournament is checked and imported as any sheet. The public live
    page says the results will come from the referee's sheet. Nothing is deleted: the rounds stay readable and
    the workbook so far downloadable.
take back
    Undoing a hand-over, while no sheet of the tournament is imported: the day goes on on the site where it
    stopped.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from tournaments.live.pools import bump, locked, published_round_count
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveTournament
from tournaments.selectors import results_on_site


def live_hand_over(live: LiveTournament, *, user=None) -> LiveTournament:
    """Hand the day over to the spreadsheet (see the module's terms); done once, refused once published."""
    with transaction.atomic():
        live = locked(live, handed_over=True)
        if live.handed_over_at is not None:
            return live
        live.handed_over_at = timezone.now()
        live.handed_over_by = user
        live.save(update_fields=["handed_over_at", "handed_over_by"])
        rounds = published_round_count(live)
        audit_record(user=user, action="live_hand_over", obj=live.tournament,
                     summary=f"live day handed over to the spreadsheet after {rounds} published round(s)",
                     changes={"published_rounds": rounds})
        bump(live)
    return live


def live_take_back(live: LiveTournament, *, user=None) -> LiveTournament:
    """Go on with the day on the site; refused once a sheet of the tournament is imported."""
    with transaction.atomic():
        live = locked(live, handed_over=True)
        if live.handed_over_at is None:
            return live
        if results_on_site(live.tournament):
            raise LiveRefused.one("sheet_imported_after_hand_over")
        live.handed_over_at = None
        live.handed_over_by = None
        live.save(update_fields=["handed_over_at", "handed_over_by"])
        audit_record(user=user, action="live_take_back", obj=live.tournament,
                     summary="live day taken back from the spreadsheet", changes={})
        bump(live)
    return live
