"""Championship points and the yearly rankings (RULES.md §7, charter App. 6).

Terms
-----
N
    The ranked players of the player's pool, capped at 2^(rounds + 1) (the charter's twice the ideal number).
R
    The player's rank in the pool's standings.
S
    The player's tournament score, x 1.2 at the Worlds.
T
    The player's scored rounds: forfeits included, free games not.
points
    P = max(0, 20 x log10(N) x (N + 1 - R) / N) + (S / 2T) x (1 + T / 10), kept unrounded; `round_points`
    gives the 2-decimal figure the pages show (half up).
counting result
    A player's points in a tournament that counts for the championship (official, charter conditions met).
year total
    The sum of a player's best 4 counting results of tournaments ending in the year. Among equal points,
    the earlier tournament is kept, then the lower tournament ID.
national ranking
    The players of one country (their own country), for a country with at least 5 registered players.
international ranking
    The players who, that year, played the Worlds or counting tournaments in at least 2 countries.
ranking order
    Total rounded to 2 decimals, descending, then lower player ID: totals that read the same are ordered
    by ID, as RULES.md says for ties.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

WORLDS_MULTIPLIER = 1.2
BEST_OF = 4
NATIONAL_MINIMUM = 5
CENT = Decimal("0.01")


def tournament_points(
    *, players: int, rounds: int, rank: int, score: float, games: int, worlds: bool = False
) -> float:
    n = min(players, 2 ** (rounds + 1))
    placing = max(0.0, 20 * math.log10(n) * (n + 1 - rank) / n) if n > 0 else 0.0
    if worlds:
        score *= WORLDS_MULTIPLIER
    scoring = score / (2 * games) * (1 + games / 10) if games else 0.0
    return placing + scoring


def round_points(points: float) -> Decimal:
    """Two decimals, half up, from the float's shortest representation (8.505 -> 8.51)."""
    return Decimal(repr(points)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class Result:
    player: int
    tournament: int
    points: float
    end: date
    country: str  # the tournament's country
    worlds: bool = False


@dataclass(frozen=True, slots=True)
class Total:
    player: int
    year: int
    total: float
    counted: tuple[Result, ...]  # best first
    dropped: tuple[Result, ...]
    display: Decimal = field(init=False)  # the total as shown and ranked: made once, sorted on many times

    def __post_init__(self):
        object.__setattr__(self, "display", round_points(self.total))


@dataclass(frozen=True, slots=True)
class RankingRow:
    rank: int
    player: int
    total: float
    display: Decimal


def _best_first(result: Result) -> tuple:
    return (-result.points, result.end, result.tournament)


def year_totals(results: Iterable[Result], *, year: int | None = None) -> list[Total]:
    """One total per player, by player ID. Without `year`, every result must end in the same year."""
    chosen = [r for r in results if year is None or r.end.year == year]
    years = {r.end.year for r in chosen}
    if len(years) > 1:
        raise ValueError(f"results of several years ({', '.join(map(str, sorted(years)))}): pass year=")
    by_player: dict[int, list[Result]] = defaultdict(list)
    for r in chosen:
        by_player[r.player].append(r)
    totals = []
    for player in sorted(by_player):
        ordered = sorted(by_player[player], key=_best_first)
        counted = tuple(ordered[:BEST_OF])
        # fsum: the exactly rounded sum, whatever the order; one addition of two floats is already that.
        total = counted[0].points if len(counted) == 1 else counted[0].points + counted[1].points \
            if len(counted) == 2 else math.fsum(r.points for r in counted)
        totals.append(Total(player, ordered[0].end.year, total, counted, tuple(ordered[BEST_OF:])))
    return totals


def _ranking(totals: Iterable[Total]) -> list[RankingRow]:
    ordered = sorted(totals, key=lambda t: (t.display, -t.player), reverse=True)  # best first, then lower ID
    return [RankingRow(i + 1, t.player, t.total, t.display) for i, t in enumerate(ordered)]


def national_ranking(
    totals: Sequence[Total],
    *,
    player_country: Mapping[int, str],
    country: str,
    registered_counts: Mapping[str, int],
) -> list[RankingRow]:
    """`registered_counts`: registered players (not excluded) per country; fewer than 5 means no ranking."""
    if registered_counts.get(country, 0) < NATIONAL_MINIMUM:
        return []
    return _ranking(t for t in totals if player_country.get(t.player) == country)


def international_ranking(totals: Sequence[Total], results: Iterable[Result]) -> list[RankingRow]:
    """`results`: the counting results of the totals' year (all of them, not only the best 4)."""
    years = {t.year for t in totals}
    worlds: set[int] = set()
    countries: dict[int, set[str]] = defaultdict(set)
    for r in results:
        if r.end.year in years:
            countries[r.player].add(r.country)
            if r.worlds:
                worlds.add(r.player)
    return _ranking(t for t in totals if t.player in worlds or len(countries[t.player]) >= 2)
