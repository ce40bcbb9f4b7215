"""The round clock: how long a game lasts (charter App. 1 §6), when deployment must be over and what the referee
announces (App. 3 §3), and a clock that is started, paused, resumed and extended.

Terms
-----
game time
    The time allotted to a round's games. The duration the tournament's announcement gave (App. 1 §6: it "must be
    specified before the start of the tournament and clearly announced"); without one, the charter's for the army
    points: 1 h 15 for 100 points, 2 h 30 for 200, 3 h 30 for 300, interpolated between them and rounded up to
    5 minutes (rules.charter.game_minutes: 150 points, 1 h 55). **Decision** for the clock, where the charter gives
    none: below 100 points 1 h 15, above 300 points 3 h 30 (the nearest format the charter has, App. 1 §5); no army
    points known: 2 h 30, the time of 200 points. The referee edits it in minutes before the clock starts.
deployment
    After 20 % of the game time the players must have finished the set-up and started playing (App. 3 §3: "30
    minutes in 200 points"). The 20 % is of the game time as planned: a later extension does not move it.
running time
    The time the clock has run since it started, pauses left out. Everything the clock says follows from it:
    time left = game time + extensions − running time (negative once the game time is over).
announcements
    What the referee must announce (App. 3 §3), in the order they fall due: deployment over, "end of game time
    in 30 minutes", "end of game time in 15 minutes", "end of game time". One falls due when the time left reaches
    its mark; a mark the game never had (30 minutes left of a game of 25 minutes) is not announced. An extension
    gives back time, so an announcement already due may be due again later: it is worked out from the time left.

Nothing here reads a clock: every function is given "now", so the pages, the tests and the property tests agree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from rules.charter import CHARTER_MINUTES, game_minutes
from rules.words import Refused, Words, gettext_noop

DEFAULT_POINTS = 200
DEPLOYMENT_PERCENT = 20

# What a referee may set: a game of a few minutes or of a whole day is a typing mistake.
MIN_MINUTES = 10
MAX_MINUTES = 6 * 60
MAX_EXTENSION_MINUTES = 120
MAX_TOTAL_MINUTES = 10 * 60

DEPLOYMENT_OVER = "deployment_over"
LEFT_30 = "left_30"
LEFT_15 = "left_15"
TIME_UP = "time_up"

READY, RUNNING, PAUSED, OVER = "ready", "running", "paused", "over"


CLOCK_WORDS = {
    "clock_minutes": gettext_noop("A game time is between %(low)s and %(high)s minutes (%(minutes)s typed)."),
    "clock_started": gettext_noop("This round's clock has already started: extend it instead."),
    "clock_not_started": gettext_noop("This round's clock has not started yet."),
    "clock_paused": gettext_noop("The clock is already paused."),
    "clock_not_paused": gettext_noop("The clock is not paused."),
    "clock_extension": gettext_noop("An extension is 1 to %(high)s minutes (%(minutes)s typed)."),
    "clock_total": gettext_noop("A round's game time stays under %(high)s hours in all."),
    "clock_round_not_published": gettext_noop(
        "Round %(round)s is not published: its clock starts once the players see it."
    ),
}


class ClockRefused(Refused):
    """What the referee can fix: `code` and its `params`."""

    def __init__(self, code: str, **params):
        super().__init__([(code, params)])

    @property
    def code(self) -> str:
        return self.reasons[0][0]

    @property
    def params(self) -> dict:
        return self.reasons[0][1]

    @staticmethod
    def wording(code: str, params: dict, words: Words, names=None) -> str:
        text = CLOCK_WORDS.get(code)
        return words.gettext(text) % params if text is not None else code


ANNOUNCED, CHARTER, NEAREST, DEFAULT = "announced", "charter", "nearest", "default"


def planned_minutes(army_points: int | None, announced: int | None = None) -> tuple[int, str]:
    """A round's game time before the referee changes it, and where it comes from: the announcement's, the
    charter's for the army points, the nearest format's, or 200 points' when the army points are not known."""
    if announced:
        return announced, ANNOUNCED
    charter = game_minutes(army_points)
    if charter is not None:
        return charter, CHARTER
    if army_points is None:
        return CHARTER_MINUTES[DEFAULT_POINTS], DEFAULT
    listed = sorted(CHARTER_MINUTES)
    return CHARTER_MINUTES[listed[0] if army_points < listed[0] else listed[-1]], NEAREST


def minutes_checked(minutes: int) -> int:
    """A game time the referee typed, in minutes; refused outside MIN_MINUTES..MAX_MINUTES."""
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ClockRefused("clock_minutes", low=MIN_MINUTES, high=MAX_MINUTES, minutes=minutes)
    return minutes


