"""A tournament day's schedule as its announcement gives it: the start time, then the rounds and the breaks.

Terms
-----
schedule
    The referee's text, one line per round or break, each starting with its time of day: "9:30 Round 1",
    "12h30 Lunch", "19:00 Prize-giving". A time is H:MM, HH:MM or the French 9h30 / 9h; what follows is the line's
    label. Empty lines are ignored. A tournament of several days gives the schedule of one day, kept every day.
schedule failure
    A line without a time or a label, a time of day that does not exist (25:00), a line earlier than the one before
    it, a first line earlier than the start time, a schedule with no start time: a code and its figures, worded by
    tournaments.before.conditions like the announcement's other failures.
end of the day
    The time of the schedule's last line, when it is after the start time: where a calendar's event ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time

MAX_LINES = 30
MAX_LINE = 120

_LINE = re.compile(r"^(?P<hour>\d{1,2})\s*(?:[:hH.]\s*(?P<minute>\d{2})?)\s*[-–—:·]?\s*(?P<label>.*)$")


@dataclass(frozen=True)
class ScheduleLine:
    at: time
    label: str

    def __str__(self) -> str:
        return f"{self.at:%H:%M} {self.label}"


def schedule_read(text: str) -> tuple[list[ScheduleLine], list[tuple[str, dict]]]:
    """The schedule's lines, and its failures as (code, params); the lines are usable only without failures."""
    lines: list[ScheduleLine] = []
    failures: list[tuple[str, dict]] = []
    written = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if len(written) > MAX_LINES:
        return [], [("schedule_too_long", {"limit": MAX_LINES})]
    for number, line in enumerate(written, start=1):
        match = _LINE.match(line)
        if match is None or len(line) > MAX_LINE:
            failures.append(("schedule_line", {"line": number, "text": line[:40], "limit": MAX_LINE}))
            continue
        hour, minute = int(match["hour"]), int(match["minute"] or 0)
        label = " ".join(match["label"].split())
        if hour > 23 or minute > 59 or not label:
            failures.append(("schedule_line", {"line": number, "text": line[:40], "limit": MAX_LINE}))
            continue
        at = time(hour, minute)
        if lines and at <= lines[-1].at:
            failures.append(("schedule_order", {"line": number, "time": f"{at:%H:%M}",
                                                "before": f"{lines[-1].at:%H:%M}"}))
        lines.append(ScheduleLine(at, label))
    return lines, failures


def schedule_failures(*, start: time | None, text: str) -> list[tuple[str, dict]]:
    """What is wrong with the start time and schedule of an announcement (see the module's terms)."""
    lines, failures = schedule_read(text)
    if failures or not lines:
        return failures
    if start is None:
        return [("schedule_without_start", {})]
    if lines[0].at < start:
        return [("schedule_before_start", {"time": f"{lines[0].at:%H:%M}", "start": f"{start:%H:%M}"})]
    return []


def day_end(*, start: time | None, text: str) -> time | None:
    """The end of the day (see the module's terms), or None when the schedule does not say it."""
    lines, failures = schedule_read(text)
    if failures or not lines or start is None or lines[-1].at <= start:
        return None
    return lines[-1].at
