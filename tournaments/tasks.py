"""Thin Celery tasks of the tournaments app: they call one service, and are safe to run twice."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from tournaments.before.reminders import before_the_day_emails
from tournaments.sheets.services import unimported_sheets_purge
from tournaments.sheets.upload_limits import WINDOW, upload_attempts_forget


@shared_task(acks_late=True)
def purge_unimported_sheets() -> int:
    """Nightly: deletes the uploads never imported once SHEET_UNIMPORTED_KEPT_DAYS old, and the upload attempts
    that no longer count."""
    now = timezone.now()
    upload_attempts_forget(before=now - max(WINDOW, timedelta(days=1)))
    return unimported_sheets_purge(before=now - timedelta(days=settings.SHEET_UNIMPORTED_KEPT_DAYS))


@shared_task(acks_late=True)
def send_before_the_day_emails() -> int:
    """Hourly: the reminders of missing lists, the lists published, the checkers' digests (each sent once)."""
    return before_the_day_emails()
