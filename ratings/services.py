"""Running the replay: one at a time per rating system, every pending request folded into one run.

`replay_pending` is what the worker runs: it takes the system's lock, folds every pending request into one run
from the earliest date any of them touches (ratings.replay.ratings_replay), and marks them done in the same
transaction. `replay_from_scratch` is the `replay_ratings` command's.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ratings.models import RatingSystem, ReplayLock, ReplayRequest
from ratings.notifications import rating_notices_record
from ratings.replay import ReplaySummary, ratings_replay
from rules.words import Refused, gettext_noop
from tournaments.models import Sheet


class ReplayBusy(Refused):
    """Another replay of the same system holds the lock; it will pick up the pending requests (the worker logs
    it, a command says it in its own words and goes on)."""

    sentences = {"replay_busy": gettext_noop("A replay of %(system)s is already running: it will take in this "
                                             "change.")}


def replay_pending(*, system_code: str) -> list[ReplaySummary]:
    """Run the pending requests of one system until none is left; one replay at a time per system.

    The lock row is taken with SKIP LOCKED: a second worker arriving while a replay runs returns at once,
    and the running one sees the new request when it loops — requests that pile up coalesce into one run.
    """
    summaries = []
    while True:
        # Visible at once on the upload's status page; the lock below decides who actually runs.
        ReplayRequest.objects.filter(system_id=system_code, status=ReplayRequest.PENDING).update(
            status=ReplayRequest.RUNNING, started_at=timezone.now())
        with transaction.atomic():
            lock = ReplayLock.objects.select_for_update(skip_locked=True).filter(system_id=system_code).first()
            if lock is None:
                if not ReplayLock.objects.filter(system_id=system_code).exists():
                    ReplayLock.objects.get_or_create(system_id=system_code)
                    continue
                raise ReplayBusy.one("replay_busy", system=system_code)
            pending = list(
                ReplayRequest.objects.filter(system_id=system_code, status__in=ReplayRequest.OPEN)
                .values_list("id", "since")
            )
            if not pending:
                return summaries
            ids = [pk for pk, _ in pending]
            since = None if any(s is None for _, s in pending) else min(s for _, s in pending)
            summary = ratings_replay(system=lock.system, since=since)
            ReplayRequest.objects.filter(id__in=ids).update(
                status=ReplayRequest.DONE, finished_at=timezone.now(), games=summary.games, error=""
            )
            _mark_sheets_published(ids)
            lock.replayed_at = timezone.now()
            lock.save(update_fields=["replayed_at"])
            summaries.append(summary)


def replay_failed(*, system_code: str, error: str) -> None:
    """After the last retry: say so on the requests and their sheets (a later replay still covers them)."""
    with transaction.atomic():
        ids = list(ReplayRequest.objects.filter(
            system_id=system_code, status__in=[ReplayRequest.PENDING, ReplayRequest.RUNNING]
        ).values_list("id", flat=True))
        ReplayRequest.objects.filter(id__in=ids).update(status=ReplayRequest.FAILED, error=error[:2000],
                                                        finished_at=timezone.now())
        Sheet.objects.filter(replay_request_id__in=ids, status=Sheet.IMPORTED).update(status=Sheet.FAILED)


def _mark_sheets_published(request_ids: list[int]) -> None:
    """The sheets these requests followed are published: their tournaments are rated, and the players with an
    account hear of it once (ratings.notifications; the worker sends after this transaction commits)."""
    sheets = Sheet.objects.filter(replay_request_id__in=request_ids, status__in=[Sheet.IMPORTED, Sheet.FAILED])
    rating_notices_record(sheets.exclude(tournament=None).values_list("tournament_id", flat=True))
    sheets.update(status=Sheet.REPLAYED)


def replay_from_scratch(*, system: RatingSystem) -> ReplaySummary:
    """Recompute everything of `system` now, in this process (the `replay_ratings` command)."""
    with transaction.atomic():
        ReplayLock.objects.get_or_create(system=system)
        ReplayLock.objects.select_for_update().get(system=system)
        # Only the requests seen before the facts are read are settled by this run; later ones stay pending.
        settled = list(ReplayRequest.objects.filter(
            system=system, status__in=ReplayRequest.OPEN,
        ).values_list("id", flat=True))
        summary = ratings_replay(system=system, since=None)
        ReplayRequest.objects.filter(id__in=settled).update(
            status=ReplayRequest.DONE, finished_at=timezone.now(), games=summary.games, error="")
        _mark_sheets_published(settled)
    return summary
