"""Positions in a rating list, read from the per-rating counts the replay keeps (RatingCount).

position
    One plus the number of listed players of the system with a strictly higher rating: players on the same
    rating share a position (1, 2, 2, 4…), as rating lists usually show ties. Filters narrow a list but keep
    each player's position in the whole list.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable

from django.db.models import Count

from ratings.models import PlayerRating, RatingCount


class Positions:
    """The positions of one system, from a single query of at most a few thousand rows."""

    def __init__(self, system_code: str):
        counts = list(RatingCount.objects.filter(system_id=system_code).order_by("rating")
                      .values_list("rating", "players"))
        self._ratings = [rating for rating, _ in counts]
        self._counts = [players for _, players in counts]
        # _higher[i]: players rated above every rating before index i, i.e. the sum of counts from i on.
        self._higher = [0] * (len(counts) + 1)
        for index in range(len(counts) - 1, -1, -1):
            self._higher[index] = self._higher[index + 1] + counts[index][1]

    def of(self, rating: int) -> int:
        return self._higher[bisect_right(self._ratings, rating)] + 1

    @property
    def total(self) -> int:
        """Every listed player of the system."""
        return self._higher[0]

    def rating_at(self, offset: int, *, skipped: Iterable[int] = ()) -> tuple[int, int] | None:
        """Where row `offset` (from 0) of the list, best first, stands: (its rating, how many rows of that
        rating come before it), leaving out one row per value of `skipped` (the ratings of rows not shown).
        None past the end. A rating list's page seeks there instead of walking every row above it."""
        left_out = Counter(skipped)
        seen = 0
        for index in range(len(self._ratings) - 1, -1, -1):
            rating = self._ratings[index]
            here = self._counts[index] - left_out[rating]
            if seen + here > offset:
                return rating, offset - seen
            seen += here
        return None


def with_positions(rows: Iterable, *, known: dict[str, Positions] | None = None) -> list:
    """Set `.position` on PlayerRating rows (any mix of systems): one query per system present, none for the
    systems whose Positions are `known` already."""
    rows = list(rows)
    tables: dict[str, Positions] = dict(known or {})
    for row in rows:
        if row.system_id not in tables:
            tables[row.system_id] = Positions(row.system_id)
        row.position = tables[row.system_id].of(row.rating)
    return rows


def rating_counts_recount(system_code: str) -> None:
    """Rebuild RatingCount from PlayerRating, for ratings written outside the replay (test factories and the
    page benchmark); the replay keeps the counts itself."""
    RatingCount.objects.filter(system_id=system_code).delete()
    RatingCount.objects.bulk_create(
        [RatingCount(system_id=system_code, rating=value, players=n) for value, n in
         PlayerRating.objects.filter(system_id=system_code).values("rating").annotate(n=Count("id"))
         .values_list("rating", "n")],
        batch_size=2000)
