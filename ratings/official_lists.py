"""Issuing an official list: the rating list of one system as it stands, numbered, dated and frozen for ever.

Terms
-----
official list
    OfficialList and its OfficialListRow rows: a stored fact, copied from the live list when issued, never
    changed after (the ORM and the database refuse an update). The replay neither reads nor writes it.
live list
    The PlayerRating rows the replay keeps: the ratings after the last tournament rated.
in force
    The list of the latest date on or before a day (the highest number among lists of that date).

The worker issues one per system on the first of each month (ratings.tasks.issue_official_lists); the board
may issue one by hand (its page, audited). Whoever issues rebuilds the open data after (ratings.tasks). A list
is issued only when no replay is waiting: its figures are those of every change of the facts recorded so far,
and it says which one was the last (`last_request`).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from players.audit import audit_record
from ratings.models import OfficialList, OfficialListRow, PlayerRating, RatingSystem, ReplayLock, ReplayRequest
from ratings.rating_list import hidden_player_ids
from rules.words import Refused, gettext_noop

ROW_BATCH = 2000


class ListRefused(Refused):
    sentences = {
        "replay_waiting": gettext_noop("A replay of %(system)s is waiting or running: issue the list once the "
                                       "ratings are up to date."),
        "date_before_last": gettext_noop("The list's date cannot be before the last list's (%(last)s)."),
        "date_in_future": gettext_noop("The list's date cannot be after today."),
        "no_ratings": gettext_noop("No player is rated in %(system)s yet: there is nothing to list."),
    }


def list_issue(*, system: RatingSystem, user=None, on: date | None = None) -> OfficialList:
    """Issue the next official list of `system`, dated `on` (today by default), from the live list.

    Waits for a replay running on the system (its lock), and refuses while a replay is waiting: the list must hold
    every change of the facts recorded before it. Hidden players (excluded, merged, the spare) are not listed.
    """
    today = timezone.localdate()
    on = on or today
    if on > today:
        raise ListRefused.one("date_in_future")
    with transaction.atomic():
        ReplayLock.objects.get_or_create(system=system)
        ReplayLock.objects.select_for_update().get(system=system)
        if ReplayRequest.objects.filter(system=system, status__in=ReplayRequest.OPEN).exists():
            raise ListRefused.one("replay_waiting", system=system.name)
        last = OfficialList.objects.filter(system=system).order_by("-number").first()
        if last is not None and on < last.valid_from:
            raise ListRefused.one("date_before_last", last=last.valid_from.isoformat())
        rows = _live_rows(system)
        if not rows:
            raise ListRefused.one("no_ratings", system=system.name)
        official = OfficialList.objects.create(
            system=system, number=(last.number + 1) if last else 1, valid_from=on, issued_at=timezone.now(),
            issued_by=user if getattr(user, "is_authenticated", False) else None,
            last_request=ReplayRequest.objects.filter(system=system).aggregate(last=Max("id"))["last"],
            players=len(rows))
        for row in rows:
            row.official_list = official
        OfficialListRow.objects.bulk_create(rows, batch_size=ROW_BATCH)
        if official.issued_by is not None:
            audit_record(user=user, action="official_list_issue", obj=official,
                         summary=f"official list no. {official.number} of {system.code} dated {on.isoformat()}",
                         changes={"system": system.code, "number": official.number, "date": on.isoformat(),
                                  "players": official.players})
    return official


def _live_rows(system: RatingSystem) -> list[OfficialListRow]:
    """The live list of `system` as rows to freeze, best first: a position is one plus the players rated higher."""
    hidden = set(hidden_player_ids())
    live = (PlayerRating.objects.filter(system=system).order_by("-rating", "player_id")
            .values_list("player_id", "player__last_name", "player__first_name", "rating", "games", "rank_code",
                         "player__country_id", "player__club_id", "player__club__name", "last_played"))
    rows: list[OfficialListRow] = []
    position, previous = 0, None
    for index, (pid, last, first, rating, games, rank, country, club_id, club, played) in enumerate(
            (r for r in live.iterator(chunk_size=ROW_BATCH) if r[0] not in hidden), start=1):
        if rating != previous:
            position, previous = index, rating
        rows.append(OfficialListRow(position=position, player_id=pid, last_name=last, first_name=first or "",
                                    rating=rating, games=games, rank_code=rank, country_code=country or "",
                                    club_id_then=club_id, club_name=club or "", last_played=played))
    return rows


def monthly_lists_issue(*, on: date | None = None) -> list[OfficialList]:
    """The worker's lists of the month: one per system that has none of this date yet (safe to run twice)."""
    on = on or timezone.localdate()
    issued = []
    for system in RatingSystem.objects.all():
        if OfficialList.objects.filter(system=system, valid_from=on).exists():
            continue
        if not PlayerRating.objects.filter(system=system).exists():
            continue
        issued.append(list_issue(system=system, on=on))
    return issued

