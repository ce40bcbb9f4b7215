"""A tournament's announcement (charter App. 1 §12): what players need before entering, saved by its referees
until the first day; every save is checked by tournaments.before.conditions.announcement_failures."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone

from players.audit import audit_record, model_changes, snapshot
from players.permissions import can_manage_tournament
from rules.words import Forbidden
from tournaments.before.conditions import CharterRefused, announcement_failures
from tournaments.models import AnnouncedPool, Announcement, Entry, Tournament


class AnnouncementRefused(CharterRefused):
    """The announcement misses a charter condition, or the tournament has started. `failures` lists (code, params),
    worded by ``condition_message``."""


ANNOUNCEMENT_FIELDS = ("venue", "game_minutes", "duration_note", "list_deadline", "list_checker",
                       "lists_published", "first_round", "first_round_note", "start_time", "schedule")


def checker_playing(*, tournament: Tournament, checker) -> str | None:
    """The list checker's name when the account's federation player is entered to play (not as the spare)."""
    if checker is None:
        return None
    entry = (Entry.objects.filter(tournament=tournament, player__user=checker, status=Entry.ENTERED, as_spare=False)
             .select_related("player").first())
    return entry.player.full_name if entry else None


def announcement_save(*, user, tournament: Tournament, data: dict, today: date | None = None) -> Announcement:
    """Create or change the announcement of `tournament` (its referees and the board), until its first day.

    `data` holds venue, game_minutes, duration_note, list_deadline, list_checker (a user or None),
    lists_published, first_round, first_round_note, start_time (a time or None), schedule (rules.schedule) and
    pools: one {name, theme, allowed_armies} per pool.
    Raises Forbidden, or AnnouncementRefused with every failure.
    """
    if not can_manage_tournament(user, tournament):
        raise Forbidden()
    today = today or timezone.localdate()
    if today >= tournament.start_date:
        raise AnnouncementRefused([("announcement_started", {"start": tournament.start_date.isoformat()})])
    pools = [{"name": (p.get("name") or "").strip(), "theme": (p.get("theme") or "").strip(),
              "allowed_armies": (p.get("allowed_armies") or "").strip()} for p in data.get("pools") or []]
    values = {
        "venue": (data.get("venue") or "").strip(),
        "game_minutes": int(data["game_minutes"]),
        "duration_note": (data.get("duration_note") or "").strip(),
        "list_deadline": data["list_deadline"],
        "list_checker": data.get("list_checker"),
        "lists_published": bool(data.get("lists_published")),
        "first_round": data.get("first_round") or "",
        "first_round_note": (data.get("first_round_note") or "").strip(),
        "start_time": data.get("start_time"),
        "schedule": "\n".join(line.strip() for line in (data.get("schedule") or "").strip().splitlines()),
    }
    failures = announcement_failures(
        start=tournament.start_date, army_points=tournament.army_points,
        game_minutes_announced=values["game_minutes"], duration_note=values["duration_note"],
        list_deadline=values["list_deadline"], first_round=values["first_round"],
        first_round_note=values["first_round_note"], pools=[(p["name"], p["theme"]) for p in pools],
        checker_playing=checker_playing(tournament=tournament, checker=values["list_checker"]),
        start_time=values["start_time"], schedule=values["schedule"],
    )
    if failures:
        raise AnnouncementRefused(failures)
    with transaction.atomic():
        announcement = Announcement.objects.select_for_update().filter(tournament=tournament).first()
        before = snapshot(announcement) if announcement else None
        pools_before = ([[p.name, p.theme, p.allowed_armies] for p in announcement.pool_themes.all()]
                        if announcement else [])
        announcement = announcement or Announcement(tournament=tournament)
        for key, value in values.items():
            setattr(announcement, key, value)
        announcement.save()
        announcement.pool_themes.all().delete()
        AnnouncedPool.objects.bulk_create([AnnouncedPool(announcement=announcement, **p) for p in pools])
        pools_after = [[p["name"], p["theme"], p["allowed_armies"]] for p in pools]
        changes = model_changes(announcement, before)
        changes.pop("updated_at", None)
        if pools_after != pools_before:
            changes["pools"] = [" · ".join(" — ".join(x for x in p if x) for p in pools_before) or None,
                                " · ".join(" — ".join(x for x in p if x) for p in pools_after)]
        audit_record(user=user, action="announcement_save", obj=announcement,
                     summary=f"announcement of {tournament}", changes=changes)
    return announcement
