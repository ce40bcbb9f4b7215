"""What the hall's pages show of a tournament day, worked out once per change of the day for every phone, screen
and private link, and kept in the cache until the next change (see hall_row for the row they are keyed on).

Terms
-----
part
    A value worked out from the day (HTML rendered in one language, the current round's clock without its time,
    each entrant's place): under a key made of its name, the tournament, the run's start time (two runs that
    reused an ID stay apart), the version and, for what is worded, the language. A change bumps the version, so a
    part is never served stale; PART_SECONDS only bounds the memory the finished days take. Worked out inside a
    transaction, a part is not kept (hall_row.outside_transactions).
place
    An entrant's rank and score in the latest standings of their pool, with the round they are after and the
    number of lines: what the private link's page says of the standings, without reading the pool.

When the day changes, a hall of 300 phones polling every 10 s asks for the new parts within moments of each other.
Measured under that load (bench/live_load.py), each thread that missed a part worked the whole day out again, and
each part did too: a 128-player day's version cost a dozen builds of its view on a core already busy, the polls
waited on them, and more polls missed. So a part is built once, by one thread of one process, while the others that
want it wait for it (`shared`), and the parts of a version are worked out from one view of the day (`day_view`). A
part, once built or read, is also kept in the process's memory: its key names its version, so it never goes stale
there, and the polls read it without a round trip to the shared cache. A poll that comes while the new version
is being built, or within a few seconds of the latest build, is answered with the version before
(`shared_or_earlier`), with that version's ETag; after those seconds, the poll that finds the new version missing
is answered the same way while a thread builds it behind it (beside an abusive client, the polls that built
waited 130-250 ms, the rest 5 ms).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections
from django.db.models import OuterRef, Q, Subquery
from django.utils import translation

from tournaments.live import clock as clocks
from tournaments.live import selectors
from tournaments.live.clock import ClockView
from tournaments.live.hall_row import outside_transactions
from tournaments.live.pools import key_of
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament

logger = logging.getLogger(__name__)

PART_SECONDS = 600
BUILD_WAIT = 2.0  # seconds a part built by another process is waited for; a 128-player day's history takes 0.1 s
BUILD_POLL = 0.02


def started(live: LiveTournament) -> int:
    """The run's start to the microsecond: two live runs that reused an ID within one second stay apart."""
    return int(live.started_at.timestamp() * 1_000_000)


_building: dict[str, threading.Lock] = {}  # a part being built in this process, by key
_behind: set[str] = set()  # a part being built in a thread of this process behind a request (_build_behind)
_here: OrderedDict[str, tuple] = OrderedDict()  # the parts this process built or read lately, by key
_HERE_KEPT = 32  # a version's parts in both languages, and the last versions': a few megabytes at most
_views: dict[tuple, selectors.LiveView] = {}  # the day's views of the latest versions built in this process
_VIEWS_KEPT = 4
_guard = threading.Lock()


def _kept_here(key: str) -> tuple | None:
    with _guard:
        return _here.get(key)


def _keep_here(key: str, kept: tuple) -> None:
    with _guard:
        _here[key] = kept
        while len(_here) > _HERE_KEPT:
            _here.popitem(last=False)


def forget_kept_here() -> None:
    """This process's own copies of parts and views dropped (a test comparing with a page rendered from nothing)."""
    with _guard:
        _here.clear()
        _views.clear()


def part_key(live: LiveTournament, name: str, language: str, version: int | None = None) -> str:
    return f"hall:{name}:{live.pk}:{started(live)}:{live.version if version is None else version}:{language}"


def building_key(key: str) -> str:
    """The shared cache's mark of a part being built by a process (see `shared`)."""
    return f"{key}:building"


def _latest_key(live: LiveTournament, name: str, language: str) -> str:
    return f"hall:{name}:{live.pk}:{started(live)}:built:{language}"  # (version, when)


def _kept(key: str) -> tuple | None:
    """The part under `key` from this process's memory, else from the shared cache (then kept here too)."""
    kept = _kept_here(key)
    if kept is None:
        kept = cache.get(key)
        if kept is not None:
            _keep_here(key, kept)
    return kept


