"""The Elo rules: one game, one tournament period, the yearly downgrade (RULES.md §2, §5).

Terms
-----
rating (N)
    A player's Elo level, a whole number.
games
    The rated games a player had played before the game being rated.
K
    The most one game can move a rating: the first of the ruleset's K bands whose conditions the player's rating
    and games meet.
expected score (P)
    P_A = 1 / (1 + 10^((N_B - N_A) / D)), D the ruleset's scale; P_B = 1 - P_A. Rating differences beyond
    +/- 10 x D count as +/- 10 x D (P moves by less than 1e-10 beyond that).
result value (S)
    What a side scores for Elo (1, 0.5, 0; Battle Empire's wins 1, 1.25 or 1.5), from the result code.
raw change
    K x (S - P), after the gap rule: when a player leads by the ruleset's gap or more, a positive raw change
    becomes 0. The change is the raw change rounded as the ruleset says (AdlG truncates toward zero).
rating period
    'game': each game is rated from the ratings the previous one left (rules.history applies `game_change` game
    after game). 'tournament': every game of a tournament from the pre-tournament rating, the raw changes summed
    and rounded once (`tournament_change`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from rules.rulesets import Ruleset


class UnknownResult(ValueError):
    """A result code the ruleset does not rate."""


class GameChange(NamedTuple):
    """One rated game, seen from both sides."""

    change_a: int
    change_b: int
    k_a: int
    k_b: int
    p_a: float  # A's expected score; B's is 1 - p_a


class PeriodChange(NamedTuple):
    change: int
    raw: float
    expected: float  # the sum of the expected scores
    k: int


def k_factor(ruleset: Ruleset, rating: int, games: int) -> int:
    for band in ruleset.k_bands:
        if band.applies(rating, games):
            return band.k
    raise AssertionError("the last K band has no condition")  # rulesets.Ruleset checks it


def _clamped(ruleset: Ruleset, diff: int) -> int:
    limit = ruleset.diff_limit
    return max(-limit, min(limit, diff))


def expected_score(ruleset: Ruleset, rating: int, opp_rating: int) -> float:
    return 1.0 / (1.0 + 10.0 ** (_clamped(ruleset, opp_rating - rating) / ruleset.scale))


def _half_away(raw: float) -> int:
    # Not round(): Python rounds halves to even, and floor(|x| + 0.5) errs just below a half.
    magnitude = abs(raw)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:
        whole += 1
    return whole if raw >= 0 else -whole


def round_change(ruleset: Ruleset, raw: float) -> int:
    return int(raw) if ruleset.rounding == "truncate" else _half_away(raw)


def raw_change(ruleset: Ruleset, *, k: int, s: float, p: float, lead: int) -> float:
    """K x (S - P) after the gap rule; `lead` is the player's rating minus the opponent's."""
    raw = k * (s - p)
    if ruleset.gap is not None and lead >= ruleset.gap and raw > 0:
        return 0.0
    return raw


def result_values(ruleset: Ruleset, result: str) -> tuple[float, float]:
    """(S_A, S_B) of a rated result code."""
    try:
        return ruleset.result_values[result]
    except KeyError:
        if result in ruleset.forfeits:
            raise UnknownResult(f"{result!r} is a forfeit: forfeits are not rated") from None
        known = ", ".join(sorted(ruleset.codes))
        raise UnknownResult(f"unknown result {result!r} for {ruleset.code} (known: {known})") from None


def game_change(ruleset: Ruleset, a_rating: int, a_games: int, b_rating: int, b_games: int,
                result: str) -> GameChange:
    """Both players' changes for one rated game, rounded, the gap rule applied."""
    s_a, s_b = result_values(ruleset, result)
    k_a = k_factor(ruleset, a_rating, a_games)
    k_b = k_factor(ruleset, b_rating, b_games)
    p_a = expected_score(ruleset, a_rating, b_rating)
    raw_a = raw_change(ruleset, k=k_a, s=s_a, p=p_a, lead=a_rating - b_rating)
    raw_b = raw_change(ruleset, k=k_b, s=s_b, p=1.0 - p_a, lead=b_rating - a_rating)
    return GameChange(round_change(ruleset, raw_a), round_change(ruleset, raw_b), k_a, k_b, p_a)


def tournament_change(ruleset: Ruleset, *, rating: int, games: int,
                      results: Sequence[tuple[int, str]]) -> PeriodChange:
    """One player's change over a 'tournament' rating period.

    `results` are (opponent's pre-tournament rating, result code with the player as side A). Every game uses the
    player's pre-tournament rating and game count; the raw changes are summed and rounded once.
    """
    k = k_factor(ruleset, rating, games)
    raw = expected = 0.0
    for opp_rating, result in results:
        s, _ = result_values(ruleset, result)
        p = expected_score(ruleset, rating, opp_rating)
        expected += p
        raw += raw_change(ruleset, k=k, s=s, p=p, lead=rating - opp_rating)
    return PeriodChange(round_change(ruleset, raw), raw, expected, k)


def inactivity_adjusted(ruleset: Ruleset, rating: int) -> int:
    """The rating after the yearly downgrade of an inactive player (RULES.md §5)."""
    for step in ruleset.inactivity:
        if rating > step.above:
            lowered = rating - step.amount
            floor = ruleset.inactivity_floor
            return lowered if floor is None else max(floor, lowered)
    return rating
