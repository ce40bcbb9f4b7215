"""How many result sheets one account may send: settings.SHEET_UPLOADS_PER_HOUR in any hour, on the upload page
and the API together, whatever became of each (imported, rejected, refused as not theirs).

Counted in the database (UploadAttempt rows), not in the cache: the limit holds with Redis down, and one count
serves every web process. An attempt is recorded before the file is read, so a refused file counts too.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.models import UploadAttempt

WINDOW = timedelta(hours=1)


def upload_wait_seconds(user, *, now: datetime | None = None) -> int:
    """0 when `user` may send a sheet now (and the attempt is recorded), else how many seconds until they may."""
    now = now or timezone.now()
    recent = list(
        UploadAttempt.objects.filter(user=user, at__gt=now - WINDOW).order_by("-at")
        .values_list("at", flat=True)[: settings.SHEET_UPLOADS_PER_HOUR]
    )
    if len(recent) >= settings.SHEET_UPLOADS_PER_HOUR:
        # Free again when the oldest of the last SHEET_UPLOADS_PER_HOUR attempts leaves the window.
        return max(1, math.ceil((recent[-1] + WINDOW - now).total_seconds()))
    UploadAttempt.objects.create(user=user, at=now)
    return 0


def upload_attempts_forget(*, before: datetime) -> int:
    """Deletes the attempts older than `before` (they no longer count); returns how many."""
    deleted, _ = UploadAttempt.objects.filter(at__lt=before).delete()
    return deleted
