"""Reads of the championship pages: a year's overall, national and international rankings (RULES.md §7).

Terms
-----
total
    A ChampionshipTotal: the sum of the player's best four results of the year's counting tournaments.
counted result
    A ChampionshipResult among those best four (ChampionshipResult.counted); the others are dropped.
national ranking
    The totals of the players of one country (ChampionshipTotal.country), ranked as in the overall ranking.
    Only countries with at least NATIONAL_MINIMUM_PLAYERS registered, non-excluded players have one.
international ranking
    Players who played the Worlds or counting tournaments in two countries that year, by international rank.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from championship.exports import NATIONAL_MINIMUM_PLAYERS
from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import Country, Player

OVERALL = "overall"
INTERNATIONAL = "international"
NATIONAL = "national"


def championship_years() -> list[int]:
    return sorted(set(ChampionshipTotal.objects.values_list("year", flat=True).distinct()), reverse=True)


def championship_ranking(*, year: int, scope: str = OVERALL, country: str | None = None
                         ) -> QuerySet[ChampionshipTotal]:
    """The totals of `year` in the order of the scope; national: only the players of `country`.

    The caller checks `national_ranking_exists` first: a country without one gets an empty list, not this.
    """
    totals = (ChampionshipTotal.objects.filter(year=year, player__in=Player.objects.public())
              .select_related("player__club", "player__country", "country"))
    if scope == INTERNATIONAL:
        return totals.filter(international=True).order_by("international_rank", "player_id")
    if scope == NATIONAL:
        return totals.filter(country_id=(country or "").upper()).order_by("rank", "player_id")
    return totals.order_by("rank", "player_id")


def national_ranking_countries() -> set[str]:
    """Codes of the countries with at least five registered, non-excluded players (one grouped query)."""
    return set(
        Player.objects.public().exclude(country__isnull=True).values("country_id")
        .annotate(n=Count("id")).filter(n__gte=NATIONAL_MINIMUM_PLAYERS).values_list("country_id", flat=True)
    )


def championship_countries(*, year: int) -> QuerySet[Country]:
    """Countries with at least one total in `year` (the choices of the national ranking)."""
    return Country.objects.filter(Q(pk__in=ChampionshipTotal.objects.filter(year=year).values("country_id")))


def counted_results(*, year: int, player_ids: list[int]) -> dict[int, list[ChampionshipResult]]:
    """The counted results (best four) of the given players in `year`, best first, in one query."""
    results: dict[int, list[ChampionshipResult]] = {pid: [] for pid in player_ids}
    for result in (ChampionshipResult.objects.filter(year=year, player_id__in=player_ids, counted=True)
                   .select_related("tournament").order_by("player_id", "-points", "tournament__end_date")):
        results[result.player_id].append(result)
    return results
