"""A share and its 95 % interval, shown only over enough games (the calibration, the armies' records).

Terms
-----
share
    Points scored over games played: a win counts 1, a draw one half, a loss 0 (or a mean score in [0, 1]).
Wilson interval
    The 95 % Wilson score interval of a share over n games: unlike share ± 1.96 standard errors it stays
    inside [0, 1] and does not shrink to a point at 0 % or 100 %, so it stays honest on the small samples a
    federation has.
minimum sample
    Below MIN_GAMES games no share is shown, only the count: 3 wins of 4 games says nothing of an army or a band.
"""

from __future__ import annotations

import math
from typing import NamedTuple

Z95 = 1.959963984540054
MIN_GAMES = 20


class Interval(NamedTuple):
    low: float
    high: float

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | float) and self.low <= value <= self.high


class Share(NamedTuple):
    value: float
    interval: Interval


def wilson(share: float, n: int, *, z: float = Z95) -> Interval:
    """The Wilson score interval of a share observed over n trials (share in [0, 1], n > 0)."""
    if n <= 0:
        raise ValueError("a share needs at least one trial")
    share = min(1.0, max(0.0, share))
    z2 = z * z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # min/max: at a share of 0 or 1 the subtraction may miss the share itself by a rounding error.
    return Interval(max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half)))


def share(points: float, games: int, *, min_games: int = MIN_GAMES) -> Share | None:
    """The share points / games with its Wilson interval; None under the minimum sample."""
    if games < max(1, min_games):
        return None
    value = points / games
    return Share(value, wilson(value, games))
