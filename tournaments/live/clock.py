"""The round clock of the tournament day (rules.clock): started by the referee with the game time of the
tournament's army points (editable in minutes before the start), paused, resumed, extended; each change audited
and bumping the tournament's version, so that every live page's poll sees it. What a page shows of it
(`ClockView`) is worked out from the server's time, never a phone's.

Terms
-----
current round
    The clock shown is the one of the latest round published in any pool; a round's clock is started only once
    that round is published. One clock per round number (models.LiveClock): the hall plays a round together.
    Once every table of that round has its result the round is over and no page shows its clock any more (it
    would read as the time of the round being paired next); the next round's appears when it is published.
server's time
    `clock_now()`: every read and change of a clock asks it, so that a test can set the server's time (the browser
    test moves it with the page's own clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from adlg_site import words
from players.audit import audit_record
from rules import clock as rules
from tournaments.live.pools import bump, locked
from tournaments.models import Announcement, LiveClock, LiveRound, LiveTournament


def clock_now() -> datetime:
    """The server's time, as every clock reads it (a test replaces this function to move it)."""
    return timezone.now()


def rules_clock(row: LiveClock) -> rules.Clock:
    return rules.Clock(duration=row.duration, started_at=row.started_at, paused_at=row.paused_at, paused=row.paused,
                       extended=row.extended)


def planned(live: LiveTournament) -> tuple[timedelta, str]:
    """A round's game time before the referee changes it, and where it comes from (rules.clock.planned_minutes):
    the tournament's announcement, else the charter's for its army points."""
    announced = Announcement.objects.filter(tournament_id=live.pk).values_list("game_minutes", flat=True).first()
    minutes, source = rules.planned_minutes(live.tournament.army_points, announced)
    return timedelta(minutes=minutes), source


def playing_round(live: LiveTournament) -> int | None:
    """The current round while the hall plays it: None before round 1 is published and once every table of the
    current round, in every pool, has its result (one query)."""
    latest = (LiveRound.objects.filter(live=live, published_at__isnull=False).values("number")
              .annotate(open=Count("tables", filter=Q(tables__result=""))).order_by("-number").first())
    return latest["number"] if latest and latest["open"] else None


