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
    The player's scored rounds: forfeits included, free games not. A player with no scored round earns no
    result.
points
    P = max(0, 20 x log10(N) x (N + 1 - R) / N) + (S / 2T) x (1 + T / 10), rounded to 2 decimals (half up) as
    each result is stored and shown: a year's total is the exact sum of its results as shown.
counting result
    A player's points in a tournament that counts (official, the charter's conditions met or the board's
    decision).
year total
    The sum of a player's best 4 counting results of tournaments ending in the year. Among equal points, the
    earlier tournament is kept, then the lower tournament ID.
ranking order
    Total descending, then lower player ID.
national ranking
    The players of one country (their own country), for a country with at least 5 registered players.
international ranking
    The players who, that year, played the Worlds or counting tournaments in at least 2 countries.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

WORLDS_MULTIPLIER = 1.2
BEST_OF = 4
NATIONAL_MINIMUM = 5
CENT = Decimal("0.01")


def term_placing(*, players: int, rounds: int, rank: int) -> float:
    """20 x log10(N) x (N + 1 - R) / N, never negative; N capped at 2^(rounds + 1)."""
    n = min(players, 2 ** (rounds + 1))
    return max(0.0, 20 * math.log10(n) * (n + 1 - rank) / n) if n > 0 else 0.0


def term_score(*, score: float, games: int, worlds: bool = False) -> float:
    """(S / 2T) x (1 + T / 10), S x 1.2 at the Worlds; 0 without a scored round."""
    if worlds:
        score *= WORLDS_MULTIPLIER
    return score / (2 * games) * (1 + games / 10) if games else 0.0


def tournament_points(*, players: int, rounds: int, rank: int, score: float, games: int,
                      worlds: bool = False) -> float:
    return term_placing(players=players, rounds=rounds, rank=rank) + term_score(score=score, games=games,
                                                                                 worlds=worlds)


def round_points(points: float) -> Decimal:
    """Two decimals, half up, from the float's shortest representation (8.505 -> 8.51)."""
    return Decimal(repr(points)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class ChampionshipTerms:
    """The terms of one result's points, as the pages show them (see "terms" above)."""

    players: int  # ranked players of the pool, before the cap
    n: int  # N: capped at 2^(rounds + 1)
    rank: int  # R
    score: float  # the tournament score, before the Worlds' multiplier
    s: float  # S: the score the formula uses (x 1.2 at the Worlds)
    t: int  # T: scored rounds
    worlds: bool
    placing: float  # 20 x log10(N) x (N + 1 - R) / N, never below 0
    scoring: float  # (S / 2T) x (1 + T/10)
    points: Decimal  # their sum, to two decimals: the result's points

    @property
    def capped(self) -> bool:
        return self.n < self.players


def championship_terms(*, players: int, rounds: int, rank: int, score: float, games: int,
                       worlds: bool = False) -> ChampionshipTerms:
    """The two terms of a result's points, as the replay adds them (rules.championship.tournament_points); their
    sum is the stored points."""
    placing = term_placing(players=players, rounds=rounds, rank=rank)
    scoring = term_score(score=score, games=games, worlds=worlds)
    return ChampionshipTerms(
        players=players, n=min(players, 2 ** (rounds + 1)), rank=rank, score=score,
        s=score * WORLDS_MULTIPLIER if worlds else score, t=games, worlds=worlds,
        placing=placing, scoring=scoring, points=round_points(placing + scoring))


def has_national_ranking(registered_players: int) -> bool:
    """A country has a national ranking once it has NATIONAL_MINIMUM registered (not excluded) players."""
    return registered_players >= NATIONAL_MINIMUM


@dataclass(frozen=True, slots=True)
class Result:
    """A counting result: the points one player earned in one tournament."""

    tournament: int
    player: int
    points: Decimal
    end: date
    country: str  # the tournament's country
    worlds: bool = False

    @property
    def year(self) -> int:
        return self.end.year


@dataclass(frozen=True, slots=True)
class Total:
    year: int
    player: int
    total: Decimal
    results: int  # how many results it adds up: at most BEST_OF
    rank: int
    international_rank: int | None  # None: not in the international ranking


@dataclass(frozen=True)
class YearTables:
    counted: frozenset[tuple[int, int]]  # (tournament, player) of the results among their player's best four
    totals: list[Total]  # by year, then rank


def year_tables(results: Iterable[Result]) -> YearTables:
    """The totals and rankings of every year the results cover."""
    by_player: dict[tuple[int, int], list[Result]] = defaultdict(list)
    for r in results:
        by_player[r.year, r.player].append(r)
    counted: set[tuple[int, int]] = set()
    by_year: dict[int, list[tuple[Decimal, int, int, bool]]] = defaultdict(list)
    for (year, player), own in by_player.items():
        best = sorted(own, key=lambda r: (-r.points, r.end, r.tournament))[:BEST_OF]
        counted.update((r.tournament, player) for r in best)
        international = any(r.worlds for r in own) or len({r.country for r in own}) >= 2
        by_year[year].append((sum((r.points for r in best), Decimal("0.00")), player, len(best), international))
    totals = []
    for year in sorted(by_year):
        ranked = sorted(by_year[year], key=lambda t: (-t[0], t[1]))
        international_places = {player: place for place, (_, player, _, _) in
                                enumerate((t for t in ranked if t[3]), start=1)}
        totals += [Total(year, player, total, count, rank, international_places.get(player))
                   for rank, (total, player, count, _) in enumerate(ranked, start=1)]
    return YearTables(frozenset(counted), totals)
