"""Thin Celery tasks: they take ids, call one service, and are safe to run twice."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from ratings.calibration import calibration_refresh
from ratings.closing import year_close
from ratings.models import ReplayRequest
from ratings.notifications import rating_emails_send
from ratings.official_lists import ListRefused, monthly_lists_issue
from ratings.open_data import open_data_rebuild
from ratings.requests import requests_failed_retried
from ratings.services import ReplayBusy, replay_failed, replay_pending
from tournaments.fact_checks import faulty_games

logger = logging.getLogger(__name__)
# A request whose replay failed for good (every retry spent: a database down for long, say) is tried again this
# long after, by the sweep: the facts are in, and the ratings should not wait for the next upload to follow.
RETRY_FAILED_AFTER = timedelta(hours=1)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=6,
    soft_time_limit=25 * 60,
    time_limit=30 * 60,
)
def replay_system(self, system_code: str) -> int:
    """Replay what is pending for one system. A busy lock means another run will pick the requests up."""
    try:
        summaries = replay_pending(system_code=system_code)
        if summaries:
            _enqueue_rating_emails()
            enqueue_open_data()
            _enqueue_calibration(system_code)
        return len(summaries)
    except ReplayBusy:
        logger.info("replay of %s already running; its loop takes the new requests", system_code)
        return 0
    except Exception as exc:
        faults = _faulty_facts(system_code)
        if faults:
            # The facts themselves stop the replay: retrying changes nothing, and the board must hear at once
            # which fact to correct (its pages show failed replays). The next change of the facts replays again.
            logger.error("replay of %s stopped by the facts: %s", system_code, "; ".join(faults))
            replay_failed(
                system_code=system_code,
                error="The replay stops on these facts; correct them in the admin: " + "; ".join(faults)
                + f" ({type(exc).__name__}: {exc})",
            )
            return 0
        if self.request.retries >= self.max_retries:
            logger.exception("replay of %s failed for good", system_code)
            replay_failed(system_code=system_code, error=f"{type(exc).__name__}: {exc}")
            raise
        raise self.retry(exc=exc, countdown=min(300, 5 * 2 ** self.request.retries)) from exc


def _faulty_facts(system_code: str) -> list[str]:
    try:
        return faulty_games(system_code=system_code)
    except Exception:  # the database itself may be what failed: then the retries below are the answer
        logger.exception("the facts of %s could not be checked", system_code)
        return []


# The longest an enqueue may hold the request that committed the facts (the broker's own timeouts are shorter).
ENQUEUE_WAIT_SECONDS = 1.0


def enqueue_replay(system_code: str) -> None:
    """Called after commit. If the broker is unreachable the request row stays pending for the sweep, so the
    request never waits on the broker more than ENQUEUE_WAIT_SECONDS: the message is sent on a thread of its own,
    which may go on failing in the background. In-process (no broker) the replay runs here and now."""
    if replay_system.app.conf.task_always_eager:
        _send(system_code)
        return
    sender = threading.Thread(target=_send, args=(system_code,), name=f"enqueue-{system_code}", daemon=True)
    sender.start()
    sender.join(ENQUEUE_WAIT_SECONDS)
    if sender.is_alive():
        logger.warning("enqueueing the replay of %s takes over %s s; the sweep will retry if it fails",
                       system_code, ENQUEUE_WAIT_SECONDS)


def _send(system_code: str) -> None:
    try:
        replay_system.delay(system_code)
    except Exception:  # the broker is down: the periodic sweep will enqueue the pending request again
        logger.exception("could not enqueue the replay of %s; the sweep will retry", system_code)


@shared_task(acks_late=True)
def send_rating_emails() -> int:
    """"Your tournament was rated": the emails of the tournaments replays have rated (ratings.notifications),
    enqueued after each replay that published something, and every few minutes by beat for what a lost message
    left behind."""
    return rating_emails_send()


def _enqueue_rating_emails() -> None:
    """After the replay committed; a broker or mail server down never fails the replay (beat sends later)."""
    try:
        send_rating_emails.delay()
    except Exception:
        logger.exception("could not enqueue the rating emails; beat will send them")


@shared_task(acks_late=True)
def sweep_replay_requests(older_than_seconds: int = 60) -> list[str]:
    """Enqueue the systems whose requests have waited too long (lost message, worker killed, broker outage) or
    failed for good over RETRY_FAILED_AFTER ago."""
    now = timezone.now()
    retried = requests_failed_retried(before=now - RETRY_FAILED_AFTER)
    cutoff = now - timedelta(seconds=older_than_seconds)
    systems = sorted(set(
        ReplayRequest.objects.filter(status__in=[ReplayRequest.PENDING, ReplayRequest.RUNNING],
                                     requested_at__lt=cutoff).values_list("system_id", flat=True)
    ) | retried)
    for code in systems:
        enqueue_replay(code)
    return systems


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=5)
def close_year_task(year: int | None = None) -> list[str]:
    """The yearly downgrade, scheduled at 23:30 on 31 December (Europe/Paris): closes the current year."""
    year = year or timezone.localdate().year
    return [system for system, created in year_close(year=year, user=None) if created]


@shared_task(bind=True, acks_late=True, max_retries=12)
def issue_official_lists(self) -> list[str]:
    """The official lists of the month, on the 1st (beat): each system's waiting replay is run first, so that
    the list holds every change of the facts recorded before it; a replay running elsewhere puts it off a while."""
    try:
        for system_code in sorted(set(ReplayRequest.objects.filter(status__in=ReplayRequest.OPEN)
                                      .values_list("system_id", flat=True))):
            replay_pending(system_code=system_code)
        issued = monthly_lists_issue()
    except (ReplayBusy, ListRefused) as exc:
        raise self.retry(exc=exc, countdown=300) from exc
    if issued:
        enqueue_open_data()
    return [f"{official.system_id} {official.number}" for official in issued]


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=60, max_retries=5)
def rebuild_open_data() -> str:
    """The open-data downloads, built again after a replay or a list (nothing stored when nothing changed)."""
    release = open_data_rebuild()
    return release.document_sha256 if release is not None else ""


def enqueue_open_data() -> None:
    """After a replay or a list is committed; never fails its caller (the next change rebuilds). Off where the
    settings say so (the test suite: a build after every import of every test would only cost time)."""
    if not getattr(settings, "OPEN_DATA_AFTER_CHANGES", True):
        return
    try:
        rebuild_open_data.delay()
    except Exception:
        logger.exception("could not enqueue the open-data rebuild; the next change will")


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=3)
def refresh_calibration(system_code: str) -> int:
    """The calibration page's numbers, worked out again after a replay of `system_code` (ratings.calibration)."""
    row = calibration_refresh(system_code=system_code)
    return 0 if row is None else row.games


def _enqueue_calibration(system_code: str) -> None:
    """After the replay committed; a broker down leaves the page a replay behind, never fails the replay. Off
    where the settings say so (the replay's benchmark, which times it apart)."""
    if not getattr(settings, "CALIBRATION_AFTER_REPLAY", True):
        return
    try:
        refresh_calibration.delay(system_code)
    except Exception:
        logger.exception("could not enqueue the calibration of %s", system_code)
