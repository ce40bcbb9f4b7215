"""How well the ratings predict: rated games grouped by rating difference, predicted against observed (RULES.md §2).

Terms
-----
higher-rated player
    Of a rated game's two players, the one with the higher rating before it (at equal ratings, either: both
    predictions are 50 %). A game is seen once, from this side.
predicted score
    The higher-rated player's expected score P (rules.elo.expected_score, as the rating update used it).
observed score
    The higher-rated player's result value S as the ruleset counts it for Elo: a win 1, a draw 0.5 (AdlG's double
    demoralisation too), a loss 0, and Battle Empire's decisive and overwhelming wins 1.25 and 1.5. A band's
    predicted and observed shares are the means over its games; a rating is well calibrated when they agree.
band
    The games whose rating difference falls in [low, low + width); the last band is open ("500 and more"), where
    the games are few.
interval
    The 95 % Wilson score interval of the band's observed mean, taken on the scores divided by the ruleset's
    highest result value (so they lie in [0, 1]) and multiplied back. A score in [0, 1] varies at most as much
    as a win-or-loss with the same mean does, so with draws (or Battle Empire's larger wins) the interval is, if
    anything, wider than it needs: it covers the true mean at least about 95 % of the time.
minimum sample
    Below MIN_GAMES games a band's observed share and interval are not shown (the count is): a share of 3 games
    says nothing.
verdict
    One sentence over all games: the mean of S - P with its 95 % normal interval. When it excludes 0, the ratings
    over-predict (the higher-rated players score less than the ratings say: the differences are too wide) or
    under-predict (they score more); otherwise, when some bands lie off on both sides, the picture is mixed;
    otherwise predictions and results agree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from rules import shares
from rules.rulesets import Ruleset
from rules.shares import Z95, Interval

MIN_GAMES = shares.MIN_GAMES
BAND_WIDTH = 50
OPEN_FROM = 500  # the last band: every difference from here on

AGREE = "agree"
OVER = "over"  # the ratings promise the higher-rated player more than they score
UNDER = "under"
MIXED = "mixed"
TOO_FEW = "too_few"


class Band(NamedTuple):
    low: int  # the smallest rating difference of the band
    high: int | None  # the largest, None for the open band
    games: int
    predicted: float  # mean P of the higher-rated player
    observed: float | None  # mean S; None under the minimum sample
    interval: Interval | None  # None under the minimum sample

    @property
    def off(self) -> int:
        """+1 when the observed interval lies above the prediction, -1 below, 0 when it holds it (or is not shown)."""
        if self.interval is None or self.predicted in self.interval:
            return 0
        return 1 if self.interval.low > self.predicted else -1


class Calibration(NamedTuple):
    games: int
    bands: list[Band]
    predicted: float  # mean P over every game
    observed: float  # mean S over every game
    difference: Interval | None  # 95 % interval of the mean of S - P; None under the minimum sample
    verdict: str

    @property
    def points_per_100(self) -> float:
        """How many points per 100 games the higher-rated players scored above (+) or below (-) the ratings' word."""
        return 100 * (self.observed - self.predicted)


def band_of(diff: int, *, width: int = BAND_WIDTH, open_from: int = OPEN_FROM) -> int:
    """The band a rating difference falls in, by its lowest difference."""
    diff = abs(diff)
    return open_from if diff >= open_from else diff - diff % width


def calibration(ruleset: Ruleset, games: Iterable[tuple[int, float, float]], *, width: int = BAND_WIDTH,
                open_from: int = OPEN_FROM, min_games: int = MIN_GAMES) -> Calibration:
    """The calibration of `games`: (rating difference, P, S) of each game's higher-rated player."""
    return calibration_counted(ruleset, ((diff, p, s, 1) for diff, p, s in games), width=width,
                               open_from=open_from, min_games=min_games)


def calibration_counted(ruleset: Ruleset, rows: Iterable[tuple[int, float, float, int]], *,
                        width: int = BAND_WIDTH, open_from: int = OPEN_FROM,
                        min_games: int = MIN_GAMES) -> Calibration:
    """The same, from (rating difference, P, S, how many games) rows: the games that share all three counted once
    (a database groups them; the calibration is the same as game by game)."""
    top = ruleset.max_result_value
    sums: dict[int, list[float]] = {}
    n = 0
    total_p = total_s = total_d2 = 0.0
    for diff, p, s, count in rows:
        low = band_of(diff, width=width, open_from=open_from)
        acc = sums.get(low)
        if acc is None:
            acc = sums[low] = [0, 0.0, 0.0]
        acc[0] += count
        acc[1] += p * count
        acc[2] += s * count
        n += count
        total_p += p * count
        total_s += s * count
        total_d2 += (s - p) * (s - p) * count
    bands = []
    for low in sorted(sums):
        count, sum_p, sum_s = sums[low]
        mean_s = sum_s / count
        interval = None
        scaled = shares.share(sum_s / top, count, min_games=min_games)
        if scaled is not None:
            interval = Interval(scaled.interval.low * top, scaled.interval.high * top)
        bands.append(Band(low, None if low >= open_from else low + width - 1, count, sum_p / count,
                          None if interval is None else mean_s, interval))
    if n == 0:
        return Calibration(0, [], 0.0, 0.0, None, TOO_FEW)
    predicted, observed = total_p / n, total_s / n
    mean_d = observed - predicted
    difference = None
    verdict = TOO_FEW
    if n >= min_games:
        variance = max(0.0, total_d2 / n - mean_d * mean_d) * n / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        difference = Interval(mean_d - half, mean_d + half)
        offs = {b.off for b in bands}
        if difference.high < 0:
            verdict = OVER
        elif difference.low > 0:
            verdict = UNDER
        elif {1, -1} <= offs:
            verdict = MIXED
        else:
            verdict = AGREE
    return Calibration(n, bands, predicted, observed, difference, verdict)
