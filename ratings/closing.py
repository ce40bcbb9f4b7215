"""Closing a year: record it as a fact, then replay from its last day so its adjustment enters history."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record
from ratings.models import ClosedYear, RatingSystem
from ratings.requests import replay_request
from rules.words import Refused


class YearCloseError(Refused, ValueError):
    """A year that cannot be closed; its sentence says why, in English (the close_year command's, and the admin's,
    as they always were: not marked for the catalogue)."""

    sentences = {"out_of_range": "%(year)s cannot be closed: give a year between 1900 and %(last)s."}


def year_close(*, year: int, user=None, systems: list[str] | None = None) -> list[tuple[str, bool]]:
    """Close `year` for every rating system (or those named); a year already closed is left as it is."""
    if year < 1900 or year > timezone.localdate().year:
        raise YearCloseError.one("out_of_range", year=year, last=timezone.localdate().year)
    done = []
    with transaction.atomic():
        qs = RatingSystem.objects.all()
        if systems:
            qs = qs.filter(code__in=systems)
        for system in qs:
            closed, created = ClosedYear.objects.get_or_create(
                system=system, year=year,
                defaults={"closed_by": user if getattr(user, "is_authenticated", False) else None})
            if created:
                replay_request(system=system, since=date(year, 12, 31), reason=f"year {year} closed")
                audit_record(user=user, action="close_year", obj=closed, summary=f"{system.code} {year} closed")
            done.append((system.code, created))
    return done
