"""What a game's ratings predict, before it is played (RULES.md §2): each player's chances and what each result
would make of their rating.

Terms
-----
chances
    A player's expected score P of RULES.md §2, from both ratings: `rules.elo.expected_score`, the very number the
    rating update uses. 0.64 reads "64 %": on average the player scores 0.64 of a point against this opponent.
outlook
    The chances in words, by band: even (within 3 points of 50 %), slight favourite or underdog (up to 60 % or
    from 40 %), favourite or underdog (up to 75 % or from 25 %), clear favourite or underdog beyond.
what-if
    For each result the ruleset rates, from the player's side: the rating the player would have after it, by
    `rules.elo.game_change` (K, the gap rule and the rounding included). The ruleset's codes for the same score
    (AdlG's DD scores as D) are offered once. In a 'tournament' rating period a tournament's changes are summed
    before rounding, so a what-if is the change of a tournament of one game.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.elo import expected_score, game_change
from rules.rulesets import Ruleset

EVEN = "even"
SLIGHT_FAVOURITE = "slight_favourite"
FAVOURITE = "favourite"
CLEAR_FAVOURITE = "clear_favourite"
SLIGHT_UNDERDOG = "slight_underdog"
UNDERDOG = "underdog"
CLEAR_UNDERDOG = "clear_underdog"
# (lowest chances, outlook), highest first: the first whose floor the chances reach.
_OUTLOOKS = ((0.75, CLEAR_FAVOURITE), (0.60, FAVOURITE), (0.53, SLIGHT_FAVOURITE), (0.47, EVEN),
             (0.40, SLIGHT_UNDERDOG), (0.25, UNDERDOG), (0.0, CLEAR_UNDERDOG))


def chances(ruleset: Ruleset, rating: int, opp_rating: int) -> float:
    """The player's expected score against the opponent (P of RULES.md §2)."""
    return expected_score(ruleset, rating, opp_rating)


def outlook(p: float) -> str:
    """The chances in words: one of the codes above (the shell words them in the reader's language)."""
    for floor, code in _OUTLOOKS:
        if p >= floor:
            return code
    return CLEAR_UNDERDOG


def percent(p: float) -> int:
    """The chances as a whole percentage, never 0 or 100 while P is neither (a 99.6 % favourite can still lose)."""
    shown = round(p * 100)
    if 0 < p < 1:
        shown = min(99, max(1, shown))
    return shown


class WhatIf(NamedTuple):
    result: str  # the result code with the player as side A
    score: float  # the player's result value S
    change: int
    rating_after: int


def what_if(ruleset: Ruleset, rating: int, games: int, opp_rating: int, opp_games: int) -> list[WhatIf]:
    """The player's rating after each result the ruleset rates, best result first."""
    seen: set[float] = set()
    outcomes = []
    for outcome in sorted(ruleset.outcomes, key=lambda o: -o.a):
        if outcome.a in seen:
            continue
        seen.add(outcome.a)
        change = game_change(ruleset, rating, games, opp_rating, opp_games, outcome.code).change_a
        outcomes.append(WhatIf(outcome.code, outcome.a, change, rating + change))
    return outcomes