def shared(live: LiveTournament, name: str, build, *, language: str = ""):
    """The part `name` of this version of the day (in `language` when it is worded), built by build() once; the
    process's other threads, and the other processes, that want it meanwhile wait for it instead of building it
    too."""
    key = part_key(live, name, language)
    kept = _kept(key)
    if kept is not None:
        return kept[0]  # kept in a tuple: a part may be None (no clock before round 1)
    with _guard:
        lock = _building.setdefault(key, threading.Lock())
    try:
        with lock:
            kept = _kept_here(key)  # built by another thread while this one waited
            if kept is not None:
                return kept[0]
            keeps = outside_transactions()
            marked = keeps and cache.add(building_key(key), 1, BUILD_WAIT * 4)
            if keeps and not marked:
                kept = _built_elsewhere(key)
                if kept is not None:
                    return kept[0]
            try:
                value = build()
                if keeps:
                    cache.set(key, (value,), PART_SECONDS)
                    _keep_here(key, (value,))
                    _latest_is(live, name, language)
            finally:
                if marked:
                    cache.delete(building_key(key))
            return value
    finally:
        with _guard:
            _building.pop(key, None)


def _latest_is(live: LiveTournament, name: str, language: str) -> None:
    """The latest version of the part built, and when (two versions built at once may leave the earlier: still a
    version that was true, and the next poll reads the current one)."""
    latest = _latest_key(live, name, language)
    if (cache.get(latest) or (0, 0.0))[0] < live.version:
        cache.set(latest, (live.version, time.time()), PART_SECONDS)


def shared_or_earlier(live: LiveTournament, name: str, build, *, language: str = "",
                      settle: float | None = None) -> tuple[object, int]:
    """(the part, its version): this version's, or the latest version built before it, at once. What a poll
    answers: the phones that poll while the day changes get the version they may already have (304) and the new one
    at a later poll, instead of each waiting for a build; and while the day changes every second (the first
    minutes of a round: the referee's and the players' entries), the part is built once every few seconds for the
    latest change, not once for each (a 128-player day's parts cost about a second of the server's core for each
    version). `settle`: those seconds (LIVE_HALL_SETTLE_SECONDS) for this part, when not the hall's.

    The version before is served while another thread or worker builds this one, within `settle` after the latest
    build and, once `settle` is over, while this one is built behind the request (`_build_behind`): no phone waits
    for a build when there is a version to show. Inside a transaction (a test case's), or with no delay, the part
    is built for the request that asks for it."""
    key = part_key(live, name, language)
    kept = _kept(key)
    if kept is not None:
        return kept[0], live.version
    latest = cache.get(_latest_key(live, name, language))
    if latest is not None and latest[0] < live.version:
        version, built_at = latest
        settle = settings.LIVE_HALL_SETTLE_SECONDS if settle is None else settle
        with _guard:
            building_here = key in _building or key in _behind
        settling = time.time() - built_at < settle
        behind = settle > 0 and not connection.in_atomic_block
        if building_here or settling or behind or cache.get(building_key(key)) is not None:
            earlier = _kept(part_key(live, name, language, version))
            if earlier is not None:
                if behind and not settling:
                    _build_behind(live, name, build, language)
                return earlier[0], version
    return shared(live, name, build, language=language), live.version


def _build_behind(live: LiveTournament, name: str, build, language: str) -> None:
    """The part of this version built in a thread of this process, once (by one process: `shared` marks it in the
    shared cache), while the request that found it missing answers with the version before. The thread reads the
    database on a connection of its own, in the request's language, and closes it when done; a build that fails is
    logged and tried again by a later poll."""
    key = part_key(live, name, language)
    if cache.get(building_key(key)) is not None:
        return  # another process builds it: the polls here read it once built
    with _guard:
        if key in _behind or key in _building:
            return
        _behind.add(key)
    words = translation.get_language()

    def run():
        try:
            with translation.override(words):
                shared(live, name, build, language=language)
        except Exception:
            logger.exception("The hall's part %s of live tournament %s could not be built", name, live.pk)
        finally:
            connections.close_all()
            with _guard:
                _behind.discard(key)

    threading.Thread(target=run, name=f"hall-part-{name}", daemon=True).start()