@dataclass(frozen=True)
class ClockView:
    """A round's clock as a page shows it at `now` (the server's time when the page was rendered)."""

    live: LiveTournament
    number: int
    clock: rules.Clock
    now: datetime
    source: str  # where the game time comes from: rules.clock.planned_minutes's, or "changed" by the referee

    @property
    def state(self) -> str:
        return self.clock.state(self.now)

    @property
    def started(self) -> bool:
        return self.clock.started

    @property
    def paused(self) -> bool:
        return self.state == rules.PAUSED

    @property
    def minutes(self) -> int:
        return int(self.clock.duration.total_seconds() // 60)

    @property
    def extended_minutes(self) -> int:
        return int(self.clock.extended.total_seconds() // 60)

    @property
    def left_seconds(self) -> int:
        """The time left at render, to the second: negative once the game time is over."""
        return int(self.clock.time_left(self.now).total_seconds())

    @property
    def shown_left(self) -> str:
        """The time left as the clock shows it: h:mm:ss or mm:ss; 0:00 once over."""
        return clock_text(max(self.left_seconds, 0))

    @property
    def deployment_over(self) -> bool:
        return self.clock.deployment_over(self.now)

    @property
    def deploy_at(self) -> int:
        """Deployment is over once the time left is at most this many seconds."""
        return int((self.clock.total - rules.deployment_time(self.clock.duration)).total_seconds())

    @property
    def deployment_left_seconds(self) -> int:
        return self.left_seconds - self.deploy_at

    @property
    def deployment_left_text(self) -> str:
        return clock_text(max(self.deployment_left_seconds, 0))

    @property
    def announcements(self) -> list[tuple[str, int]]:
        """(code, due once the time left is at most this many seconds), in the order they fall due."""
        return [(a.code, int(a.at_left.total_seconds())) for a in self.clock.announcements()]

    @property
    def latest_due(self) -> str:
        due = self.clock.due(self.now)
        return due[-1].code if due else ""

    @property
    def ends_at(self) -> datetime | None:
        return self.clock.ends_at(self.now)

    @property
    def deployment_ends_at(self) -> datetime | None:
        return self.clock.deployment_ends_at(self.now)


def clock_text(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def clock_view(live: LiveTournament, *, number: int | None = None) -> ClockView | None:
    """The clock of round `number` (default: the current round while it is played, playing_round) at the server's
    time; None before round 1 is published and between a round over and the next one published. A round whose
    clock was never touched shows the charter's game time, ready to start."""
    number = number if number is not None else playing_round(live)
    if number is None:
        return None
    row = LiveClock.objects.filter(live=live, number=number).first()
    duration, source = planned(live)
    clock = rules_clock(row) if row is not None else rules.Clock(duration=duration)
    return ClockView(live, number, clock, clock_now(), source=source if clock.duration == duration else "changed")


# --- the referee's changes: each under the tournament's lock, audited, bumping the version


def _change(live: LiveTournament, number: int, change, *, user, action: str, summary) -> LiveClock:
    with transaction.atomic():
        live = locked(live)
        if not LiveRound.objects.filter(live=live, number=number, published_at__isnull=False).exists():
            raise rules.ClockRefused("clock_round_not_published", round=number)
        row = LiveClock.objects.select_for_update().filter(live=live, number=number).first()
        if row is None:
            row = LiveClock(live=live, number=number, duration=planned(live)[0])
        before = rules_clock(row)
        after = change(before, clock_now())
        row.duration, row.started_at, row.paused_at = after.duration, after.started_at, after.paused_at
        row.paused, row.extended = after.paused, after.extended
        row.save()
        audit_record(user=user, action=action, obj=live.tournament, summary=f"round {number}: {summary(after)}")
        bump(live)
    return row


def clock_set(live: LiveTournament, number: int, *, minutes: int, user=None) -> LiveClock:
    """The game time of round `number` before its clock starts, in minutes (rules.clock bounds)."""
    return _change(live, number, lambda c, now: rules.clock_set(c, minutes), user=user, action="live_clock_set",
                   summary=lambda c: f"game time set to {minutes} minutes")


def clock_start(live: LiveTournament, number: int, *, minutes: int | None = None, user=None) -> LiveClock:
    """Starts round `number`'s clock now; `minutes` sets its game time first (default: as set, or as planned)."""

    def start(clock, now):
        if minutes is not None:
            clock = rules.clock_set(clock, minutes)
        return rules.clock_start(clock, now)

    return _change(live, number, start, user=user, action="live_clock_start",
                   summary=lambda c: f"clock started, game time {int(c.duration.total_seconds() // 60)} minutes")


def clock_pause(live: LiveTournament, number: int, *, user=None) -> LiveClock:
    return _change(live, number, rules.clock_pause, user=user, action="live_clock_pause",
                   summary=lambda c: "clock paused")


def clock_resume(live: LiveTournament, number: int, *, user=None) -> LiveClock:
    return _change(live, number, rules.clock_resume, user=user, action="live_clock_resume",
                   summary=lambda c: "clock resumed")


def clock_reset(live: LiveTournament, number: int, *, user=None) -> LiveClock:
    """Round `number`'s clock back to before its start (a false start, a round withdrawn and paired again)."""
    return _change(live, number, rules.clock_reset, user=user, action="live_clock_reset",
                   summary=lambda c: "clock reset to its start")


def clock_extend(live: LiveTournament, number: int, *, minutes: int, user=None) -> LiveClock:
    return _change(live, number, lambda c, now: rules.clock_extend(c, minutes), user=user,
                   action="live_clock_extend",
                   summary=lambda c: f"game time extended by {minutes} minutes "
                                     f"({int(c.extended.total_seconds() // 60)} in all)")


def refusal_text(exc: rules.ClockRefused) -> str:
    """A clock's refusal in the reader's language."""
    return words.refusal_text(exc)[0]
