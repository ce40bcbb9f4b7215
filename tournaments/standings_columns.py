"""The standings of many tournaments at once, on numpy columns: what `tournaments.scoring.standings_from_rows`
gives one tournament at a time, for every tournament of a replay (RULES.md §6).

Why: a full replay ranks twenty thousand tournaments, half a million ranked players and a million games;
per game and per player in Python that was the largest part of the replay's own work. Here the tallies are
sums over the games' columns and the ranking one sort. The rules stay stated in tournaments.scoring: each
game's figures come from its `game_figures`, a tournament with a game the rules refuse is handed to
`standings_from_rows` (which says why), and the few ties of exactly two players go through the same
head-to-head. The tests hold the rows to a plain reference, value for value (tests/ratings/
test_results_equivalence.py).

Terms: an entrant is a ranked player (neither the spare nor excluded) of one tournament; a pool code numbers
the (tournament, pool) pairs in tournament order, then pool name, which is the order of the rows given back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ratings.sorted_lookup import index_lookup
from tournaments.scoring import (
    DRAWS,
    GAME_FIGURES,
    LOSSES,
    PENALTY_SYSTEMS,
    SCORED_BY_LOSSES,
    WINS,
    game_figures,
    outcome_value,
)

DECIDED_BY = ("", "score", "opponents", "head_to_head", "rating", "id")  # codes of `Ranked.decided_by`


@dataclass(frozen=True)
class Entrants:
    """The ranked players of every tournament, as equal-length columns."""

    tournament: np.ndarray  # the tournament's index in the caller's order
    player: np.ndarray
    pool: np.ndarray  # pool code
    penalty: np.ndarray
    rating: np.ndarray  # the pre-tournament rating the tie-break compares


@dataclass(frozen=True)
class Games:
    """Every game of every tournament, in the caller's order, as equal-length columns; each game's result code
    and A's and B's losses give its scores (losses None where the sheet has none)."""

    tournament: np.ndarray
    round: np.ndarray
    table: np.ndarray
    a: np.ndarray
    b: np.ndarray
    free: np.ndarray
    result: Sequence[str]  # or an array of them (objects)
    a_losses: Sequence[int | None]
    b_losses: Sequence[int | None]


@dataclass(frozen=True)
class Ranked:
    """Per entrant (in the order of `Entrants`): its place in the output (`order`: the entrants' indexes, pool by
    pool, best first), rank in its pool, final score, opponents' score, penalty counted, wins, draws, losses, and
    the tie-break that placed it below the row above (a code of DECIDED_BY). Per game (in the order of
    `Games`): the pool codes of players A and B, -1 where the player is not a ranked entrant."""

    order: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    opponents_score: np.ndarray
    penalty: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray
    decided_by: np.ndarray
    pool_a: np.ndarray
    pool_b: np.ndarray


def ranked_standings(*, system: str, entrants: Entrants, games: Games, pools: int, excluded: np.ndarray,
                     spare: int, refused: Callable[[int], None]) -> Ranked:
    """The standings of every pool. `pools`: how many pool codes there are; `excluded`: the excluded players'
    IDs; `refused(tournament index)`: called for a tournament with a game the rules refuse (a player who is not
    an entrant, the spare against itself, players of two pools); it must raise (standings_from_rows does)."""
    e = len(entrants.player)
    index_a, index_b = _entrant_index(entrants, games.tournament, games.a), _entrant_index(
        entrants, games.tournament, games.b)
    pool_a = np.where(index_a >= 0, entrants.pool[np.maximum(index_a, 0)], -1)
    pool_b = np.where(index_b >= 0, entrants.pool[np.maximum(index_b, 0)], -1)
    common = (pool_a >= 0) & (pool_a == pool_b)
    void = ~common & (np.isin(games.a, excluded) | np.isin(games.b, excluded))
    spare_a = ~common & ~void & (games.a == spare) & (pool_b >= 0)
    spare_b = ~common & ~void & (games.b == spare) & (pool_a >= 0)
    refused_games = ~common & ~void & ~spare_a & ~spare_b
    if refused_games.any():
        for tournament in np.unique(games.tournament[refused_games]).tolist():
            refused(tournament)
        raise ValueError("a game the rules refuse")  # `refused` raises first; this is its guard
    # Tally keys: entrants 0..e-1; the spare has one tally per pool it plays in, e + pool code.
    key_a = np.where(spare_a, e + pool_b, index_a)
    key_b = np.where(spare_b, e + pool_a, index_b)

    figures = _figures(system, games, ~void)
    scored = ~void & ~games.free
    keys = e + pools
    ka, kb = key_a[scored], key_b[scored]
    a_score, b_score, counter_a, counter_b, counted = (column[scored] for column in figures)
    score = np.bincount(ka, a_score, keys) + np.bincount(kb, b_score, keys)
    tallies = {counter: np.bincount(ka[counter_a == counter], minlength=keys)
               + np.bincount(kb[counter_b == counter], minlength=keys) for counter in (WINS, DRAWS, LOSSES)}
    penalty = np.zeros(keys, dtype=np.int64)
    if system in PENALTY_SYSTEMS:
        penalty[:e] = entrants.penalty
    final = np.maximum(0, score - penalty)
    ca, cb = ka[counted], kb[counted]
    opponents = np.bincount(ca, final[cb], keys) + np.bincount(cb, final[ca], keys)

    final, opponents = final[:e], opponents[:e]
    order = np.lexsort((entrants.player, entrants.rating, -opponents, -final, entrants.pool))
    pool, s, o, rating = entrants.pool[order], final[order], opponents[order], entrants.rating[order]
    first = np.ones(e, dtype=bool)
    first[1:] = pool[1:] != pool[:-1]
    tied = np.zeros(e, dtype=bool)
    tied[1:] = ~first[1:] & (s[1:] == s[:-1]) & (o[1:] == o[:-1])
    after_tied = np.append(tied[1:], False)
    pairs = np.flatnonzero(tied & ~np.roll(tied, 1) & ~after_tied) if e else np.zeros(0, dtype=np.int64)
    decided = np.where(first, 0, np.where(s != np.roll(s, 1), 1, 2))
    head_to_head = _head_to_head_of_pairs(pairs, order, entrants, games, figures, common & scored)
    for i, outcome in zip(pairs.tolist(), head_to_head, strict=True):
        if outcome < 0:  # the lower row won their games: it goes up
            order[i - 1], order[i] = order[i], order[i - 1]
            rating[i - 1], rating[i] = rating[i], rating[i - 1]
    won = np.zeros(e, dtype=bool)
    won[pairs] = np.array([outcome != 0 for outcome in head_to_head], dtype=bool)
    previous_rating = np.roll(rating, 1)
    decided = np.where(tied, np.where(won, 3, np.where(previous_rating != rating, 4, 5)), decided)

    starts = np.flatnonzero(first)
    place = np.arange(e) - np.repeat(starts, np.diff(np.append(starts, e))) + 1
    rank = np.empty(e, dtype=np.int64)
    rank[order] = place
    decided_by = np.empty(e, dtype=np.int64)
    decided_by[order] = decided
    return Ranked(order=order, rank=rank, score=final, opponents_score=opponents, penalty=penalty[:e],
                  wins=tallies[WINS][:e], draws=tallies[DRAWS][:e], losses=tallies[LOSSES][:e],
                  decided_by=decided_by, pool_a=pool_a, pool_b=pool_b)


def entrant_keys(tournament: np.ndarray, player: np.ndarray) -> np.ndarray:
    """One int64 per (tournament index, player): the key entrants are looked up by."""
    return (tournament.astype(np.int64) << 32) | player.astype(np.int64)


def _entrant_index(entrants: Entrants, tournament: np.ndarray, player: np.ndarray) -> np.ndarray:
    """The entrant index of each (tournament, player), -1 where the player is not a ranked entrant."""
    found, hit = index_lookup(entrant_keys(entrants.tournament, entrants.player), entrant_keys(tournament, player))
    return np.where(hit, found, -1)


def _figures(system: str, games: Games, wanted: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per game: A's score, B's score, A's and B's tally counters, whether it counts in the opponents' scores.
    Worked out once per distinct result (scoring's own cache): a federation has a few thousand. Only the
    `wanted` games are checked, as the rules check only the games they score."""
    cache, by_losses = GAME_FIGURES[system], SCORED_BY_LOSSES[system]
    result = list(games.result)
    keys = list(zip(result, games.a_losses, games.b_losses, strict=True)) if by_losses else result
    # Distinct keys in order of first appearance, then each game's: dict.fromkeys and map stay in C.
    distinct = {key: code for code, key in enumerate(dict.fromkeys(keys))}
    codes = np.fromiter(map(distinct.__getitem__, keys), dtype=np.int64, count=len(keys))
    table = np.zeros((max(len(distinct), 1), 5), dtype=np.float64)
    needed = set(np.unique(codes[wanted]).tolist())
    for key, code in distinct.items():
        if code not in needed:
            continue
        fig = cache.get(key)
        if fig is None:
            fig = cache[key] = game_figures(system, *key) if by_losses else game_figures(system, key, None, None)
        table[code] = (fig[0], fig[1], fig[4], fig[5], fig[6])
    rows = table[codes]
    return rows[:, 0], rows[:, 1], rows[:, 2].astype(np.int64), rows[:, 3].astype(np.int64), rows[:, 4] > 0


