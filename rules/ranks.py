"""Ranks: the titles read from a rating and the rated games played (RULES.md §4).

Terms
-----
band
    An entry of the ruleset's rank ladder: a rank held from `min_rating` on, once `min_games` rated games
    have been played.
rank
    The highest band whose rating and game count are both met. A player whose rating reaches the first band
    that needs games, but who meets the count of no such band, holds the ruleset's `unproven_rank`
    (AdlG: Seneschal, a player rated 1300 or more with fewer than 10 games).
next rank
    The band just above the current one in the ladder, with the rating points and games still missing.
    For a Seneschal it is Master, which only needs games.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.rulesets import Rank, Ruleset


@dataclass(frozen=True, slots=True)
class NextRank:
    rank: Rank
    points_needed: int
    games_needed: int


def _reached(band: Rank, rating: int) -> bool:
    return band.min_rating is None or rating >= band.min_rating


def _first_gated(ruleset: Ruleset) -> Rank | None:
    return next((band for band in ruleset.ranks if band.min_games > 0), None)


def rank_for(ruleset: Ruleset, rating: int, games: int) -> Rank:
    gated = _first_gated(ruleset)
    unproven = ruleset.unproven_rank
    if unproven is not None and gated is not None and _reached(gated, rating) and games < gated.min_games:
        return unproven
    for band in reversed(ruleset.ranks):
        if _reached(band, rating) and games >= band.min_games:
            return band
    return ruleset.ranks[0]


def next_rank(ruleset: Ruleset, rating: int, games: int) -> NextRank | None:
    current = rank_for(ruleset, rating, games)
    if current == ruleset.unproven_rank:
        target = _first_gated(ruleset)
    else:
        position = ruleset.ranks.index(current)
        if position + 1 == len(ruleset.ranks):
            return None
        target = ruleset.ranks[position + 1]
    assert target is not None and target.min_rating is not None  # only the lowest band is open below
    return NextRank(
        rank=target,
        points_needed=max(0, target.min_rating - rating),
        games_needed=max(0, target.min_games - games),
    )


def ruleset_ranks(ruleset: Ruleset) -> tuple[Rank, ...]:
    """Every title a player of the ruleset can hold, the unproven one included."""
    return ruleset.ranks + ((ruleset.unproven_rank,) if ruleset.unproven_rank else ())


def rank_by_code(ruleset: Ruleset, code: str) -> Rank | None:
    """The rank stored as `code` (derived rows keep codes; pages and exports show names)."""
    return next((rank for rank in ruleset_ranks(ruleset) if rank.code == code), None)
