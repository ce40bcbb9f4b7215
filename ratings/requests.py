"""Replay requests: written with the facts they follow, enqueued only once those facts are committed."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from ratings.models import RatingSystem, ReplayRequest


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