def _head_to_head_of_pairs(pairs: np.ndarray, order: np.ndarray, entrants: Entrants, games: Games,
                           figures: tuple[np.ndarray, ...], tallied: np.ndarray) -> list[int]:
    """For each tie of exactly two (its lower row at `pairs` in the sorted order): the upper player's wins minus
    losses against the lower one, in their scored games. Ties of exactly two are few: a Python loop."""
    if not len(pairs):
        return []
    upper, lower = entrants.player[order[pairs - 1]], entrants.player[order[pairs]]
    tournament = entrants.tournament[order[pairs]]
    wanted = set(zip(tournament.tolist(), upper.tolist(), lower.tolist(), strict=True))
    wanted |= {(t, q, p) for t, p, q in wanted}
    outcome_a = {code: outcome_value(letter) for code, letter in ((WINS, "W"), (DRAWS, "D"), (LOSSES, "L"))}
    met: dict[tuple, int] = {}
    counter_a, counter_b = figures[2], figures[3]
    candidates = np.flatnonzero(tallied & np.isin(games.tournament, tournament))
    for g in candidates.tolist():
        t, a, b = int(games.tournament[g]), int(games.a[g]), int(games.b[g])
        if (t, a, b) in wanted:
            met[t, a, b] = met.get((t, a, b), 0) + outcome_a[int(counter_a[g])]
            met[t, b, a] = met.get((t, b, a), 0) + outcome_a[int(counter_b[g])]
    return [met.get(key, 0) for key in zip(tournament.tolist(), upper.tolist(), lower.tolist(), strict=True)]
