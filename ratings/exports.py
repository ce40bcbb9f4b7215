"""The rating list as rows, for the export command and the downloads (COMMANDS.md `export_ratings`)."""

from __future__ import annotations

from collections.abc import Iterator

from ratings.models import PlayerRating, RatingSystem
from ratings.rulesets import Rank, Ruleset

RATING_COLUMNS = ("id", "last_name", "first_name", "country", "club", "rating", "rank", "games")


def rank_by_code(ruleset: Ruleset, code: str) -> Rank:
    """The rank stored as `code` in PlayerRating (the replay stores codes, pages show names)."""
    for rank in (*ruleset.ranks, ruleset.unproven_rank):
        if rank is not None and rank.code == code:
            return rank
    raise KeyError(f"{ruleset.code} has no rank {code!r}")


def rating_rows(*, system: RatingSystem) -> Iterator[tuple]:
    ruleset = system.get_ruleset()
    rows = (
        PlayerRating.objects.filter(system=system, player__excluded_at__isnull=True, player__merged_into__isnull=True)
        .order_by("-rating", "player_id")
        .values_list("player_id", "player__last_name", "player__first_name", "player__country_id",
                     "player__club__name", "rating", "rank_code", "games")
    )
    for pid, last, first, country, club, rating, rank_code, games in rows.iterator(chunk_size=5000):
        yield (pid, last, first, country or "", club or "", rating, rank_by_code(ruleset, rank_code).name_en, games)
