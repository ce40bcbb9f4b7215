"""Reads about players for the public pages: the name search, looking a player up (following merges), the
public notices of red cards. A player's history (ratings, tournaments, championship) is ratings.player_history's.

Terms
-----
public player
    One that may appear on public pages (Player.objects.public()): not excluded, not merged into another
    record, not the spare (99).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet

from adlg_site.inputs import whole_number
from players.models import SPARE_ID, Player, Sanction
from tournaments.models import Tournament

MAX_MERGE_HOPS = 10


def is_public(player: Player | None) -> bool:
    return (player is not None and player.excluded_at is None and player.merged_into_id is None
            and player.id != SPARE_ID)


def player_search_q(query: str, *, prefix: str = "") -> Q:
    """Every word of `query` in the first or last name; a number also matches the ID exactly."""
    words = query.split()
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}last_name__icontains": word}) | Q(**{f"{prefix}first_name__icontains": word})
    number = whole_number(query)
    if number is not None:
        condition |= Q(**{f"{prefix}id": number})
    return condition


def player_search(*, query: str) -> QuerySet[Player]:
    """Public players whose names contain every word of `query` (or whose ID it is), by name."""
    return (Player.objects.public().filter(player_search_q(query)).select_related("club", "country")
            .order_by("last_name", "first_name", "id"))


def player_by_exact_id(*, query: str) -> Player | None:
    number = whole_number(query)
    if number is None:
        return None
    return Player.objects.public().filter(pk=number).first()


@dataclass(frozen=True)
class PlayerLookup:
    """The player to show, or the record a merged duplicate now lives in (a redirect), or neither (a 404)."""

    player: Player | None = None
    redirect_to: int | None = None


def player_lookup(*, player_id: int) -> PlayerLookup:
    player = Player.objects.select_related("club", "country").filter(pk=player_id).first()
    if player is None or player.id == SPARE_ID or player.excluded_at is not None:
        return PlayerLookup()
    if player.merged_into_id is None:
        return PlayerLookup(player=player)
    target = player
    for _ in range(MAX_MERGE_HOPS):  # a chain of merges ends on the record that holds the history now
        target = Player.objects.filter(pk=target.merged_into_id).first()
        if target is None or target.merged_into_id is None:
            break
    return PlayerLookup(redirect_to=target.id) if is_public(target) else PlayerLookup()


# --- public notices -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PublicNotice:
    """A red card as the public sees it (RULES.md §8): when and at which tournament, never who."""

    decided_on: date
    tournament: Tournament | None


def public_notices() -> list[PublicNotice]:
    """Every red card in force, newest first, in one query. Only the date and the tournament are read: the
    player, the reason and the author never leave the database for this page."""
    tournaments = {}
    rows = (Sanction.objects.filter(kind=Sanction.RED).order_by("-decided_on", "-id")
            .values_list("decided_on", "tournament_id", "tournament__name", "tournament__start_date",
                         "tournament__end_date", "tournament__city"))
    notices = []
    for decided_on, tid, name, start, end, city in rows:
        if tid is not None and tid not in tournaments:
            tournaments[tid] = Tournament(id=tid, name=name, start_date=start, end_date=end, city=city)
        notices.append(PublicNotice(decided_on=decided_on, tournament=tournaments.get(tid)))
    return notices
