"""A new tournament in the calendar, registered by a referee or the board (charter App. 1 §1-2): its conditions
are tournaments.before.conditions.new_tournament_failures, waived only by an exception the board approves."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record, model_changes
from players.permissions import can_register_tournament, is_board
from players.selectors import person_name
from rules.words import Forbidden
from tournaments.before.conditions import CharterRefused, format_key, new_tournament_failures
from tournaments.models import Tournament


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
    Raises Forbidden when the user may not register or approve, CharterRefused on charter failures.
    """
    if not can_register_tournament(user):
        raise Forbidden()
    today = today or timezone.localdate()
    exception = bool(data.get("exception_approved"))
    exception_reason = (data.get("exception_reason") or "").strip()
    if exception and not is_board(user):
        raise Forbidden()
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
    failures = new_tournament_failures(
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
        raise CharterRefused(failures)
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
            referee_name=", ".join(filter(None, map(person_name, referees)))[:150],
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
