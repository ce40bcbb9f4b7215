"""The live tournament's row as the hall's pages read it, kept in the cache (Django's: each process's memory on the
embedded default, Redis with REDIS_URL) until the day's next change, so that a phone's poll answered 304 reads no
database at all.

Terms
-----
row
    The LiveTournament with its tournament, rating system and country (selectors.live_find's), under
    ``live-row:<tournament>``. Its version and start time make the ETag of the polled parts and the key of every
    part rendered for the hall (tournaments.live.hall_parts); its `stamp`, made of all it holds, the key of the
    visitor's whole page (tournaments.live.visitor_page).
a change
    Every change of the day bumps the version (pools.bump, the publication) and calls `row_changed`; a live run
    or its tournament saved or deleted elsewhere (the admin, a cancelled run) does too, by signal
    (TournamentsConfig.ready: forgotten, not written again). The row is forgotten at once, so that the changing
    request, and a test inside its transaction, read it afresh; and written again from the database once the
    change commits, so that a reader that read the row just before the commit cannot leave it stale (a reader
    only ``add``s, which never replaces a row already written).
inside a transaction
    A row or a part read inside a transaction (a page rendered after a refused change) may hold what rolls back:
    it is read from the database and never written to the cache. The atomic blocks of a test case (Django's
    TestCase, pytest-django's ``db``) do not count: a test sees what a request outside any transaction would.
kept here
    Each process also keeps the row it last read for ROW_KEPT_HERE (a second), dropped at once by a change made in
    that process: what another server process changed is seen up to a second later.
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache
from django.db import connection, transaction

from tournaments.models import LiveTournament

# How long a row stays without a change: every change writes it again, this only bounds what a finished day keeps.
ROW_SECONDS = 3600
# How long a process reads its own copy of a row before the shared cache again: under a hall's polls, reading the
# row from Redis was a tenth of the server's time; a change made by another process is seen this much later (a
# change made in this process, at once), and every change re-reads the row locked (pools.locked).
ROW_KEPT_HERE = 1.0

_here: dict[int, tuple[float, LiveTournament]] = {}  # this process's copies of rows, with when they were read


def _key(tournament_id: int) -> str:
    return f"live-row:{tournament_id}"


def outside_transactions() -> bool:
    """Whether what is read now is committed (see the terms: a test case's own atomic blocks do not count)."""
    if not connection.in_atomic_block:
        return True
    return all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


def _read(tournament_id: int) -> LiveTournament | None:
    # Not the published sheet: only its ID is shown, and its row carries the whole workbook.
    row = LiveTournament.objects.select_related("tournament__system", "tournament__country").filter(
        pk=tournament_id).first()
    if row is not None:
        row.stamp = _stamp(row)
    return row


def _stamp(row: LiveTournament) -> str:
    """What the row holds, in a few characters: a page kept for a version of the day is kept for this stamp too (a
    tournament renamed in the admin changes no version, and its page must show the new name)."""
    records = (row, row.tournament, row.tournament.system, row.tournament.country)
    values = [(f.attname, record.__dict__.get(f.attname)) for record in records if record is not None
              for f in record._meta.concrete_fields if f.attname != "version"]  # the version keys the page already
    return hashlib.blake2b(repr(values).encode(), digest_size=8).hexdigest()


def live_row(tournament_id: int) -> LiveTournament | None:
    """The live tournament, from the cache while nothing changed; None when the tournament is not run live. A
    shared object: read it, never change and save it."""
    if not 0 < tournament_id < 2**63:  # the ID is a foreign key: the database would not take a larger number
        return None
    committed = outside_transactions()
    kept = _here.get(tournament_id)
    if committed and kept is not None and time.monotonic() - kept[0] < ROW_KEPT_HERE:
        return kept[1]
    row = cache.get(_key(tournament_id))
    if row is None:
        row = _read(tournament_id)
        if row is not None and committed:
            cache.add(_key(tournament_id), row, ROW_SECONDS)
    if row is not None and committed:
        _here[tournament_id] = (time.monotonic(), row)
    return row


def _forget(tournament_id: int) -> None:
    _here.pop(tournament_id, None)
    cache.delete(_key(tournament_id))


def _write_again(tournament_id: int) -> None:
    _here.pop(tournament_id, None)
    row = _read(tournament_id)
    if row is None:
        cache.delete(_key(tournament_id))
    else:
        cache.set(_key(tournament_id), row, ROW_SECONDS)


def row_changed(tournament_id: int) -> None:
    """The day changed (see the terms): the row is forgotten now and written again once the change commits."""
    _forget(tournament_id)
    transaction.on_commit(lambda: _write_again(tournament_id))


def row_changed_by_signal(sender, instance, **_) -> None:
    """Signal receiver: a live run or its tournament saved or deleted (most tournaments saved are not run live:
    forgotten now and again at the commit, without reading the database for it)."""
    _forget(instance.pk)
    transaction.on_commit(lambda: _forget(instance.pk))
