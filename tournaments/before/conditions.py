"""The charter's conditions before a tournament, and their words: a new tournament in the calendar (App. 1 §1-2,
checked by ``new_tournament_failures``) and its announcement (App. 1 §6, §8-12, ``announcement_failures``). The
services that apply them are tournaments.before.new_tournament and tournaments.before.announcement.

Terms:
- *announced_on*: the day the tournament is registered on the site; it must be at least two calendar months
  before the start (announced on 31 January: start on 31 March at the earliest; on 31 December: 28/29 February).
- *format key*: what "different formats" compares: individual or team play, and the army points
  (``individual-200``). It is read from the free-text format ("200 points individual", "équipes 300 pts") and the
  army points field, so tournaments imported from sheets compare with new ones.
- *club's year*: the other official tournaments of the same organising club and rating system starting in the same
  calendar year. A club may enter two per year in the championship, of different formats. A tournament that is not
  official, or has no organising club, is not limited.
- *failure*: ``(code, params)``; the code is stable (tests and templates rely on it), the message is written by
  ``condition_message`` in the reader's language (the catalogue).

A failure blocks the new tournament unless the technical board approves an exception, with a reason
(``exception_approved``). The board does so by registering the tournament itself with the exception, or later on
the board's exception page.

The announcement (App. 1 §12) adds to the calendar entry what players need before entering: the venue, the
duration of the games, the pools and their themes, the list checker and the lists' deadline, whether the lists are
published before the start, the pairing of the first game; and, for the players' calendars, the start time and
the day's schedule (rounds and breaks). Its referee edits it until the first day; each save is
checked by ``announcement_failures`` (every failure blocks it; no exception):

- *deadline*: the lists are sent at least one week before the tournament (§11): the deadline is at the latest
  LIST_DEADLINE_DAYS days before the first day.
- *duration*: the charter's duration for the army points (§6, rules.charter.game_minutes); another duration
  must be explained to the players (§6: "this must be clearly explained to everyone").
- *first round*: one of the charter's methods (App. 2 §3, rules.pairing's names); the referee's own pairing
  (``manual``: historical enemies, list dates, choice, challenges) says which.
- *pools*: each of the tournament's pools has a name (once) and a theme (§8); the allowed armies are optional.
- *list checker*: an account that is not entered to play (§9: whoever saw the lists plays only as the spare).
- *schedule* (not the charter's: the site's, so that calendars get it right): each line a time and what it is, in
  the order of the day, none before the start time (rules.schedule).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date, time, timedelta

from django.utils import translation
from django.utils.translation import gettext_noop

from adlg_site.words import refusal_text
from rules.charter import LIST_DEADLINE_DAYS, duration_words, game_minutes
from rules.pairing.model import MANUAL, ROUND_ONE_METHODS
from rules.schedule import schedule_failures
from rules.words import Refused

MIN_NOTICE_MONTHS = 2
MAX_PER_CLUB_AND_YEAR = 2

Failure = tuple[str, dict]


def add_months(day: date, months: int) -> date:
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


_TEAM_WORDS = re.compile(r"\b(team|teams|équipe|équipes|equipe|equipes|doubles?|binômes?|binomes?)\b", re.I)
_NUMBER = re.compile(r"\d+")


def format_key(format: str, army_points: int | None = None) -> str:
    """``individual-200``/``team-300``: the part of a format the charter's "different formats" is about."""
    text = format or ""
    style = "team" if _TEAM_WORDS.search(text) else "individual"
    if army_points is None:
        number = _NUMBER.search(text)
        army_points = int(number.group()) if number else None
    return f"{style}-{army_points}" if army_points else style


def new_tournament_failures(
    *,
    start: date,
    announced_on: date,
    club_id,
    format: str,
    year_tournaments_of_club: Sequence[tuple[int, str]],
) -> list[Failure]:
    """Every charter condition of App. 1 §1-2 a new tournament misses; empty when it may be registered.

    `format` and the formats in `year_tournaments_of_club` are compared as given: pass format keys.
    `year_tournaments_of_club` lists (id, format) of the club's other tournaments of that calendar year.
    """
    failures: list[Failure] = []
    earliest = add_months(announced_on, MIN_NOTICE_MONTHS)
    if start < earliest:
        failures.append(
            (
                "announced_too_late",
                {
                    "start": start.isoformat(),
                    "announced_on": announced_on.isoformat(),
                    "earliest": earliest.isoformat(),
                    "months": MIN_NOTICE_MONTHS,
                },
            )
        )
    if club_id is not None:
        others = list(year_tournaments_of_club)
        if len(others) >= MAX_PER_CLUB_AND_YEAR:
            failures.append(
                (
                    "club_year_full",
                    {
                        "year": start.year,
                        "count": len(others),
                        "limit": MAX_PER_CLUB_AND_YEAR,
                        "tournaments": ", ".join(str(pk) for pk, _ in others),
                    },
                )
            )
        same = [pk for pk, other_format in others if other_format == format]
        if same:
            failures.append(
                (
                    "club_same_format",
                    {"year": start.year, "format": format, "tournaments": ", ".join(map(str, same))},
                )
            )
    return failures


