"""The calibration page's numbers: the rated games of one system read from the rating history, handed to
rules.calibration, and stored for the page (ratings.models.Calibration). The worker runs it after each replay;
the page only reads what it stored.

Only what the rating history holds is read: the games of rated tournaments, an excluded player's games already
void there (the replay leaves them out for both sides). Games against the spare are left out: its rating is
fixed by the rules, not measured, so it predicts nothing about anyone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from django.db.models import Count, F, Q
from django.utils import timezone

from ratings.models import Calibration, RatingEvent, RatingSystem
from ratings.services import ReplaySummary, replay_pending
from rules import calibration
from rules.rulesets import SPARE_ID
from rules.shares import Interval


def calibration_games(system: RatingSystem) -> Iterator[tuple[int, float, float, int]]:
    """(rating difference, P, S, how many games) of the rated games between two real players, each from its
    higher-rated side (at equal ratings, the side of the lower ID: each game once). The database groups the games
    that share all three: a federation's few thousand rating differences, not its hundreds of thousands of games,
    cross to Python."""
    higher = Q(expected__gt=0.5) | Q(expected=0.5, player_id__lt=F("opponent_id"))
    rows = (RatingEvent.objects.filter(system=system, kind=RatingEvent.GAME).exclude(opponent_id=SPARE_ID)
            .filter(higher).order_by().annotate(diff=F("rating_before") - F("opponent_rating"))
            .values("diff", "expected", "score").annotate(n=Count("id")).values_list("diff", "expected", "score", "n"))
    yield from rows.iterator(chunk_size=20_000)


def calibration_refresh(*, system_code: str) -> Calibration | None:
    """Work the calibration of a system out again and store it (None: no such system)."""
    system = RatingSystem.objects.filter(code=system_code).first()
    if system is None:
        return None
    started = time.perf_counter()
    result = calibration.calibration_counted(system.get_ruleset(), calibration_games(system))
    return calibration_store(system, result, seconds=time.perf_counter() - started)


def calibration_store(system: RatingSystem, result: calibration.Calibration, *, seconds: float = 0) -> Calibration:
    """Store `result` as the system's calibration, in place of the last."""
    difference = result.difference or Interval(None, None)
    row, _ = Calibration.objects.update_or_create(system=system, defaults={
        "computed_at": timezone.now(), "games": result.games, "predicted": result.predicted,
        "observed": result.observed, "difference_low": difference.low, "difference_high": difference.high,
        "verdict": result.verdict, "seconds": seconds,
        "bands": [[b.low, b.high, b.games, b.predicted, b.observed, *(b.interval or (None, None))]
                  for b in result.bands],
    })
    return row


def stored_calibration(row: Calibration) -> calibration.Calibration:
    """The stored row as the rules' value, for the page."""
    bands = [calibration.Band(low, high, games, predicted, observed,
                              None if i_low is None else Interval(i_low, i_high))
             for low, high, games, predicted, observed, i_low, i_high in row.bands]
    difference = None if row.difference_low is None else Interval(row.difference_low, row.difference_high)
    return calibration.Calibration(row.games, bands, row.predicted, row.observed, difference, row.verdict)


def calibrations_stored(systems: list[RatingSystem]) -> dict[str, Calibration]:
    """What the worker last stored for each system (one query)."""
    return {row.system_id: row for row in Calibration.objects.filter(system__in=systems)}


def replay_and_calibrate(*, system_code: str) -> list[ReplaySummary]:
    """A replay run in this process (a command), then the calibration of what it rated: what the worker does in
    two tasks. ReplayBusy when a replay of the system is already running (nothing is calibrated then)."""
    summaries = replay_pending(system_code=system_code)
    calibration_refresh(system_code=system_code)
    return summaries
