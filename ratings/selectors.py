"""Reads shown on the public pages and the API: names in the page's language, the top of each list, the
countries and clubs with players, and the rules page's calculation. The rating list itself is in
ratings.rating_list.

Every function returns a queryset or plain values in a fixed number of queries, whatever the size of the data.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef, QuerySet

from adlg_site import words
from players.models import SPARE_ID, Club, Country, Player
from ratings.models import PlayerRating, RatingEvent, RatingSystem, ReplayRequest
from ratings.positions import with_positions
from ratings.rating_list import SORTS
from rules.elo import game_change, result_values
from rules.facts import PlayerState
from rules.predictions import WhatIf, chances, outlook, percent, what_if
from rules.ranks import rank_by_code, ruleset_ranks  # noqa: F401 - the pages read both from here
from rules.rulesets import Rank, Ruleset


def rank_name(rank: Rank | None, language: str | None = None) -> str:
    """The rank's name in the language asked for (adlg_site.words.language; the active one by default): the
    ruleset's name_<code> of that language, English when it has none."""
    if rank is None:
        return ""
    return getattr(rank, f"name_{words.language(language)}", "") or rank.name_en


def country_name(country: Country | None, language: str | None = None) -> str:
    """The country's name in the language asked for (the active one by default), Country.local_name."""
    return country.local_name(language) if country is not None else ""


def current_ratings(system: RatingSystem, *, players: Collection[int] | None = None) -> dict[int, PlayerState]:
    """The rating list as it stands: each listed player's state (only those of `players` when given)."""
    # Unordered: the list's own order (by rating, then the players' names) joined the players and sorted the whole
    # list on every replay, for a dict.
    rows = PlayerRating.objects.filter(system=system).order_by()
    if players is not None:
        rows = rows.filter(player_id__in=players)
    return {player: PlayerState(rating, games, last) for player, rating, games, last in
            rows.values_list("player_id", "rating", "games", "last_played")}


def ratings_at(system: RatingSystem, day: date, *, players: Collection[int] | None = None,
               current: dict[int, PlayerState] | None = None) -> dict[int, PlayerState]:
    """Every listed player's state at the start of `day` (only those of `players` when given): the state their
    first event on or after `day` recorded before it, else their current rating (`current`: the list already
    read, of the same players). The replay starts from it."""
    later = RatingEvent.objects.filter(system=system, date__gte=day)
    if players is not None:
        later = later.filter(player_id__in=players)
    state = dict(current if current is not None else current_ratings(system, players=players))
    seen: set[int] = set()
    for player, rating, games, last in later.order_by("date", "seq").values_list(
            "player_id", "rating_before", "games_before", "last_played_before").iterator(chunk_size=20_000):
        if player not in seen:
            seen.add(player)
            state[player] = PlayerState(rating, games, last)
    return state


def rating_systems() -> list[RatingSystem]:
    return list(RatingSystem.objects.all())


def top_ratings(*, systems: list[RatingSystem], limit: int = 10) -> dict[str, list[PlayerRating]]:
    """The best `limit` of each system: one query per system (the systems are configuration, not data)."""
    best = {}
    for system in systems:
        rows = (PlayerRating.objects.filter(system=system, player__excluded_at__isnull=True,
                                            player__merged_into__isnull=True).exclude(player_id=SPARE_ID)
                .select_related("player__club", "player__country").order_by(*SORTS["rating"]))
        best[system.code] = with_positions(rows[:limit])
    return best


FILTER_CHOICES_SECONDS = 300


def _filter_choices_key(language: str) -> str:
    return f"rating-list-choices:{language}"


def filter_choices(language: str) -> dict[str, list[tuple]]:
    """The countries and clubs the rating list offers as filters, (value, label) in the page's language.

    Read on every page of the list, changed a few times a season: cached, and forgotten whenever a player or
    a club is saved or deleted (ratings.apps), and by a sheet import once it commits (its players are written
    in bulk, which sends no signal). Any other bulk update shows within FILTER_CHOICES_SECONDS."""
    language = words.language(language)
    key = _filter_choices_key(language)
    choices = cache.get(key)
    if choices is None:
        choices = {
            "country": sorted(((country.code, country.local_name(language)) for country in countries_with_players()),
                              key=lambda c: c[1]),
            "club": list(clubs_with_players().order_by("name").values_list("pk", "name")),
        }
        cache.set(key, choices, FILTER_CHOICES_SECONDS)
    return choices


def filter_choices_forget(**_) -> None:
    """Signal receiver: a player or a club changed, the filters offered may have too."""
    cache.delete_many([_filter_choices_key(code) for code, _ in settings.LANGUAGES])


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


def failed_replays() -> list:
    """The replays that failed and wait for the board (a fact to correct, or the worker's database down): the
    ratings of their system stay as they were until one succeeds."""
    return list(ReplayRequest.objects.filter(status=ReplayRequest.FAILED).select_related("system")
                .order_by("-finished_at", "-id")[:20])


# --- what a game against someone would do -----------------------------------------------------------------------


@dataclass(frozen=True)
class Prediction:
    """A player against an opponent in one system: their chances and their rating after each result."""

    system: RatingSystem
    rating: PlayerRating
    opponent: PlayerRating  # its player read with it
    chances: float
    outcomes: list[WhatIf]

    @property
    def percent(self) -> int:
        return percent(self.chances)

    @property
    def outlook(self) -> str:
        return outlook(self.chances)


def predictions_against(*, player_id: int, opponent_id: int) -> list[Prediction]:
    """In each system where both are listed, what a game between them would do to the player (one query); an
    excluded player is on no list."""
    rows = list(PlayerRating.objects.filter(player_id__in={player_id, opponent_id}, player__excluded_at__isnull=True)
                .select_related("system", "player").order_by("system__position", "system__code"))
    mine = {r.system_id: r for r in rows if r.player_id == player_id}
    predictions = []
    for theirs in rows:
        own = mine.get(theirs.system_id)
        if theirs.player_id != opponent_id or own is None or opponent_id == player_id:
            continue
        ruleset = theirs.system.get_ruleset()
        predictions.append(Prediction(
            theirs.system, own, theirs, chances(ruleset, own.rating, theirs.rating),
            what_if(ruleset, own.rating, own.games, theirs.rating, theirs.games)))
    return predictions
