"""The championship's yearly tables worked out on columns: every counting result of the replayed years at once.

`championship.points` states the rules one year and one player at a time (year_totals, international_ranking);
this is the same computation for a replay, which goes through hundreds of thousands of results in 28 years:
sorts and group sums over numpy columns instead of a dataclass per result and a sort per player. The tests hold
it to championship.points on generated seasons, row for row.

Points travel as whole cents: each result's points are already rounded to two decimals (`round_points`), so a
total is an exact integer sum, and ranking on it is ranking on the two-decimal total the pages show. Pure: no
Django.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from championship.points import BEST_OF


@dataclass(frozen=True)
class Placings:
    """The ranked players of the counting tournaments a replay went through, as equal-length columns in the
    standings' order: what their championship points are worked out from."""

    tournament: np.ndarray  # int64
    pool: np.ndarray  # int64: an index into pool_names
    pool_names: list[str]
    rank: np.ndarray  # int64
    player: np.ndarray  # int64
    score: np.ndarray  # float64
    games: np.ndarray  # int64: scored rounds

    def __len__(self) -> int:
        return len(self.player)

    def by_tournament(self) -> dict[int, list[tuple[str, int, int, float, int]]]:
        """{tournament: [(pool, rank, player, score, scored rounds)]}, for reading and testing."""
        placings: dict[int, list[tuple[str, int, int, float, int]]] = {}
        names = self.pool_names
        for tid, pool, rank, player, score, games in zip(
                self.tournament.tolist(), self.pool.tolist(), self.rank.tolist(), self.player.tolist(),
                self.score.tolist(), self.games.tolist(), strict=True):
            placings.setdefault(tid, []).append((names[pool], rank, player, score, games))
        return placings

    def pool_sizes(self) -> np.ndarray:
        """Per row, how many players its tournament's pool ranks (those without a scored round included)."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        pools = self.tournament * (int(self.pool.max()) + 1) + self.pool
        _, inverse, counts = np.unique(pools, return_inverse=True, return_counts=True)
        return counts[inverse.reshape(-1)]


@dataclass(frozen=True)
class Results:
    """Counting results, one per (tournament, player), as equal-length columns."""

    tournament: np.ndarray  # int64
    player: np.ndarray  # int64
    cents: np.ndarray  # int64: the points x 100
    end: np.ndarray  # int64: the tournament's end date (proleptic ordinal)
    year: np.ndarray  # int64: the end date's year
    country: np.ndarray  # int64: the tournament's country, any code that tells countries apart
    worlds: np.ndarray  # bool

    def __len__(self) -> int:
        return len(self.tournament)


@dataclass(frozen=True)
class YearTables:
    """`counted`: per result (in the order given), whether it is among its player's best four of its year.
    The totals, one per (year, player) in (year, player) order: the sum of the best four in cents, how many
    results that is, the rank in the year, and the rank in the year's international ranking (0: not in it)."""

    counted: np.ndarray
    year: np.ndarray
    player: np.ndarray
    cents: np.ndarray
    results: np.ndarray
    rank: np.ndarray
    international_rank: np.ndarray


def year_tables(results: Results) -> YearTables:
    # Best first within (year, player): more points, then the earlier tournament, then the lower ID.
    order = np.lexsort((results.tournament, results.end, -results.cents, results.player, results.year))
    year, player = results.year[order], results.player[order]
    starts = _group_starts(year, player)
    sizes = np.diff(np.append(starts, len(order)))
    place = np.arange(len(order)) - np.repeat(starts, sizes)  # 0 for a player's best result of the year
    counted = np.zeros(len(order), dtype=bool)
    counted[order] = place < BEST_OF
    best = np.where(place < BEST_OF, results.cents[order], 0)
    totals = np.add.reduceat(best, starts) if len(order) else np.zeros(0, dtype=np.int64)
    total_year, total_player = year[starts], player[starts]

    # The international ranking: players who played the Worlds, or in at least two countries, that year.
    worlds = np.logical_or.reduceat(results.worlds[order], starts) if len(order) else np.zeros(0, dtype=bool)
    by_country = np.lexsort((results.country, results.player, results.year))
    country_starts = _group_starts(results.year[by_country], results.player[by_country])
    differs = np.ones(len(by_country), dtype=bool)
    differs[1:] = results.country[by_country][1:] != results.country[by_country][:-1]
    differs[country_starts] = True
    countries = np.add.reduceat(differs.astype(np.int64), country_starts) if len(order) else np.zeros(0, np.int64)
    international = worlds | (countries >= 2)  # both in (year, player) order

    return YearTables(
        counted=counted, year=total_year, player=total_player, cents=totals, results=np.minimum(sizes, BEST_OF),
        rank=_ranks(total_year, totals, total_player, np.ones(len(totals), dtype=bool)),
        international_rank=_ranks(total_year, totals, total_player, international),
    )


def _group_starts(year: np.ndarray, player: np.ndarray) -> np.ndarray:
    """Where each run of equal (year, player) begins in columns sorted on them."""
    if not len(year):
        return np.zeros(0, dtype=np.int64)
    new = np.ones(len(year), dtype=bool)
    new[1:] = (year[1:] != year[:-1]) | (player[1:] != player[:-1])
    return np.flatnonzero(new)


def _ranks(year: np.ndarray, cents: np.ndarray, player: np.ndarray, ranked: np.ndarray) -> np.ndarray:
    """1, 2, 3… within each year among the `ranked` totals, best total first, then the lower player ID; 0 for
    the others."""
    ranks = np.zeros(len(year), dtype=np.int64)
    chosen = np.flatnonzero(ranked)
    order = chosen[np.lexsort((player[chosen], -cents[chosen], year[chosen]))]
    if not len(order):
        return ranks
    in_year = year[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = in_year[1:] != in_year[:-1]
    starts = np.flatnonzero(new)
    ranks[order] = np.arange(len(order)) - np.repeat(starts, np.diff(np.append(starts, len(order)))) + 1
    return ranks