def deployment_time(duration: timedelta) -> timedelta:
    """20 % of the game time, to the second."""
    return timedelta(seconds=round(duration.total_seconds() * DEPLOYMENT_PERCENT / 100))


@dataclass(frozen=True)
class Announcement:
    code: str
    at_left: timedelta  # due once the time left is at most this


@dataclass(frozen=True)
class Clock:
    """A round's clock. `duration` the game time as planned; `started_at` None until started; `paused_at` set while
    paused; `paused` the pauses already over; `extended` what the referee added."""

    duration: timedelta
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused: timedelta = timedelta(0)
    extended: timedelta = timedelta(0)

    @property
    def total(self) -> timedelta:
        return self.duration + self.extended

    @property
    def started(self) -> bool:
        return self.started_at is not None

    def running_time(self, now: datetime) -> timedelta:
        """The time run since the start, pauses left out; frozen while paused; never negative."""
        if self.started_at is None:
            return timedelta(0)
        until = self.paused_at if self.paused_at is not None else now
        return max(until - self.started_at - self.paused, timedelta(0))

    def time_left(self, now: datetime) -> timedelta:
        """The game time left: negative once it is over."""
        return self.total - self.running_time(now)

    def deployment_over(self, now: datetime) -> bool:
        return self.started and self.running_time(now) >= deployment_time(self.duration)

    def state(self, now: datetime) -> str:
        if self.started_at is None:
            return READY
        if self.paused_at is not None:
            return PAUSED
        return OVER if self.time_left(now) <= timedelta(0) else RUNNING

    def announcements(self) -> list[Announcement]:
        """Every announcement of this game, in the order they fall due."""
        total = self.total
        made = [Announcement(DEPLOYMENT_OVER, total - deployment_time(self.duration))]
        made += [Announcement(code, timedelta(minutes=minutes)) for code, minutes in ((LEFT_30, 30), (LEFT_15, 15))
                 if total > timedelta(minutes=minutes)]
        made.append(Announcement(TIME_UP, timedelta(0)))
        return sorted(made, key=lambda a: -a.at_left)

    def due(self, now: datetime) -> list[Announcement]:
        """The announcements already due, in the order they fell due: the last one is the news."""
        if self.started_at is None:
            return []
        left = self.time_left(now)
        return [a for a in self.announcements() if left <= a.at_left]

    def ends_at(self, now: datetime) -> datetime | None:
        """When the game time ends if nothing changes: None before the start and while paused."""
        if self.started_at is None or self.paused_at is not None:
            return None
        return now + self.time_left(now)

    def deployment_ends_at(self, now: datetime) -> datetime | None:
        if self.started_at is None or self.paused_at is not None:
            return None
        return now + (deployment_time(self.duration) - self.running_time(now))


def clock_start(clock: Clock, now: datetime) -> Clock:
    if clock.started:
        raise ClockRefused("clock_started")
    return replace(clock, started_at=now)


def clock_pause(clock: Clock, now: datetime) -> Clock:
    if not clock.started:
        raise ClockRefused("clock_not_started")
    if clock.paused_at is not None:
        raise ClockRefused("clock_paused")
    return replace(clock, paused_at=max(now, clock.started_at))


def clock_resume(clock: Clock, now: datetime) -> Clock:
    if clock.paused_at is None:
        raise ClockRefused("clock_not_paused")
    return replace(clock, paused_at=None, paused=clock.paused + max(now - clock.paused_at, timedelta(0)))


def clock_extend(clock: Clock, minutes: int) -> Clock:
    """Adds exactly `minutes` to the game time; before the start the game time is set instead."""
    if not clock.started:
        raise ClockRefused("clock_not_started")
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise ClockRefused("clock_extension", high=MAX_EXTENSION_MINUTES, minutes=minutes)
    if clock.total + timedelta(minutes=minutes) > timedelta(minutes=MAX_TOTAL_MINUTES):
        raise ClockRefused("clock_total", high=MAX_TOTAL_MINUTES // 60)
    return replace(clock, extended=clock.extended + timedelta(minutes=minutes))


def clock_reset(clock: Clock, now: datetime) -> Clock:
    """Back to before the start, with the same game time (a round withdrawn and paired again, a false start)."""
    if not clock.started:
        raise ClockRefused("clock_not_started")
    return Clock(duration=clock.duration)


def clock_set(clock: Clock, minutes: int) -> Clock:
    """The game time changed before the start."""
    if clock.started:
        raise ClockRefused("clock_started")
    return replace(clock, duration=timedelta(minutes=minutes_checked(minutes)))
