"""Reads about players for the public pages: the name search, looking a player up (following merges), the
public notices of red cards. A player's history (ratings, tournaments, championship) is ratings.player_history's.

Terms
-----
public player
    One that may appear on public pages (Player.objects.public()): not excluded, not merged into another
    record, not the spare (99).
name search
    Every word of the query, folded (rules.names: accents and case ignored), in the player's folded name
    (Player.search_name); a query that is an ID also finds that ID. The one search of the site: the public search,
    the rating list and its API, the admin, the referee's pages of the tournament day. Never an error, whatever is
    typed (a NUL byte, "²", 10,000 characters): rules.names.search_words keeps what can be searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from allauth.account.models import EmailAddress
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from adlg_site.inputs import whole_number
from players.models import SPARE_ID, Club, Player, Sanction
from rules.names import name_key, search_words
from tournaments.models import Tournament

MAX_MERGE_HOPS = 10


def is_public(player: Player | None) -> bool:
    return (player is not None and player.excluded_at is None and player.merged_into_id is None
            and player.id != SPARE_ID)


def player_search_q(query: str, *, prefix: str = "") -> Q:
    """The name search (see the module's terms) as a condition on players, or on the rows whose `prefix` leads to
    a player ("player__"). A query with nothing to search matches no one."""
    words = search_words(query)
    if not words:
        return Q(pk__in=[])
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}search_name__contains": word})
    player_id = whole_number(query, minimum=1)
    if player_id is not None:
        condition |= Q(**{f"{prefix}id": player_id})
    return condition


def player_search(*, query: str) -> QuerySet[Player]:
    """Public players whose names contain every word of `query` (or whose ID it is), by name."""
    return (Player.objects.public().filter(player_search_q(query)).select_related("club", "country")
            .order_by("last_name", "first_name", "id"))


def players_like(*, last_name: str, first_name: str = "", limit: int = 8) -> list[Player]:
    """Public players a new player's name resembles: the same last name, accents and case aside (the first name's
    initial, when given, puts those who share it first). Shown before a "new" player is added as new."""
    words = search_words(last_name)
    if not words:
        return []
    found = list(Player.objects.public().filter(player_search_q(" ".join(words)))
                 .select_related("club", "country").order_by("last_name", "first_name", "id")[:50])
    last = name_key(last_name)
    found = [p for p in found if last in name_key(p.last_name)]
    initial = name_key(first_name)[:1]
    found.sort(key=lambda p: not (initial and name_key(p.first_name).startswith(initial)))
    return found[:limit]


def player_by_exact_id(*, query: str) -> Player | None:
    player_id = whole_number(query, minimum=1)
    if player_id is None:
        return None
    return Player.objects.public().filter(pk=player_id).first()


# --- clubs ----------------------------------------------------------------------------------------------


def club_names() -> list[str]:
    """Every club's name, for a list to choose from (a few hundred)."""
    return list(Club.objects.order_by("name").values_list("name", flat=True))


def club_named(name: str) -> Club | None:
    """The club of that name, accents, case and spaces aside ("dragons de saint-etienne" is Dragons de
    Saint-Étienne), or None."""
    key = name_key(name)
    if not key:
        return None
    exact = Club.objects.filter(name__iexact=" ".join(name.split())).first()
    if exact is not None:
        return exact
    for club in Club.objects.only("id", "name").iterator():
        if name_key(club.name) == key:
            return club
    return None


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


def confirmed_email(user) -> str | None:
    """The account's confirmed primary address (or any confirmed one), or None."""
    rows = EmailAddress.objects.filter(user=user, verified=True).order_by("-primary", "id")
    return rows.values_list("email", flat=True).first()


def account_address(user) -> str:
    """The address an account signs in with, confirmed or not (its primary first), else the user's own field."""
    return (EmailAddress.objects.filter(user=user).order_by("-primary", "id").values_list("email", flat=True).first()
            or user.email)


def person_name(user) -> str:
    """A person's name as the public pages show it: the linked federation player's, else the account's names;
    never the username or the address it signs in with (often an email), which is "" here."""
    player = Player.objects.filter(user=user).only("first_name", "last_name").first()
    return player.full_name if player else user.get_full_name().strip()


def players_with_cards_to_review(*, today: date | None = None) -> QuerySet[Player]:
    """The board's review: players holding more than one current card (a yellow card within its year, a red
    card), whom the board may decide to sanction further (charter App. 7 §3); the board's home counts them."""
    today = today or timezone.localdate()
    current = Q(sanctions__kind=Sanction.RED) | Q(sanctions__kind=Sanction.YELLOW, sanctions__expires_on__gte=today)
    return (Player.objects.filter(excluded_at__isnull=True)
            .annotate(current_cards=Count("sanctions", filter=current)).filter(current_cards__gt=1))
