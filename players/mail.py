"""Email leaves through the worker, never inside a request: a message is rendered where it is decided (the request
knows the page's language and address), turned into plain data, and the worker's task sends it (send_email,
below; players.tasks registers it). Terms: a *message* here is the dict `message_as_data` returns: subject, body,
from, to, reply-to, headers and alternative bodies (HTML), nothing a JSON broker cannot carry."""

from __future__ import annotations

import logging
import smtplib
import threading

from celery import shared_task
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.db import transaction
from django.utils import timezone

from players.models import SentEmail

logger = logging.getLogger(__name__)
# The longest the request that decided a message waits for the broker to take it (as a replay's enqueue).
ENQUEUE_WAIT_SECONDS = 1.0


def message_as_data(message: EmailMessage) -> dict:
    data = {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": str(message.from_email),
        "to": [str(address) for address in message.to],
        "cc": [str(address) for address in message.cc],
        "bcc": [str(address) for address in message.bcc],
        "reply_to": [str(address) for address in message.reply_to],
        "headers": {str(key): str(value) for key, value in (message.extra_headers or {}).items()},
        "alternatives": [[str(content), str(mimetype)] for content, mimetype in
                         getattr(message, "alternatives", []) or []],
        "content_subtype": getattr(message, "content_subtype", "plain"),
    }
    return data


def message_from_data(data: dict) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"], body=data["body"], from_email=data.get("from_email") or None, to=data["to"],
        cc=data.get("cc") or None, bcc=data.get("bcc") or None, reply_to=data.get("reply_to") or None,
        headers=data.get("headers") or None,
    )
    for content, mimetype in data.get("alternatives") or []:
        message.attach_alternative(content, mimetype)
    message.content_subtype = data.get("content_subtype") or "plain"
    return message


def messages_send(messages: list[EmailMessage]) -> int:
    """Send on one connection (one SMTP session for many); returns how many were sent."""
    if not messages:
        return 0
    with get_connection() as connection:
        return connection.send_messages(messages) or 0


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