def announcement_failures(
    *,
    start: date,
    army_points: int | None,
    game_minutes_announced: int,
    duration_note: str,
    list_deadline: date,
    first_round: str,
    first_round_note: str,
    pools: Sequence[tuple[str, str]],
    checker_playing: str | None,
    start_time: time | None = None,
    schedule: str = "",
) -> list[Failure]:
    """Every charter condition of App. 1 §6, §8, §9, §11-12 the announcement misses; empty when it may be saved.

    `pools` lists (name, theme) of the tournament's pools; `checker_playing` is the name of the list checker when
    they are entered to play (not as the spare), else None.
    """
    failures: list[Failure] = []
    latest = start - timedelta(days=LIST_DEADLINE_DAYS)
    if list_deadline > latest:
        failures.append(("deadline_too_late", {"deadline": list_deadline.isoformat(), "start": start.isoformat(),
                                               "latest": latest.isoformat(), "days": LIST_DEADLINE_DAYS}))
    charter = game_minutes(army_points)
    if charter is not None and game_minutes_announced != charter and not duration_note.strip():
        failures.append(("duration_unexplained", {"points": army_points, "charter": duration_words(charter),
                                                  "minutes": duration_words(game_minutes_announced)}))
    if first_round not in ROUND_ONE_METHODS:
        failures.append(("first_round_unknown", {"method": first_round}))
    elif first_round == MANUAL and not first_round_note.strip():
        failures.append(("first_round_unexplained", {}))
    seen: set[str] = set()
    for name, theme in pools:
        key = name.strip().casefold()
        if not key or key in seen:
            failures.append(("pool_name", {"pool": name.strip() or "?"}))
        seen.add(key)
        if not theme.strip():
            failures.append(("pool_without_theme", {"pool": name.strip() or "?"}))
    if checker_playing:
        failures.append(("checker_plays", {"name": checker_playing}))
    failures += schedule_failures(start=start_time, text=schedule)
    return failures


MESSAGES: dict[str, str] = {
    "announced_too_late": gettext_noop(
        "The tournament starts on {start}, less than {months} months after it is announced ({announced_on}): choose "
        "a start on {earliest} or later, or ask the technical board for an exception."
    ),
    "club_year_full": gettext_noop(
        "The organising club already has {count} tournament(s) in the {year} championship (no. {tournaments}); the "
        "charter allows {limit} per club and year. Register it as not official, or ask the technical board for an "
        "exception."
    ),
    "club_same_format": gettext_noop(
        "The organising club already has a tournament of the format {format} in {year} (no. {tournaments}); its two "
        "tournaments of a year must be of different formats. Change the format or the army points, or ask the "
        "technical board for an exception."
    ),
    "deadline_too_late": gettext_noop(
        "The lists' deadline ({deadline}) must be at least {days} days before the first day ({start}), so that the "
        "lists are sent at least one week before the tournament (App. 1 §11): choose {latest} or earlier."
    ),
    "duration_unexplained": gettext_noop(
        "The charter's duration for {points} points is {charter} (App. 1 §6); you announce {minutes}: explain the "
        "change to the players."
    ),
    "first_round_unknown": gettext_noop("Choose one of the charter's methods for the first game (App. 2 §3)."),
    "first_round_unexplained": gettext_noop(
        "Say how you will pair the first game yourself: historical enemies, army list dates, choice of the lowest "
        "rated, challenges (App. 2 §3.b-e)."
    ),
    "pool_name": gettext_noop("Pool {pool}: give each pool a name of its own."),
    "pool_without_theme": gettext_noop(
        "Pool {pool}: give its theme (App. 1 §8), and the allowed armies if the theme restricts them."
    ),
    "checker_plays": gettext_noop(
        "{name} is entered to play: whoever sees the lists may play only as the spare (App. 1 §9). Choose another "
        "list checker, or ask them to withdraw or enter as the spare."
    ),
    "schedule_too_long": gettext_noop("The schedule has more than {limit} lines: give the rounds and the breaks only."),
    "schedule_line": gettext_noop(
        "Schedule, line {line} (“{text}”): start each line with its time, then say what it is, in at most {limit} "
        "characters: “9:30 Round 1”."
    ),
    "schedule_order": gettext_noop(
        "Schedule, line {line}: {time} comes after {before}; give the lines in the order of the day."
    ),
    "schedule_without_start": gettext_noop("Give the start time too: the schedule is the day's after it."),
    "schedule_before_start": gettext_noop(
        "The schedule begins at {time}, before the start time ({start}): correct one or the other."
    ),
    "announcement_started": gettext_noop(
        "The tournament started on {start}: its announcement can no longer be changed."
    ),
}


def condition_wording(code: str, params: dict, words=None, names=None) -> str:
    return (words or translation).gettext(MESSAGES[code]).format(**params)


def condition_message(code: str, params: dict, language: str | None = None) -> str:
    """One failure's sentence (the board's pages word a whole refusal with adlg_site.words.refusal_text)."""
    return refusal_text(CharterRefused([(code, params)]), language)[0]


class CharterRefused(Refused):
    """The charter's conditions fail and no exception was approved. `failures` lists (code, params)."""

    wording = staticmethod(condition_wording)

    @property
    def failures(self) -> list[Failure]:
        return self.reasons
