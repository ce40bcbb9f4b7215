"""The public rating list of a system: filters, sorts and pages in SQL, in a fixed number of queries.

Terms
-----
rating list
    The PlayerRating rows of one system, best first, of the players that may appear in public
    (Player.objects.public(): neither excluded, nor merged into another record, nor the spare).
hidden
    The players that never appear (hidden_player_ids): a short list, subtracted from every page and count.
position
    The place in the whole list of the system (ratings.positions). Filters keep each player's position.
active
    Played a rated game in the last twelve months (PlayerRating.last_played).

How a page is read, for speed on 100,000 players (bench/pages.py):
- the whole list (no filter) is counted from the per-rating counts the replay keeps (RatingCount, read anyway
  for the positions), not by a scan; sorted by rating, a deep page seeks to its first rating through the same
  counts instead of walking every row above it (OFFSET);
- the player's country and club are on the rating row (copied by the database): every filter but a search
  runs along an index of the rating rows, without joining the players;
- a search reads every key it matches, in order, in one query: the name scan (trigram indexes on PostgreSQL)
  runs once a page, and the count and the page are cut from that list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from players.models import SPARE_ID, Player, RetiredId
from players.selectors import player_search_q
from ratings.models import PlayerRating, RatingEvent, RatingSystem
from ratings.positions import Positions, with_positions
from rules.ranks import rank_by_code
from rules.rulesets import Ruleset

ACTIVE_DAYS = 365
# A search reads all its keys in order in one query (one name scan per page) when they are at most this many.
SEARCH_KEYS_LIMIT = 10000

# Sort keys of the rating list -> ORDER BY. Each ends with a unique column so pages never overlap.
SORTS: dict[str, tuple[str, ...]] = {
    "rating": ("-rating", "player_id"),
    "name": ("player__last_name", "player__first_name", "player_id"),
    "games": ("-games", "-rating", "player_id"),
    "last_played": ("-last_played", "-rating", "player_id"),
}


def hidden_player_ids() -> list[int]:
    """IDs that never appear in public: the spare, excluded players and merged duplicates (a short list).

    Found through indexed paths only, so the cost does not grow with the federation: every exclusion and merge
    retires the ID (players.governance), merged records have an indexed `merged_into`. Each candidate is then
    checked on its own row. The rows shown are checked once more by `rating_rows`, whatever the path.
    """
    is_hidden = Q(excluded_at__isnull=False) | Q(merged_into__isnull=False) | Q(pk=SPARE_ID)
    retired = Player.objects.filter(pk__in=RetiredId.objects.values("id")).filter(is_hidden)
    # `>= 0` rather than IS NOT NULL: SQLite walks the merged_into index for a range, it scans for IS NOT NULL.
    merged = Player.objects.filter(merged_into_id__gte=0)
    spare = Player.objects.filter(pk=SPARE_ID)
    parts = [qs.order_by().values_list("id", flat=True) for qs in (retired, merged, spare)]
    return sorted(set(parts[0].union(parts[1], parts[2])))


@dataclass
class RatingListQuery:
    """A filtered, sorted rating list without its hidden players: `count()` and `window(start, stop)` or
    `[start:stop]`, the keys of a page.

    Keys are PlayerRating pks, or player ids when `by_player` (the name sort walks the players' name index).
    """

    system_code: str
    listed: QuerySet  # the PlayerRating rows of the filters, hidden players included
    in_order: QuerySet  # the same rows as keys in display order, hidden players included
    hidden: list[int]
    by_player: bool
    whole: bool  # no filter: every row of the system
    by_rating: bool  # sorted best first
    searched: bool = False  # a search: the keys are read all at once (when few enough)
    positions: Positions = field(init=False)
    _hidden_ratings: list[int] | None = field(default=None, init=False)
    _keys: list[int] | None = field(default=None, init=False)

    def __post_init__(self):
        self.positions = Positions(self.system_code)

    def _visible(self, rows: QuerySet, *, of_players: bool = False) -> QuerySet:
        """`rows` (rating rows, or players) without the hidden players."""
        if not self.hidden:
            return rows
        return rows.exclude(**{"pk__in" if of_players else "player_id__in": self.hidden})

    def hidden_ratings(self) -> list[int]:
        """The ratings of the hidden players still in the whole list (between an exclusion and its replay)."""
        if self._hidden_ratings is None:
            self._hidden_ratings = list(PlayerRating.objects.filter(
                system_id=self.system_code, player_id__in=self.hidden).values_list("rating", flat=True)
            ) if self.hidden else []
        return self._hidden_ratings

    def _searched_keys(self) -> list[int] | None:
        """Every key of a search, in order, or None when it matches too many players (or is no search)."""
        if not self.searched:
            return None
        if self._keys is None:
            self._keys = self[:SEARCH_KEYS_LIMIT + 1]
        return self._keys if len(self._keys) <= SEARCH_KEYS_LIMIT else None

    def count(self) -> int:
        if self.whole:
            return self.positions.total - len(self.hidden_ratings())
        keys = self._searched_keys()
        if keys is not None:
            return len(keys)
        return self._visible(self.listed).count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[int]:
        return list(self._visible(self.in_order, of_players=self.by_player)[window])

    def window(self, start: int, stop: int) -> list[int]:
        """The keys of rows [start, stop)."""
        if self.whole and self.by_rating:
            return self._seek(start, stop)
        keys = self._searched_keys()
        if keys is not None:
            return keys[start:stop]
        return self[start:stop]

    def _seek(self, start: int, stop: int) -> list[int]:
        found = self.positions.rating_at(start, skipped=self.hidden_ratings())
        if found is None:
            return []
        rating, before = found
        keys = self._visible(self.in_order).filter(rating__lte=rating)
        return list(keys[before:before + stop - start])


class RatingListPaginator(Paginator):
    """Django's paginator, reading a page's keys through RatingListQuery.window (a deep page of the whole
    list seeks its first rating instead of counting every row above it)."""

    def page(self, number) -> Page:
        number = self.validate_number(number)
        start = (number - 1) * self.per_page
        return self._get_page(self.object_list.window(start, start + self.per_page), number, self)


def rating_list(
    *,
    system: RatingSystem | str,
    country: str | None = None,
    club: int | None = None,
    rank: str | None = None,
    active: bool = False,
    search: str | None = None,
    sort: str = "rating",
    today: date | None = None,
) -> RatingListQuery:
    """The rating list of `system`, filtered and sorted in SQL. Page it with RatingListPaginator, then load
    the page's rows with `rating_rows(keys, system=…, by_player=query.by_player, positions=query.positions)`.

    Queries for a page: the hidden IDs, the per-rating counts, the count (of a filtered list) or the ratings
    of hidden players (of the whole list), the page's keys; a search reads its keys and count in one query.
    """
    system_code = system if isinstance(system, str) else system.code
    own = Q(system_id=system_code)  # conditions on the rating row (it carries the player's country and club)
    if rank:
        own &= Q(rank_code=rank)
    if active:
        own &= Q(last_played__gte=(today or date.today()) - timedelta(days=ACTIVE_DAYS))
    if country:
        own &= Q(country_id=country.upper())
    if club:
        own &= Q(club_id=club)
    player_q = Q()  # conditions on the player
    if search:
        player_q &= player_search_q(search)
    players = Player.objects.filter(player_q)
    listed = PlayerRating.objects.filter(own)
    if player_q:
        listed = listed.filter(player_id__in=players.values("id"))
    hidden = hidden_player_ids()
    whole = not (rank or active or country or club or player_q)
    if sort == "name":
        # Walk the players' name index and keep those with a row in the list: the first pages cost nothing.
        rated = PlayerRating.objects.filter(own, player_id=OuterRef("pk"))
        ordered = players.filter(Exists(rated)).order_by("last_name", "first_name", "id").values_list("id", flat=True)
        return RatingListQuery(system_code, listed, ordered, hidden, by_player=True, whole=whole, by_rating=False,
                               searched=bool(search))
    in_range = listed
    if rank and isinstance(system, RatingSystem):
        # The ratings a holder of the rank can have: the page walks that stretch of the rating index only.
        low, high = rank_rating_bounds(system.get_ruleset(), rank)
        in_range = listed.filter(**({"rating__gte": low} if low is not None else {}),
                                 **({"rating__lt": high} if high is not None else {}))
    sort = sort if sort in SORTS else "rating"
    ordered = in_range.order_by(*SORTS[sort]).values_list("pk", flat=True)
    return RatingListQuery(system_code, listed, ordered, hidden, by_player=False, whole=whole,
                           by_rating=sort == "rating", searched=bool(search))


def last_tournament_changes(*, system: RatingSystem | str, player_ids: list[int]) -> dict[int, int]:
    """Each player's rating change in their last rated tournament of the system (the rating after its last game
    minus the rating before its first), in one query for a page of players: FIDE's and chess-results' "change"
    column. A player whose last event is no tournament's (an opening balance, a deleted tournament) has none."""
    system_code = system if isinstance(system, str) else system.code
    last = (RatingEvent.objects.filter(system_id=system_code, player_id=OuterRef("player_id"), kind=RatingEvent.GAME)
            .order_by("-seq").values("tournament_id")[:1])
    events = (RatingEvent.objects.filter(system_id=system_code, player_id__in=player_ids, kind=RatingEvent.GAME,
                                         tournament__isnull=False, tournament_id=Subquery(last))
              .order_by().values_list("player_id", "seq", "rating_before", "rating_after"))
    first: dict[int, tuple[int, int]] = {}
    final: dict[int, tuple[int, int]] = {}
    for player, seq, before, after in events:
        if player not in first or seq < first[player][0]:
            first[player] = (seq, before)
        if player not in final or seq > final[player][0]:
            final[player] = (seq, after)
    return {player: final[player][1] - first[player][1] for player in first}


