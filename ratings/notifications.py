""""Your tournament was rated: your rating went from 1180 to 1204": the email a player with an account gets when
a replay first rates a tournament they played.

Terms
-----
rated tournament
    One whose result sheet a replay has just published (its sheet goes from imported to published in that run:
    ratings.services). Correcting it later, or replaying history again, rates nothing new.
rating notice
    ``players.RatingNotice``: one row per tournament, written in the replay's transaction when it first rates it
    (``rating_notices_record``). The worker sends its emails (``rating_emails_send``), stamping the row before it
    sends: a tournament's emails go out once, whatever replays and retries follow.
recipient
    A player of the tournament with rated games in it whose account is active, has a confirmed address and has
    not turned these emails off (account settings, on by default; players.notices, whose one-click link in the
    footer turns them off too). The email speaks the account's language.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from players import notices
from players.mail import messages_send
from players.models import AccountSettings, Player, RatingNotice, SentEmail
from ratings.models import RatingEvent
from tournaments.models import Tournament

logger = logging.getLogger(__name__)


def rating_notices_record(tournament_ids: Iterable[int]) -> None:
    """In the replay's transaction: these tournaments were rated; their emails wait for the worker (once)."""
    ids = sorted(set(tournament_ids))
    if ids:
        RatingNotice.objects.bulk_create([RatingNotice(tournament_id=pk) for pk in ids], ignore_conflicts=True)


def rating_emails_send() -> int:
    """Send the emails of every rating notice not sent yet; returns how many emails went out."""
    sent = 0
    while True:
        with transaction.atomic():
            notice = (RatingNotice.objects.select_for_update(skip_locked=True).filter(sent_at__isnull=True)
                      .order_by("id").first())
            if notice is None:
                return sent
            messages = rating_messages(tournament_id=notice.tournament_id)
            notice.sent_at = timezone.now()
            notice.recipients = len(messages)
            notice.save(update_fields=["sent_at", "recipients"])
        try:
            sent += messages_send(messages)
            SentEmail.objects.filter(pk__in=[m.record for m in messages]).update(sent_at=timezone.now())
        except Exception:  # stamped before sending: these are not sent twice, and the next notices still go
            logger.exception("the rating emails of tournament %s could not be sent", notice.tournament_id)


def rating_changes(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Each player's rating before the tournament's first rated game and after its last, by player ID."""
    changes: dict[int, tuple[int, int]] = {}
    # Found by (system, date), the history's own index, as the tournament's page finds them: a tournament's events
    # bear its end date, and the events have no index on the tournament (by it alone, every event is read).
    events = (RatingEvent.objects.filter(system_id=tournament.system_id, date=tournament.end_date,
                                         tournament=tournament, kind=RatingEvent.GAME)
              .order_by("seq").values_list("player_id", "rating_before", "rating_after"))
    for player_id, before, after in events:
        first = changes.get(player_id, (before, after))[0]
        changes[player_id] = (first, after)
    return changes


def rating_messages(*, tournament_id: int) -> list[EmailMessage]:
    """The emails of a rated tournament, each recorded (players.notices.compose; its SentEmail's ID on the message
    as `record`)."""
    tournament = Tournament.objects.select_related("system").filter(pk=tournament_id).first()
    if tournament is None:
        return []
    changes = rating_changes(tournament)
    players = list(Player.objects.filter(pk__in=list(changes), user__isnull=False, user__is_active=True)
                   .select_related("user"))
    chosen = {row.user_id: row for row in AccountSettings.objects.filter(user_id__in=[p.user_id for p in players])}
    site = settings.SITE_URL.rstrip("/")
    messages = []
    for player in players:
        before, after = changes[player.pk]
        composed = notices.compose(player.user, notices.TOURNAMENT_RATED, "tournament_rated", {
            "tournament": tournament, "player": player, "before": before, "after": after, "change": after - before,
            "player_url": site + reverse("player_detail", args=[player.pk]),
            "tournament_url": site + reverse("tournament_detail", args=[tournament.pk]),
        }, own=chosen.get(player.user_id))
        if composed is not None:
            message, record = composed
            message.record = record.pk
            messages.append(message)
    return messages