def built_behind(timeout: float = 10.0) -> None:
    """Wait until the parts being built behind requests in this process are (a test reading what they built)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _guard:
            if not _behind:
                return
        time.sleep(BUILD_POLL)


def _built_elsewhere(key: str) -> tuple | None:
    """The part another process (another server worker) is building, once it has: None when it takes longer than
    BUILD_WAIT (this process then builds it itself)."""
    waited = 0.0
    while waited < BUILD_WAIT:
        time.sleep(BUILD_POLL)
        waited += BUILD_POLL
        kept = _kept(key)
        if kept is not None:
            return kept
    return None


def day_view(live: LiveTournament, *, language: str = "en") -> selectors.LiveView:
    """The day's view the hall's parts are built from, worked out once per version and language in this process
    (read it, never change it). Inside a transaction it is worked out afresh and not kept, as parts are not."""
    key = (live.pk, started(live), live.version, language)
    with _guard:
        view = _views.get(key)
    if view is not None:
        return view
    view = selectors.live_view(live, language=language)
    if outside_transactions():
        with _guard:
            _views[key] = view
            while len(_views) > _VIEWS_KEPT:
                _views.pop(next(iter(_views)))
    return view


def clock_shared(live: LiveTournament) -> ClockView | None:
    """The current round's clock at the server's time: what the clock is (its round, game time, start, pauses) is
    read once per version, the time left worked out for each request."""

    def build():
        view = clocks.clock_view(live)
        return None if view is None else (view.number, view.clock, view.source)

    parts = shared(live, "live-clock", build)
    if parts is None:
        return None
    number, clock, source = parts
    return ClockView(live, number, clock, clocks.clock_now(), source=source)  # as a test sets it


@dataclass(frozen=True)
class Place:
    rank: int
    score: float


@dataclass(frozen=True)
class PoolPlaces:
    after: int | None  # the latest complete round, whose standings these are
    places: dict[int, Place]  # by entrant key (pools.key_of)
    lines: int


@dataclass(frozen=True)
class DayPlaces:
    pools: dict[str, PoolPlaces]


def day_places(live: LiveTournament) -> DayPlaces:
    """Each pool's latest standings (see the terms): of this version, or of the version before while it is built
    or settles (shared_or_earlier), as the hall's fragment is."""

    def build():
        view = day_view(live)
        pools = {}
        for pool in view.pools:
            after, lines = pool.last_standings or (None, [])
            pools[pool.pool] = PoolPlaces(after, {line.key: Place(line.rank, line.score) for line in lines},
                                          len(lines))
        return DayPlaces(pools)

    return shared_or_earlier(live, "live-places", build)[0]


def entrant_table(live: LiveTournament, entrant: LiveEntrant):
    """The entrant's table in the current round of their pool (its last published, as PoolView.current), reading
    that one table in one query: (its round, TableView) or None. Read afresh, never from an earlier version: a
    player opening their link at a round's publication sees their new table, and their entry is checked against
    it."""
    current = (LiveRound.objects.filter(live=live, pool=OuterRef("round__pool"), published_at__isnull=False)
               .order_by("-number").values("number")[:1])
    table = (LiveTable.objects.filter(round__live=live, round__number=Subquery(current))
             .filter(Q(a=entrant) | Q(b=entrant)).select_related("round", "a", "b").order_by("round__pool").first())
    if table is None:
        return None
    return table.round, selectors.table_view(table, live.tournament.system.get_ruleset())


def entrant_place(entrant: LiveEntrant, places: DayPlaces) -> dict | None:
    """What the private link's page says of the entrant's place: None before any round of their pool is
    complete."""
    pool = places.pools.get(entrant.pool)
    if pool is None or pool.after is None:
        return None
    return {"after": pool.after, "line": pool.places.get(key_of(entrant)), "of": pool.lines}
