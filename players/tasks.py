"""Celery tasks of the players app: thin, each calls one service and is safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from players.governance import yellow_cards_expire

# The sending task lives with the mail it sends (players.mail), where the services that write email reach it
# without importing the tasks; imported here, the worker's autodiscovery registers it under its name.
from players.mail import ENQUEUE_WAIT_SECONDS, email_later, send_email  # noqa: F401


@shared_task(name="players.tasks.expire_yellow_cards")
def expire_yellow_cards() -> int:
    """Nightly (beat schedule "expire-yellow-cards"): erase the yellow cards kept for their year."""
    return yellow_cards_expire(today=timezone.localdate())
