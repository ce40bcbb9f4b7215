"""Celery tasks of the players app: thin, each calls one service and is safe to run twice."""

from __future__ import annotations

import logging
import smtplib
import threading

from celery import shared_task
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from players.governance import yellow_cards_expire
from players.mail import message_as_data, message_from_data, messages_send
from players.models import SentEmail

logger = logging.getLogger(__name__)
# The longest the request that decided a message waits for the broker to take it (as a replay's enqueue).
ENQUEUE_WAIT_SECONDS = 1.0


@shared_task(name="players.tasks.expire_yellow_cards")
def expire_yellow_cards() -> int:
    """Nightly (beat schedule "expire-yellow-cards"): erase the yellow cards kept for their year."""
    return yellow_cards_expire(today=timezone.localdate())


@shared_task(name="players.tasks.send_email", acks_late=True, autoretry_for=(smtplib.SMTPException, OSError),
             retry_backoff=30, retry_backoff_max=600, max_retries=6)
def send_email(message: dict) -> int:
    """Send one rendered message (players.mail): the confirmation of an address, a password reset, a notice. A
    message that names its record (players.models.SentEmail) stamps it once the mail server took it."""
    sent = messages_send([message_from_data(message)])
    if message.get("record"):
        SentEmail.objects.filter(pk=message["record"], sent_at__isnull=True).update(sent_at=timezone.now())
    return sent


def email_later(message: EmailMessage, *, record: int | None = None) -> None:
    """Hand a rendered message to the worker once the request's transaction commits (at once outside one). In
    process (no broker) it is sent there and then; with a broker the request waits for it at most
    ENQUEUE_WAIT_SECONDS and never for the mail server."""
    data = message_as_data(message)
    if record is not None:
        data["record"] = record
    transaction.on_commit(lambda: _enqueue(data), robust=True)


def _enqueue(data: dict) -> None:
    if send_email.app.conf.task_always_eager:
        _send(data)
        return
    sender = threading.Thread(target=_send, args=(data,), name="enqueue-email", daemon=True)
    sender.start()
    sender.join(ENQUEUE_WAIT_SECONDS)
    if sender.is_alive():
        logger.warning("handing an email to the broker takes over %s s", ENQUEUE_WAIT_SECONDS)


def _send(data: dict) -> None:
    try:
        send_email.delay(data)
    except Exception:  # the broker is down: the message is lost; its page offers to send it again
        logger.exception("could not hand the email %r to the worker", data.get("subject"))
