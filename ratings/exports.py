"""The rating list as rows, for the export command and the downloads (COMMANDS.md `export_ratings`)."""

from __future__ import annotations

from collections.abc import Iterator

from ratings.models import PlayerRating, RatingSystem
from rules.ranks import rank_by_code

RATING_COLUMNS = ("id", "last_name", "first_name", "country", "club", "rating", "rank", "games")


def rating_rows(*, system: RatingSystem) -> Iterator[tuple]:
    ruleset = system.get_ruleset()
    rows = (
        PlayerRating.objects.filter(system=system, player__excluded_at__isnull=True, player__merged_into__isnull=True)
        .order_by("-rating", "player_id")
        .values_list("player_id", "player__last_name", "player__first_name", "player__country_id",
                     "player__club__name", "rating", "rank_code", "games")
    )
    for pid, last, first, country, club, rating, rank_code, games in rows.iterator(chunk_size=5000):
        yield (pid, last, first, country or "", club or "", rating, _rank_name(ruleset, rank_code), games)


def _rank_name(ruleset, code: str) -> str:
    rank = rank_by_code(ruleset, code)
    return rank.name_en if rank is not None else code
