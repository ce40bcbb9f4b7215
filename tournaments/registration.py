"""Registering a tournament in the calendar (charter App. 1 §1-2).

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
  ``registration_message`` in English or French.

A failure blocks the registration unless the technical board approves an exception, with a reason
(``exception_approved``). The board does so by registering the tournament itself with the exception, or later on
the board's exception page.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from players.audit import audit_record, model_changes
from players.permissions import can_register_tournament, is_board
from tournaments.models import Tournament

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


def registration_failures(
    *,
    start: date,
    announced_on: date,
    club_id,
    format: str,
    year_tournaments_of_club: Sequence[tuple[int, str]],
) -> list[Failure]:
    """Every charter condition of App. 1 §1-2 the registration misses; empty when it may be registered.

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


MESSAGES: dict[str, dict[str, str]] = {
    "announced_too_late": {
        "en": "The tournament starts on {start}, less than {months} months after it is announced ({announced_on}): "
        "choose a start on {earliest} or later, or ask the technical board for an exception.",
        "fr": "Le tournoi commence le {start}, moins de {months} mois après son annonce ({announced_on}) : "
        "choisissez un début le {earliest} ou plus tard, ou demandez une dérogation au bureau technique.",
    },
    "club_year_full": {
        "en": "The organising club already has {count} tournament(s) in the {year} championship (no. {tournaments}); "
        "the charter allows {limit} per club and year. Register it as not official, or ask the technical board "
        "for an exception.",
        "fr": "Le club organisateur a déjà {count} tournoi(s) au championnat {year} (n° {tournaments}) ; la charte "
        "en permet {limit} par club et par an. Enregistrez-le comme non officiel, ou demandez une dérogation au "
        "bureau technique.",
    },
    "club_same_format": {
        "en": "The organising club already has a tournament of the format {format} in {year} (no. {tournaments}); "
        "its two tournaments of a year must be of different formats. Change the format or the army points, or ask "
        "the technical board for an exception.",
        "fr": "Le club organisateur a déjà un tournoi au format {format} en {year} (n° {tournaments}) ; ses deux "
        "tournois d'une année doivent être de formats différents. Changez le format ou les points d'armée, ou "
        "demandez une dérogation au bureau technique.",
    },
}


def registration_message(code: str, params: dict, language: str | None = "en") -> str:
    lang = "fr" if (language or "").lower().startswith("fr") else "en"
    return MESSAGES[code][lang].format(**params)


# --- the service -------------------------------------------------------------------------------------------------


class RegistrationRefused(Exception):  # noqa: N818 - a refusal the referee reads, not a crash
    """The charter's conditions fail and no exception was approved. `failures` lists (code, params)."""

    def __init__(self, failures: list[Failure]):
        super().__init__("; ".join(code for code, _ in failures))
        self.failures = failures


def club_year_tournaments(*, club_id, system_id: str, year: int, exclude_pk=None) -> list[tuple[int, str]]:
    """The club's official tournaments of that system starting in `year`, as (id, format key) (a selector)."""
    if club_id is None:
        return []
    qs = Tournament.objects.filter(
        organising_club_id=club_id, system_id=system_id, official=True, start_date__year=year
    )
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return [
        (pk, format_key(fmt, points))
        for pk, fmt, points in qs.order_by("start_date", "pk").values_list("pk", "format", "army_points")
    ]


def tournament_register(*, user, data: dict, today: date | None = None):
    """Register a tournament for `user` (a referee or the board). Returns the Tournament.

    `data` holds: name, start_date, end_date, city, country (Country or code), system (RatingSystem or code),
    format, army_points, pools, rounds, official, worlds, organising_club (Club or None), referees (users named
    besides `user`), and for the board only exception_approved, exception_reason.
    Raises PermissionDenied when the user may not register or approve, RegistrationRefused on charter failures.
    """
    if not can_register_tournament(user):
        raise PermissionDenied
    today = today or timezone.localdate()
    exception = bool(data.get("exception_approved"))
    exception_reason = (data.get("exception_reason") or "").strip()
    if exception and not is_board(user):
        raise PermissionDenied
    if exception and not exception_reason:
        raise ValueError("An approved exception needs its reason.")
    if data["end_date"] < data["start_date"]:
        raise ValueError("The last day is before the first day.")

    def key(value):
        return getattr(value, "pk", value)

    club_id = key(data.get("organising_club"))
    system_id = key(data["system"])
    fmt = (data.get("format") or "").strip()
    army_points = data.get("army_points")
    official = bool(data.get("official", True))
    failures = registration_failures(
        start=data["start_date"],
        announced_on=today,
        club_id=club_id if official else None,
        format=format_key(fmt, army_points),
        year_tournaments_of_club=club_year_tournaments(
            club_id=club_id, system_id=system_id, year=data["start_date"].year
        )
        if official
        else [],
    )
    if failures and not exception:
        raise RegistrationRefused(failures)
    named = [u for u in data.get("referees") or [] if u.pk != user.pk]
    referees = named if (is_board(user) and named) else [user, *named]
    with transaction.atomic():
        tournament = Tournament.objects.create(
            system_id=system_id,
            name=data["name"].strip(),
            start_date=data["start_date"],
            end_date=data["end_date"],
            city=data["city"].strip(),
            country_id=key(data["country"]),
            organising_club_id=club_id,
            referee_name=", ".join((u.get_full_name() or u.get_username()) for u in referees)[:150],
            format=fmt,
            army_points=army_points,
            pools=data.get("pools") or 1,
            rounds=data["rounds"],
            worlds=bool(data.get("worlds")),
            official=official,
            status=Tournament.REGISTERED,
            announced_on=today,
            exception_approved=exception and bool(failures),
            exception_reason=exception_reason if failures else "",
        )
        tournament.referees.set(referees)
        audit_record(
            user=user,
            action="tournament_register",
            obj=tournament,
            summary=str(tournament),
            changes={
                **model_changes(tournament, None),
                "referees": [u.pk for u in referees],
                "failures": [code for code, _ in failures],
            },
        )
    return tournament
