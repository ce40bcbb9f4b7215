"""Reads of the rating lists and of the ruleset data shown on the public pages and the API.

Terms
-----
rating list
    The PlayerRating rows of one system, best first, of the players that may appear in public
    (Player.objects.public(): neither excluded, nor merged into another record, nor the spare).
position
    The place in the whole list of the system: one plus the players rated higher, so ties share it
    (ratings.positions). Filters narrow the list but keep each player's position in the whole list.
active
    Played a rated game in the last twelve months (PlayerRating.last_played).

Every function returns a queryset or plain values in a fixed number of queries, whatever the size of the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Exists, OuterRef, Q, QuerySet

from players.models import SPARE_ID, Club, Country, Player, RetiredId
from ratings.engine import game_change, result_values
from ratings.models import PlayerRating, RatingSystem
from ratings.positions import with_positions
from ratings.ranks import rank_by_code, ruleset_ranks  # noqa: F401 - the pages read both from here
from ratings.rulesets import Rank, Ruleset

ACTIVE_DAYS = 365
# A search matching at most this many players is passed on as a list of IDs (one name scan per page).
SEARCH_LIST_LIMIT = 1000

# Sort keys of the rating list -> ORDER BY. Each ends with a unique column so pages never overlap.
SORTS: dict[str, tuple[str, ...]] = {
    "rating": ("-rating", "player_id"),
    "name": ("player__last_name", "player__first_name", "player_id"),
    "games": ("-games", "-rating", "player_id"),
    "last_played": ("-last_played", "-rating", "player_id"),
}


def language_is_french(language: str | None) -> bool:
    return (language or "").lower().startswith("fr")


def rank_name(rank: Rank | None, language: str | None) -> str:
    if rank is None:
        return ""
    return rank.name_fr if language_is_french(language) else rank.name_en


def country_name(country: Country | None, language: str | None) -> str:
    if country is None:
        return ""
    if language_is_french(language) and country.name_fr:
        return country.name_fr
    return country.name


def rating_systems() -> list[RatingSystem]:
    return list(RatingSystem.objects.all())


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


@dataclass(frozen=True)
class RatingListQuery:
    """A filtered, sorted rating list: `count()` and `[start:stop]` (the keys of a page) in SQL, never joining
    the players for the whole list (a join costs a lookup per row: 400 ms on 100,000 SQLite rows, where a count
    on the rating index takes 3 ms). Hidden players are subtracted from the count, and left out of a page only
    when the list holds any (between an exclusion and the replay that removes its rating rows)."""

    listed: QuerySet  # the PlayerRating rows of the filters, hidden players included
    in_order: QuerySet  # the same rows as keys in display order: PlayerRating pks, or player ids if `by_player`
    hidden_listed: QuerySet  # the rows of hidden players among them (found through the short hidden list)
    hidden: list[int]
    by_player: bool

    def __post_init__(self):
        object.__setattr__(self, "_hidden_rows", None)

    def hidden_rows(self) -> int:
        if self._hidden_rows is None:
            object.__setattr__(self, "_hidden_rows", self.hidden_listed.count() if self.hidden else 0)
        return self._hidden_rows

    def count(self) -> int:
        return self.listed.count() - self.hidden_rows()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[int]:
        keys = self.in_order
        if self.hidden_rows():
            keys = keys.exclude(**{"pk__in" if self.by_player else "player_id__in": self.hidden})
        return list(keys[window])


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
    """The rating list of `system`, filtered and sorted in SQL. Paginate it (django's Paginator takes it),
    then load the page's rows with `rating_rows(keys, system=…, by_player=query.by_player)`.

    Queries: the hidden IDs, the count, the count of hidden rows, the page's keys; one more to find the
    players matching a search (a name scan done once, not once per query).
    """
    system_code = system if isinstance(system, str) else system.code
    own = Q(system_id=system_code)  # conditions on the rating row
    if rank:
        own &= Q(rank_code=rank)
    if active:
        own &= Q(last_played__gte=(today or date.today()) - timedelta(days=ACTIVE_DAYS))
    player_q = Q()  # conditions on the player
    if country:
        player_q &= Q(country_id=country.upper())
    if club:
        player_q &= Q(club_id=club)
    if search:
        player_q &= player_search_q(search)
    players = Player.objects.filter(player_q)
    player_ids = players.values("id")
    if search:
        found = list(players.order_by().values_list("id", flat=True)[:SEARCH_LIST_LIMIT + 1])
        if len(found) <= SEARCH_LIST_LIMIT:
            player_ids, players = found, Player.objects.filter(pk__in=found)
    listed = PlayerRating.objects.filter(own)
    if player_q:
        listed = listed.filter(player_id__in=player_ids)
    hidden = hidden_player_ids()
    hidden_listed = PlayerRating.objects.filter(own, player_id__in=hidden).filter(
        **{f"player__{k}": v for k, v in _player_lookups(country, club)}).filter(
        player_search_q(search, prefix="player__") if search else Q())
    if sort == "name":
        # Walk the players' name index and keep those with a row in the list: the first pages cost nothing.
        rated = PlayerRating.objects.filter(own, player_id=OuterRef("pk"))
        ordered = players.filter(Exists(rated)).order_by("last_name", "first_name", "id").values_list("id", flat=True)
        return RatingListQuery(listed, ordered, hidden_listed, hidden, by_player=True)
    in_range = listed
    if rank and isinstance(system, RatingSystem):
        # The ratings a holder of the rank can have: the page walks that stretch of the rating index only
        # (the count does not need it; a scan counts a big band faster than the index does).
        low, high = rank_rating_bounds(system.get_ruleset(), rank)
        in_range = listed.filter(**({"rating__gte": low} if low is not None else {}),
                                 **({"rating__lt": high} if high is not None else {}))
    ordered = in_range.order_by(*SORTS.get(sort, SORTS["rating"])).values_list("pk", flat=True)
    return RatingListQuery(listed, ordered, hidden_listed, hidden, by_player=False)


def rank_rating_bounds(ruleset: Ruleset, code: str) -> tuple[int | None, int | None]:
    """The ratings a holder of rank `code` can have, [low, high), read from the ladder as ratings.ranks
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


def _player_lookups(country: str | None, club: int | None) -> list[tuple[str, object]]:
    lookups = []
    if country:
        lookups.append(("country_id", country.upper()))
    if club:
        lookups.append(("club_id", club))
    return lookups


def rating_rows(keys: list[int], *, system: RatingSystem | str, by_player: bool = False) -> list[PlayerRating]:
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
    return with_positions(r for r in found if r.player.excluded_at is None and r.player.merged_into_id is None
                          and r.player_id != SPARE_ID)


def player_search_q(query: str, *, prefix: str = "") -> Q:
    """Every word of `query` in the first or last name; a number also matches the ID exactly."""
    words = query.split()
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}last_name__icontains": word}) | Q(**{f"{prefix}first_name__icontains": word})
    stripped = query.strip()
    if stripped.isdigit():
        condition |= Q(**{f"{prefix}id": int(stripped)})
    return condition


