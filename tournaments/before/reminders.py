"""The emails of the time before the tournament that no one's action sends: the reminder of a missing list, the
lists published, the list checkers' digest of new lists. The worker runs `before_the_day_emails` every hour
(celery beat); each email has its key (players.notices), so a run sends only what no earlier run sent.

Terms
-----
reminder
    From LIST_REMINDER_DAYS before the lists' deadline to the deadline's day, to each entered player whose list is
    missing or was returned, once per entry. **Decision**: a list waiting for the check is not missing: its
    player has nothing to do until the checker returns it (and then hears of it: players.notices.list_checked).
lists published
    tournaments.before.army_lists.lists_published: once true, each entered player hears of it, once.
digest
    To each checker of a tournament (its list checker, else its referees), when lists wait for the check and one
    of them arrived since the checker's last digest for the tournament: one email per tournament, checker and
    day, counting the lists waiting and the new ones.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from players import notices
from players.models import SentEmail
from tournaments.before.army_lists import current_lists, lists_published
from tournaments.models import ArmyList, Entry, Tournament

LIST_REMINDER_DAYS = 3


def _coming(today: date):
    return (Tournament.objects.filter(announcement__isnull=False, start_date__gt=today)
            .select_related("announcement"))


def list_reminders_send(*, today: date | None = None) -> int:
    today = today or timezone.localdate()
    sent = 0
    for tournament in _coming(today).filter(announcement__list_deadline__gte=today,
                                            announcement__list_deadline__lte=today + timedelta(LIST_REMINDER_DAYS)):
        entries = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, player__user__isnull=False)
                       .select_related("player__user", "tournament__announcement"))
        latest = current_lists(entries)
        for entry in entries:
            army_list = latest.get(entry.pk)
            if army_list is None or army_list.status == ArmyList.RETURNED:
                with transaction.atomic():
                    sent += notices.list_reminder(entry, army_list)
    return sent


def lists_published_send(*, today: date | None = None) -> int:
    today = today or timezone.localdate()
    sent = 0
    for tournament in _coming(today - timedelta(days=1)).filter(announcement__lists_published=True,
                                                                 announcement__list_deadline__lt=today):
        if not lists_published(tournament=tournament, today=today):
            continue
        for entry in (Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, player__user__isnull=False)
                      .select_related("player__user", "tournament")):
            with transaction.atomic():
                sent += notices.lists_published(entry)
    return sent


def checkers_of(tournament: Tournament) -> list:
    checker = tournament.announcement.list_checker
    if checker is not None and checker.is_active:
        return [checker]
    return list(tournament.referees.filter(is_active=True))


def lists_waiting_send(*, today: date | None = None) -> int:
    today = today or timezone.localdate()
    sent = 0
    for tournament in _coming(today - timedelta(days=1)).select_related("announcement__list_checker"):
        entries = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED))
        waiting = [row for row in current_lists(entries).values() if row.status == ArmyList.PENDING]
        if not waiting:
            continue
        for checker in checkers_of(tournament):
            last = (SentEmail.objects.filter(user=checker, key__startswith=f"lists_waiting:{tournament.pk}:")
                    .order_by("-created_at").values_list("created_at", flat=True).first())
            new = sum(1 for row in waiting if last is None or row.submitted_at > last)
            if new:
                with transaction.atomic():
                    sent += notices.lists_waiting(user=checker, tournament=tournament, waiting=len(waiting),
                                                  new=new, day=today.isoformat())
    return sent


def before_the_day_emails(*, today: date | None = None) -> int:
    today = today or timezone.localdate()
    return (list_reminders_send(today=today) + lists_published_send(today=today)
            + lists_waiting_send(today=today))
