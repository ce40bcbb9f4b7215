"""What one game is worth in a tournament's score (RULES.md §6; charter App. 4).

Terms
-----
losses
    Whole percentages 0-100 of an army lost in a game.
game score
    AdlG ("losses" scoring): 10-100 from the result and the losses, by the table of App. 4. Other rulesets
    ("values" scoring, Battle Empire): the result value S of the rating rules (0, 0.5, 1, 1.25, 1.5).
forfeit
    'FA' / 'FB': won by A / B because the opponent was absent: 81 for the present player, 10 for the absent one.
letter
    A result from one player's view: W, L, D, DD, FW and FL (forfeit won or lost); Battle Empire adds W+, W++,
    L+ and L++.
"""

from __future__ import annotations

from rules.rulesets import Ruleset

FORFEIT_WINNER = {"FA": "A", "FB": "B"}
# AdlG scores of these results come from the losses, so the sheet cannot leave them blank.
LOSSES_REQUIRED = frozenset({"A", "B", "D"})


def _check_losses(*losses: int) -> None:
    for value in losses:
        if not 0 <= value <= 100:
            raise ValueError(f"losses are whole percentages from 0 to 100, not {value!r}")


def _won(winner_losses: int) -> tuple[int, int]:
    """(winner, loser): the winner loses a point per 5% suffered, the loser gains one per 5% inflicted."""
    return max(81, 100 - winner_losses // 5), min(29, 10 + winner_losses // 5)


def _drawn(own: int, other: int) -> int:
    # The charter's range is 31-58; 100% losses on a drawn game would leave it otherwise.
    return max(31, min(58, 40 + 2 * (other // 10) - own // 10))


def game_scores(result: str, a_losses: int = 0, b_losses: int = 0) -> tuple[int, int]:
    """AdlG game scores (A, B) for a result code of the sheet."""
    _check_losses(a_losses, b_losses)
    if result == "A":
        return _won(a_losses)
    if result == "B":
        b, a = _won(b_losses)
        return a, b
    if result == "D":
        return _drawn(a_losses, b_losses), _drawn(b_losses, a_losses)
    if result == "DD":
        return 58, 58
    if result == "FA":
        return 81, 10
    if result == "FB":
        return 10, 81
    raise ValueError(f"unknown AdlG result {result!r} (known: A, B, D, DD, FA, FB)")


def scores(ruleset: Ruleset, result: str, a_losses: int | None = None, b_losses: int | None = None
           ) -> tuple[float, float]:
    """The game scores (A, B) of a result under the ruleset's scoring; blank losses count as 0."""
    if ruleset.scoring == "losses":
        return game_scores(result, a_losses or 0, b_losses or 0)
    try:
        return ruleset.result_values[result]
    except KeyError:
        known = ", ".join(ruleset.result_codes)
        raise ValueError(f"unknown {ruleset.name} result {result!r} (known: {known})") from None


def letter(result: str, side: str) -> str:
    """The result from the view of `side` ('A' or 'B')."""
    if result in ("D", "DD"):
        return result
    if result in FORFEIT_WINNER:
        return "FW" if FORFEIT_WINNER[result] == side else "FL"
    won = result[0] == side
    return ("W" if won else "L") + result[1:]


def outcome(letter_: str) -> int:
    """1, 0 or -1: a win, a draw or a loss, from a letter."""
    if letter_[0] == "W" or letter_ == "FW":
        return 1
    if letter_[0] == "L" or letter_ == "FL":
        return -1
    return 0


def winner(result: str) -> str | None:
    """'A', 'B' or None (a draw)."""
    if result in FORFEIT_WINNER:
        return FORFEIT_WINNER[result]
    return result[0] if result[0] in "AB" else None


# The codes of a win whose losses say who lost more (AdlG): a forfeit's losses say nothing of the game.
LOSSES_WIN = {"A": "A", "B": "B"}


def winner_lost_more(result: str, a_losses: int | None, b_losses: int | None) -> tuple[str, int, int] | None:
    """A win whose winner lost more than the loser: (the winner's side 'A' or 'B', the winner's losses, the
    loser's), else None. Not impossible (a general lost early, a camp taken), but most often losses typed the wrong
    way round: whoever enters such a result, the referee or a player, is asked to confirm it."""
    side = LOSSES_WIN.get(result)
    if side is None or a_losses is None or b_losses is None:
        return None
    won, lost = (a_losses, b_losses) if side == "A" else (b_losses, a_losses)
    return (side, won, lost) if won > lost else None
