"""A tournament's standings, pool by pool, and its rated figures (RULES.md §4, §6; charter App. 4).

Terms
-----
pool
    A group of players ranked separately inside a tournament.
ranked player
    Every entrant of a pool that is neither the spare nor excluded, with or without games (a registered player
    with no game scores 0 minus the penalty, floored at 0).
void game
    A game of an excluded player: counted for no one.
free game
    A last-round game played by mutual agreement: listed in the cross-table, rated for Elo, counted for nothing
    here.
tournament score
    The sum of the player's game scores (rules.scoring) minus penalty points, never below 0 (penalties apply
    only where the ruleset says). The spare's score is the sum of its game scores in the pool: it is not
    ranked, but counts as an opponent.
opponents' score
    The sum of the tournament scores of the opponents met (once per game), forfeits left out.
tie-breaks
    Score, then opponents' score, then, for a tie of exactly two players who met, the result of their games,
    then the lower pre-tournament rating, then the lower ID. Each row says which one placed it below the row
    above ('score', 'opponents', 'head_to_head', 'rating', 'id'; None for the first of a pool).
scored rounds
    Games counted in the score: forfeits included, free and void games not (the championship's T).
performance rating
    (sum of the opponents' ratings + D x (wins - losses)) / rated games, on the ruleset's scale D.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rules.facts import Entrant, Game
from rules.rulesets import SPARE_ID, Ruleset
from rules.scoring import FORFEIT_WINNER, letter, outcome, scores


class RoundDetail(NamedTuple):
    """One game from a player's view: the cross-table's cell."""

    round: int
    opponent: int
    result: str  # the letter (rules.scoring.letter)
    score: float
    opponent_score: float
    free: bool = False


class StandingRow(NamedTuple):
    rank: int
    player: int
    score: float
    opponents_score: float
    penalty: int
    wins: int
    draws: int
    losses: int
    games: int  # scored rounds
    rounds: tuple[RoundDetail, ...]
    decided_by: str | None


@dataclass
class _Tally:
    points: float = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rounds: list[RoundDetail] = field(default_factory=list)
    opponents: list = field(default_factory=list)  # keys of the opponents met in scored, not forfeited, games

    def count(self, result: int) -> None:
        if result > 0:
            self.wins += 1
        elif result < 0:
            self.losses += 1
        else:
            self.draws += 1


def _pool_of(g: Game, pools: Mapping[int, str]) -> str:
    """The pool of the game's real players (a game of the spare belongs to its opponent's pool)."""
    players = [p for p in (g.a, g.b) if p != SPARE_ID]
    for player in players:
        if player not in pools:
            raise ValueError(f"round {g.round}, table {g.table}: player {player} is not an entrant")
    found = {pools[p] for p in players}
    if len(found) != 1:
        problem = "the spare cannot play itself" if not found else "the players are in different pools"
        raise ValueError(f"round {g.round}, table {g.table}: {problem}")
    return found.pop()


def standings(ruleset: Ruleset, *, entrants: Sequence[Entrant], games: Sequence[Game],
              pre_ratings: Mapping[int, int] | None = None,
              excluded: Collection[int] = frozenset()) -> dict[str, list[StandingRow]]:
    """The standings of every pool, keyed by pool name. `pre_ratings`: the pre-tournament ratings of the
    tie-break (a player without one has the ruleset's initial rating). Raises ValueError for a game between
    players who are not entrants of one pool, an unknown result or losses outside 0-100."""
    pre_ratings = pre_ratings or {}
    ranked = [e for e in entrants if e.player != SPARE_ID and e.player not in excluded]
    pools = {e.player: e.pool for e in ranked}
    # A ranked player plays in one pool only; the spare may play in every pool and has a tally in each.
    tallies: dict[object, _Tally] = defaultdict(_Tally)
    for g in sorted(games, key=lambda g: (g.round, g.table)):
        if g.a in excluded or g.b in excluded:
            continue
        pool = pools.get(g.a)
        if pool is None or pools.get(g.b) != pool:  # the spare, or a game the sheet checks would refuse
            pool = _pool_of(g, pools)
        key_a = (SPARE_ID, pool) if g.a == SPARE_ID else g.a
        key_b = (SPARE_ID, pool) if g.b == SPARE_ID else g.b
        score_a, score_b = scores(ruleset, g.result, g.a_losses, g.b_losses)
        letter_a, letter_b = letter(g.result, "A"), letter(g.result, "B")
        tally_a, tally_b = tallies[key_a], tallies[key_b]
        tally_a.rounds.append(RoundDetail(g.round, g.b, letter_a, score_a, score_b, g.free))
        tally_b.rounds.append(RoundDetail(g.round, g.a, letter_b, score_b, score_a, g.free))
        if g.free:
            continue
        tally_a.points += score_a
        tally_b.points += score_b
        tally_a.count(outcome(letter_a))
        tally_b.count(outcome(letter_b))
        if g.result not in FORFEIT_WINNER:
            tally_a.opponents.append(key_b)
            tally_b.opponents.append(key_a)
    penalty = {e.player: e.penalty if ruleset.penalties else 0 for e in ranked}
    final = {key: max(0, t.points - penalty.get(key, 0)) for key, t in tallies.items()}
    by_pool: dict[str, list[Entrant]] = defaultdict(list)
    for e in ranked:
        by_pool[e.pool].append(e)
    initial = ruleset.initial_rating
    return {pool: _ranked_pool(members, tallies, final, penalty, {e.player: pre_ratings.get(e.player, initial)
                                                                  for e in members})
            for pool, members in sorted(by_pool.items())}


def _ranked_pool(members: list[Entrant], tallies: Mapping[object, _Tally], final: Mapping[object, float],
                 penalty: Mapping[int, int], rating: Mapping[int, int]) -> list[StandingRow]:
    empty = _Tally()
    rows = []
    for position, e in enumerate(members):
        tally = tallies.get(e.player, empty)
        score = final.get(e.player, 0)
        opponents_score = sum(final[key] for key in tally.opponents)  # in game order: floats add in that order
        # The entry order last keeps the sort stable for a player listed twice.
        rows.append(((-score, -opponents_score, rating[e.player], e.player, position), e, tally, score,
                     opponents_score))
    rows.sort(key=lambda row: row[0])
    # Rows tied with the row above on score and opponents' score; ties of exactly two who met go by their games.
    tied = {i for i in range(1, len(rows)) if rows[i][0][:2] == rows[i - 1][0][:2]}
    pairs = {i for i in tied if i - 1 not in tied and i + 1 not in tied}
    for i in sorted(pairs):
        if _head_to_head(rows[i - 1][2], rows[i][1].player) < 0:
            rows[i - 1], rows[i] = rows[i], rows[i - 1]
    standing = []
    for index, (key, e, tally, score, opponents_score) in enumerate(rows):
        if index == 0:
            decided_by = None
        elif index not in tied:
            decided_by = "score" if rows[index - 1][3] != score else "opponents"
        elif index in pairs and _head_to_head(rows[index - 1][2], e.player) > 0:
            decided_by = "head_to_head"
        elif rows[index - 1][0][2] != key[2]:
            decided_by = "rating"
        else:
            decided_by = "id"
        standing.append(StandingRow(index + 1, e.player, score, opponents_score, penalty[e.player], tally.wins,
                                    tally.draws, tally.losses, tally.wins + tally.draws + tally.losses,
                                    tuple(tally.rounds), decided_by))
    return standing


def _head_to_head(tally: _Tally, opponent: int) -> int:
    """Wins minus losses of the tally's player against `opponent`, in their scored games."""
    return sum(outcome(r.result) for r in tally.rounds if r.opponent == opponent and not r.free)


def performance_rating(*, opponents: Sequence[int], wins: int, losses: int, scale: int) -> float | None:
    """(sum of opponents' ratings + D x (wins - losses)) / rated games; None without a rated game."""
    if not opponents:
        return None
    return (sum(opponents) + scale * (wins - losses)) / len(opponents)


def average_rating(ratings: Sequence[int]) -> float | None:
    return sum(ratings) / len(ratings) if ratings else None