def rank_rating_bounds(ruleset: Ruleset, code: str) -> tuple[int | None, int | None]:
    """The ratings a holder of rank `code` can have, [low, high), read from the ladder as rules.ranks
    gives ranks: a band is held from its rating on; a higher band that needs no games takes over at its
    rating; below the first band that needs games, reaching it makes the player unproven or gated."""
    rank = rank_by_code(ruleset, code)
    if rank is None:
        return None, None
    ladder = ruleset.ranks
    gated = next((band for band in ladder if band.min_games > 0), None)
    unproven = ruleset.unproven_rank
    if unproven is not None and rank.code == unproven.code and rank not in ladder:
        return (gated.min_rating if gated else unproven.min_rating), None
    position = ladder.index(rank)
    high = next((band.min_rating for band in ladder[position + 1:] if band.min_games == 0), None)
    if unproven is not None and gated is not None and position < ladder.index(gated):
        high = gated.min_rating if high is None else min(high, gated.min_rating)
    return rank.min_rating, high


def rating_rows(keys: list[int], *, system: RatingSystem | str, by_player: bool = False,
                positions: Positions | None = None) -> list[PlayerRating]:
    """The PlayerRating rows of `keys` (their pks, or player ids when `by_player`) with player, club and
    country, in the order of `keys`. A row whose player is hidden is dropped, whatever led to it."""
    system_code = system if isinstance(system, str) else system.code
    # No ORDER BY: the rows come back in the order of `keys`, and SQLite would otherwise walk a whole index.
    rows = PlayerRating.objects.select_related("player__club", "player__country").order_by()
    if by_player:
        rows = rows.filter(system_id=system_code)
        by_key = {r.player_id: r for r in rows.filter(player_id__in=keys)}
    else:
        by_key = {r.pk: r for r in rows.filter(pk__in=keys)}
    found = [by_key[k] for k in keys if k in by_key]
    return with_positions((r for r in found if r.player.excluded_at is None and r.player.merged_into_id is None
                           and r.player_id != SPARE_ID),
                          known={system_code: positions} if positions is not None else None)
