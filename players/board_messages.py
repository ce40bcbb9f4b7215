"""Writing to the technical board: anyone, signed in or not, writes a message with the site's form; it waits in
the board's queue (/board/messages/) until a member marks it handled, and goes by email to the board's addresses
(settings.BOARD_EMAILS, else the confirmed addresses of the board's accounts) with the writer's address to reply
to. The page throttles it (settings.RATE_LIMITS["board_write"]).

Terms
-----
reply address
    Where the board answers: required when the writer is not signed in; a signed-in writer's confirmed address
    otherwise (or the one they type).
handled
    A board member marked it so (and may mark it waiting again); the queue shows the messages waiting first.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from players.audit import audit_record
from players.mail import email_later
from players.models import BoardMessage
from players.notices import one_line, recipient_address, sender, site_link
from rules.words import Refused, gettext_noop

SUBJECT_LIMIT, BODY_LIMIT = 150, 5000


class MessageRefused(Refused):
    sentences = {
        "reply_to": gettext_noop("Give the address the board answers you at."),
        "subject": gettext_noop("Say in a few words what it is about (at most %(limit)s characters)."),
        "body": gettext_noop("Write your message (at most %(limit)s characters)."),
    }

    def __init__(self, code: str, /, **params):
        super().__init__([(code, params)])
        self.field = code


def board_addresses() -> list[str]:
    if settings.BOARD_EMAILS:
        return list(settings.BOARD_EMAILS)
    board = get_user_model().objects.filter(is_staff=True, is_active=True)
    return sorted(set(EmailAddress.objects.filter(user__in=board, verified=True).values_list("email", flat=True)))


def board_message_write(*, user, reply_to: str, subject: str, body: str, name: str = "",
                        page: str = "") -> BoardMessage:
    """Keep the message in the board's queue and email it to the board once it is stored."""
    signed_in = user is not None and user.is_authenticated
    reply_to = (reply_to or "").strip() or (recipient_address(user) if signed_in else "") or ""
    try:
        validate_email(reply_to)
    except ValidationError:
        raise MessageRefused("reply_to") from None
    subject, body = " ".join((subject or "").split()), (body or "").strip()
    if not subject or len(subject) > SUBJECT_LIMIT:
        raise MessageRefused("subject", limit=SUBJECT_LIMIT)
    if not body or len(body) > BODY_LIMIT:
        raise MessageRefused("body", limit=BODY_LIMIT)
    with transaction.atomic():
        message = BoardMessage.objects.create(user=user if signed_in else None, reply_to=reply_to,
                                              name=" ".join((name or "").split())[:120], subject=subject, body=body,
                                              page=(page or "")[:300])
        addresses = board_addresses()
        if addresses:
            email_later(_board_email(message, addresses))
    return message


def _board_email(message: BoardMessage, addresses: list[str]) -> EmailMessage:
    with translation.override(settings.LANGUAGE_CODE):
        context = {"message": message, "queue_url": site_link(reverse("board:messages"))}
        subject = one_line(render_to_string("emails/board_message_subject.txt", context))
        body = render_to_string("emails/board_message_message.txt", context)
        from_email = sender()
    return EmailMessage(subject=subject, body=body, from_email=from_email, to=addresses,
                        reply_to=[message.reply_to])


def board_message_handle(*, message: BoardMessage, user, handled: bool = True) -> BoardMessage:
    with transaction.atomic():
        message = BoardMessage.objects.select_for_update().get(pk=message.pk)
        message.handled_at, message.handled_by = (timezone.now(), user) if handled else (None, None)
        message.save(update_fields=["handled_at", "handled_by"])
        audit_record(user=user, action="board_message_handle" if handled else "board_message_reopen", obj=message,
                     summary=f"message #{message.pk} to the board {'handled' if handled else 'waiting again'}")
    return message


def board_messages(*, handled: bool):
    return BoardMessage.objects.filter(handled_at__isnull=not handled).select_related("handled_by")
