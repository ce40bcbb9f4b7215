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
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q

from tournaments.live import clock as clocks
from tournaments.live import selectors
from tournaments.live.clock import ClockView
from tournaments.live.hall_row import outside_transactions
from tournaments.live.pools import key_of
from tournaments.models import LiveEntrant, LiveTable, LiveTournament

PART_SECONDS = 600


def started(live: LiveTournament) -> int:
    """The run's start to the microsecond: two live runs that reused an ID within one second stay apart."""
    return int(live.started_at.timestamp() * 1_000_000)


def shared(live: LiveTournament, name: str, build, *, language: str = ""):
    """The part `name` of this version of the day (in `language` when it is worded), built by build() once."""
    key = f"hall:{name}:{live.pk}:{started(live)}:{live.version}:{language}"
    kept = cache.get(key)
    if kept is not None:
        return kept[0]  # kept in a tuple: a part may be None (no clock before round 1)
    value = build()
    if outside_transactions():
        cache.set(key, (value,), PART_SECONDS)
    return value


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
    current_rounds: list[int]  # each pool's current round (LiveRound pk), in the pools' order
    pools: dict[str, PoolPlaces]


def day_places(live: LiveTournament) -> DayPlaces:
    """Each pool's current round and latest standings (see the terms)."""

    def build():
        view = selectors.live_view(live)
        pools = {}
        for pool in view.pools:
            after, lines = pool.last_standings or (None, [])
            pools[pool.pool] = PoolPlaces(after, {line.key: Place(line.rank, line.score) for line in lines},
                                          len(lines))
        return DayPlaces([pool.current.round.pk for pool in view.pools if pool.current], pools)

    return shared(live, "live-places", build)


def entrant_table(live: LiveTournament, entrant: LiveEntrant, places: DayPlaces):
    """The entrant's table in the current round of a pool, as selectors.table_of_entrant finds it in the whole
    view, reading that one table: (its round, TableView) or None."""
    tables = list(LiveTable.objects.filter(round_id__in=places.current_rounds).filter(Q(a=entrant) | Q(b=entrant))
                  .select_related("round", "a", "b"))
    tables.sort(key=lambda t: places.current_rounds.index(t.round_id))
    if not tables:
        return None
    return tables[0].round, selectors.table_view(tables[0], live.tournament.system.get_ruleset())


def entrant_place(entrant: LiveEntrant, places: DayPlaces) -> dict | None:
    """What the private link's page says of the entrant's place: None before any round of their pool is
    complete."""
    pool = places.pools.get(entrant.pool)
    if pool is None or pool.after is None:
        return None
    return {"after": pool.after, "line": pool.places.get(key_of(entrant)), "of": pool.lines}