def top_ratings(*, systems: list[RatingSystem], limit: int = 10) -> dict[str, list[PlayerRating]]:
    """The best `limit` of each system: one query per system (the systems are configuration, not data)."""
    best = {}
    for system in systems:
        rows = (PlayerRating.objects.filter(system=system, player__excluded_at__isnull=True,
                                            player__merged_into__isnull=True).exclude(player_id=SPARE_ID)
                .select_related("player__club", "player__country").order_by(*SORTS["rating"]))
        best[system.code] = with_positions(rows[:limit])
    return best


def countries_with_players() -> QuerySet[Country]:
    """Countries of at least one public player (an indexed EXISTS per country, not a scan of the players)."""
    return Country.objects.filter(Exists(Player.objects.public().filter(country=OuterRef("pk"))))


def clubs_with_players() -> QuerySet[Club]:
    return Club.objects.filter(Exists(Player.objects.public().filter(club=OuterRef("pk"))))


# --- the rules page -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameCalculation:
    """Every value of one game's computation, as the engine makes it (RULES.md §2)."""

    ruleset: Ruleset
    rating_a: int
    games_a: int
    rating_b: int
    games_b: int
    result: str
    s_a: float
    s_b: float
    p_a: float
    p_b: float
    k_a: int
    k_b: int
    elo_a: float  # K x (S - P), before the gap rule
    elo_b: float
    gap_a: bool  # the gap rule cancelled a gain
    gap_b: bool
    raw_a: float  # after the gap rule, before rounding
    raw_b: float
    change_a: int
    change_b: int

    @property
    def after_a(self) -> int:
        return self.rating_a + self.change_a

    @property
    def after_b(self) -> int:
        return self.rating_b + self.change_b


def game_calculation(
    *, ruleset: Ruleset, rating_a: int, games_a: int, rating_b: int, games_b: int, result: str
) -> GameCalculation:
    """The change of both players, from the engine's `game_change`, with the intermediate values shown."""
    change_a, change_b, k_a, k_b, p_a = game_change(ruleset, rating_a, games_a, rating_b, games_b, result)
    s_a, s_b = result_values(ruleset, result)
    p_b = 1.0 - p_a
    elo_a, elo_b = k_a * (s_a - p_a), k_b * (s_b - p_b)
    gap_a = _gap_applies(ruleset, lead=rating_a - rating_b, raw=elo_a)
    gap_b = _gap_applies(ruleset, lead=rating_b - rating_a, raw=elo_b)
    raw_a, raw_b = (0.0 if gap_a else elo_a), (0.0 if gap_b else elo_b)
    # The changes shown are the engine's own; the intermediate values explain them, and a property test holds
    # round_change(raw) == change for every input.
    return GameCalculation(ruleset, rating_a, games_a, rating_b, games_b, result, s_a, s_b, p_a, p_b, k_a, k_b,
                           elo_a, elo_b, gap_a, gap_b, raw_a, raw_b, change_a, change_b)


def _gap_applies(ruleset: Ruleset, *, lead: int, raw: float) -> bool:
    if ruleset.gap is None or raw <= 0:
        return False
    return max(-ruleset.diff_limit, min(ruleset.diff_limit, lead)) >= ruleset.gap
