"""Email leaves through the worker, never inside a request: a message is rendered where it is decided (the request
knows the page's language and address), turned into plain data, and the worker's task sends it
(players.tasks.send_email). Terms: a *message* here is the dict `message_as_data` returns: subject, body,
from, to, reply-to, headers and alternative bodies (HTML), nothing a JSON broker cannot carry."""

from __future__ import annotations

from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection


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
