"""What one tournament's results give once its games are rated: standings with each player's rated figures, the
charter's verdict and the championship points (RULES.md §4, §6, §7).

Terms
-----
placing
    A row of the standings (rules.standings) with the player's rating before the tournament (None: none known),
    after it (the rating left by their last rated game of the tournament, or the rating before without one) and
    their performance rating (None without a rated game).
counts
    Whether the tournament gives championship points: the board's decision when there is one, else official and
    every charter condition met (rules.charter); only for rulesets with a championship.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.championship import Result, round_points, tournament_points
from rules.charter import CharterEntrant, CharterFailure, charter_failures
from rules.facts import Tournament
from rules.history import Event
from rules.rulesets import Ruleset
from rules.scoring import winner
from rules.standings import StandingRow, average_rating, performance_rating, standings


@dataclass(frozen=True, slots=True)
class Placing:
    pool: str
    row: StandingRow
    rating_before: int | None
    rating_after: int | None
    performance: float | None


@dataclass(frozen=True)
class TournamentResults:
    tournament: int
    placings: list[Placing]  # pool by pool, in rank order
    average_rating: float | None  # of the ranked players with a rating before the tournament
    ranked_players: int
    rated_games: int
    charter_failures: list[CharterFailure]
    counts: bool
    championship: list[Result]  # the counting results; none when the tournament does not count


def tournament_results(ruleset: Ruleset, t: Tournament, *, events: Sequence[Event],
                       pre_tournament: Mapping[int, tuple[int, int]],
                       excluded: Collection[int] = frozenset()) -> TournamentResults:
    """`events`: the history's events of this tournament; `pre_tournament`: its players' (rating, games) before
    it (rules.history)."""
    pools = standings(ruleset, entrants=t.entrants, games=t.games, excluded=excluded,
                      pre_ratings={player: rating for player, (rating, _) in pre_tournament.items()})
    rated = _rated_figures(ruleset, t, events)
    placings = []
    for pool, rows in pools.items():
        for row in rows:
            before = pre_tournament[row.player][0] if row.player in pre_tournament else None
            after, performance = rated.get(row.player, (before, None))
            placings.append(Placing(pool, row, before, after, performance))

    failures = charter_failures(official=t.official, entrants=_charter_entrants(t, pools),
                                rounds_by_pool=_rounds_by_pool(t, pools))
    counts = t.counts_override if t.counts_override is not None else (t.official and not failures)
    counts = counts and ruleset.championship
    return TournamentResults(
        tournament=t.id, placings=placings,
        average_rating=average_rating([p.rating_before for p in placings if p.rating_before is not None]),
        ranked_players=len(placings), rated_games=len({e.game for e in events}), charter_failures=failures,
        counts=counts, championship=_championship(t, pools) if counts else [])


def _rated_figures(ruleset: Ruleset, t: Tournament, events: Sequence[Event]
                   ) -> dict[int, tuple[int, float | None]]:
    """Per player with a rated game: (rating after their last rated game, performance rating)."""
    games = {g.id: g for g in t.games}
    after: dict[int, int] = {}
    opponents: dict[int, list[int]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    losses: dict[int, int] = defaultdict(int)
    for e in events:
        g = games[e.game]
        after[e.player] = e.rating_after
        opponents[e.player].append(e.opponent_rating)
        won_by = winner(g.result)
        if won_by is not None:
            (wins if won_by == ("A" if e.player == g.a else "B") else losses)[e.player] += 1
    return {player: (after[player], performance_rating(opponents=opponents[player], wins=wins[player],
                                                       losses=losses[player], scale=ruleset.scale))
            for player in after}


def _charter_entrants(t: Tournament, pools: Mapping[str, list[StandingRow]]) -> list[CharterEntrant]:
    club = {e.player: e.club for e in t.entrants}
    return [CharterEntrant(row.player, club.get(row.player), pool) for pool, rows in pools.items() for row in rows]


def _rounds_by_pool(t: Tournament, pools: Mapping[str, list[StandingRow]]) -> dict[str, int]:
    """Rounds played per pool, free games left out: a game belongs to its first player's pool, else its
    second's (the spare and excluded players have none)."""
    pool_of = {row.player: pool for pool, rows in pools.items() for row in rows}
    rounds: dict[str, set[int]] = defaultdict(set)
    for g in t.games:
        pool = pool_of.get(g.a) or pool_of.get(g.b)
        if not g.free and pool is not None:
            rounds[pool].add(g.round)
    return {pool: len(rounds.get(pool, ())) for pool in pools}


def _championship(t: Tournament, pools: Mapping[str, list[StandingRow]]) -> list[Result]:
    return [Result(t.id, row.player, round_points(tournament_points(
                players=len(rows), rounds=t.rounds, rank=row.rank, score=row.score, games=row.games,
                worlds=t.worlds)), t.end, t.country, t.worlds)
            for rows in pools.values() for row in rows if row.games > 0]
