"""Replay requests: written with the facts they follow, enqueued only once those facts are committed."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction

from ratings.models import RatingSystem, ReplayRequest
from tournaments.models import Sheet


def replay_request(*, system: RatingSystem | str, since: date | None, reason: str) -> ReplayRequest:
    """Record that `system` must be replayed from `since` (None: from scratch) and enqueue it after commit.

    The row is the durable part: if the broker is down when the transaction commits, the periodic sweep
    (ratings.tasks.sweep_replay_requests) finds the pending row and enqueues it again.
    """
    system_code = system if isinstance(system, str) else system.code
    request = ReplayRequest.objects.create(system_id=system_code, since=since, reason=reason[:200])

    def enqueue() -> None:
        from ratings.tasks import enqueue_replay

        enqueue_replay(system_code)

    transaction.on_commit(enqueue, robust=True)
    return request


def requests_failed_retried(*, before: datetime) -> set[str]:
    """Put the requests that failed for good before `before` back in the queue (pending, their last error kept
    until a replay succeeds), with their sheets back to waiting for the replay; returns their systems."""
    with transaction.atomic():
        failed = list(ReplayRequest.objects.select_for_update().filter(
            status=ReplayRequest.FAILED, finished_at__lt=before).values_list("id", "system_id"))
        ids = [pk for pk, _ in failed]
        ReplayRequest.objects.filter(id__in=ids).update(status=ReplayRequest.PENDING)
        Sheet.objects.filter(replay_request_id__in=ids, status=Sheet.FAILED, imported_at__isnull=False).update(
            status=Sheet.IMPORTED)
    return {system for _, system in failed}
