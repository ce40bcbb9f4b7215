"""The replay: stored facts in, every derived row out (RULES.md §3).

`ratings_replay` recomputes one rating system from a date on (or from scratch) inside the caller's
transaction: rating events, current ratings and ranks, standings, tournament outcomes and championship
results. `replay_pending` is what the worker runs: it takes the system's lock, folds every pending request
into one run from the earliest date any of them touches, and marks them done in the same transaction.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import date, timedelta
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone

from players.models import SPARE_ID
from ratings.current_list import current_states, list_bulk, list_changes, list_read, list_write
from ratings.engine import PlayerState, collector_paused, replay
from ratings.event_columns import EventColumns, EventExpansion
from ratings.facts import Facts, facts_load
from ratings.history_writer import (
    EVENT_COLUMNS,
    IdRange,
    merge_begin,
    merge_finish,
    merge_table,
    other_systems,
    replacing,
    rows_insert,
)
from ratings.models import DerivedRowsMark, RatingEvent, RatingSystem, ReplayLock, ReplayRequest
from ratings.release_behind import release_behind
from ratings.write_behind import write_behind

logger = logging.getLogger(__name__)
# Game records per part of the history written while the engine rates the rest (a million games: five parts).
HISTORY_PART = 200_000
# A replay at the head of history reads the current ratings of the players it can change, named in the query,
# up to this many; more, and reading the whole list costs about the same.
HEAD_PLAYERS = 10_000


@dataclass(frozen=True)
class ReplaySummary:
    system: str
    since: date | None
    games: int
    events: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def _last_event(system: RatingSystem) -> tuple[date | None, int]:
    last = RatingEvent.objects.filter(system=system).order_by("-date", "-seq").values_list("date", "seq").first()
    return (last[0], last[1]) if last else (None, 0)


class StartState(NamedTuple):
    state: dict[int, PlayerState]  # each player's state just before `since`
    last_seq: int  # the last sequence number used before `since`
    at_head: bool  # nothing stored on or after `since`: `state` is the current ratings
    # The current ratings read on the way (only `players`' when restricted); None: not read (from scratch).
    current: dict[int, PlayerState] | None
    whole: bool  # `current` holds every current rating


def read_start_state(system: RatingSystem, since: date, *,
                     players: Callable[[], Collection[int] | None] | None = None) -> StartState:
    """Each player's state from the stored history before `since`. `players`, asked only when the replay is at
    the head of history: the players whose states are read then (with those of listed players without a rated
    game), or None for all."""
    last_date, last_seq = _last_event(system)
    if last_date is not None and last_date < since:
        # A tournament at the head of history (the usual case): the current ratings are that state.
        named = players() if players is not None else None
        current = current_states(system, named)
        return StartState(current, last_seq, True, current, named is None)
    current = current_states(system)
    return StartState(_start_state_from_cut(system, since, current), _last_seq_before(system, since), False,
                      current, True)


def head_players(facts: Facts, since: date) -> frozenset[int] | None:
    """The players whose current rating a replay of `facts` can change when it starts at the head of history
    with no inactivity adjustment to make: who plays, who is excluded, who has an opening balance (with the
    listed players without a rated game, ratings.current_list.current_states). None: too many to name, or an
    adjustment to make, which touches everyone."""
    if _adjusts_from(facts, since):
        return None
    players = _players_of(facts)
    players.update(facts.excluded)
    players.update(opening.player for opening in facts.openings)
    return frozenset(players) if len(players) <= HEAD_PLAYERS else None


def _players_of(facts: Facts) -> set[int]:
    """Who plays in the tournaments of `facts`: their registered players and both sides of every game."""
    players = set(facts.registrations.player.tolist())
    players.update(facts.games.a.tolist())
    players.update(facts.games.b.tolist())
    return players


def _adjusts_from(facts: Facts, since: date) -> bool:
    """Whether a closed year's inactivity adjustment (which touches every player) falls on or after `since`."""
    return any(date(year, 12, 31) >= since for year in facts.closed_years)


def _last_seq_before(system: RatingSystem, since: date) -> int:
    last = (RatingEvent.objects.filter(system=system, date__lt=since).order_by("-date", "-seq")
            .values_list("seq", flat=True).first())
    return last or 0


def _start_state_from_cut(system: RatingSystem, since: date, current: dict[int, PlayerState]
                          ) -> dict[int, PlayerState]:
    """The state at `since` without reading the history before it: a player with an event on or after `since`
    starts from that first event's own record of the state before it (rating, games, last rated game); any
    other player is still where the `current` ratings say. One pass over the events being replaced, which the
    replay rewrites anyway: an old correction no longer probes the history player by player."""
    table = RatingEvent._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT player_id, rating_before, games_before, last_played_before FROM (
                    SELECT player_id, rating_before, games_before, last_played_before,
                           ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY seq) AS n
                    FROM {table} WHERE system_id = %s AND date >= %s) AS cut
                WHERE n = 1""",  # noqa: S608 - table name from the model, values bound
            [system.code, since])
        first = cursor.fetchall()
    state = dict(current)
    state.update((player, PlayerState(rating, games, _as_date(last))) for player, rating, games, last in first)
    return state


def _as_date(value) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def _event_expansion(system: RatingSystem, facts: Facts, *, first_seq: int, start_games: dict[int, int],
                     start_played: dict[int, date | None]) -> EventExpansion:
    """The engine's records expanded to one event row per player per game (and per adjustment), in order."""
    return EventExpansion(
        code=system.code, end_of={tid: t.end for tid, t in facts.info.items()},
        result_of=facts.result_of(),
        values=system.get_ruleset().result_values, first_seq=first_seq, start_games=start_games,
        start_played=start_played, spare=SPARE_ID)


def ratings_replay(*, system: RatingSystem, since: date | None = None) -> ReplaySummary:
    """Recompute `system` from `since` (None: from scratch). Run inside a transaction holding the lock."""
    # The collector stays off for the whole replay: facts, history and derived rows all live at once.
    with collector_paused():
        summary, held = _ratings_replay(system, since)
        # Freed while the caller commits. Until then they stay out of the collector's sight: turned on again
        # with millions of them alive, it would soon walk them all (4 s at a million games).
        gc.freeze()
    release_behind(held, then=gc.unfreeze)
    return summary


def _ratings_replay(system: RatingSystem, since: date | None) -> tuple[ReplaySummary, list]:
    """The replay, and the large objects it made (see ratings.release_behind)."""
    from championship.services import (
        championship_applies,
        championship_prepare,
        championship_read,
        championship_rows,
        championship_write,
    )
    from tournaments.results import (
        club_names,
        counting_placings,
        tournament_results,
        tournament_results_encoded,
        tournament_results_write,
    )

    started = time.perf_counter()
    ruleset = system.get_ruleset()
    if since is not None and not RatingEvent.objects.filter(system=system, date__lt=since).exists():
        # Nothing stored before it: a full replay is the same thing and simpler. So is a replay after a
        # database crash, which empties every derived table at once (ratings.models.DerivedRowsMark).
        since = None
    facts = facts_load(system=system, since=since)
    if since is None:
        start = StartState({}, 0, False, None, True)
    else:
        start = read_start_state(system, since, players=lambda: head_players(facts, since))
    start_state, last_seq, at_head = start.state, start.last_seq, start.at_head
    start_games = {opening.player: opening.games for opening in facts.openings}
    start_games.update((player, state.games) for player, state in start_state.items())
    engine_state, engine_openings = start_state, facts.openings
    if at_head and not _adjusts_from(facts, since):
        # No adjustment to replay: the engine needs only the players of the new tournaments, not the whole
        # federation (their openings are already part of their current ratings).
        playing = _players_of(facts)
        engine_state = {p: state for p, state in start_state.items() if p in playing}
        engine_openings = [o for o in facts.openings if o.player in playing]
    clubs = club_names()
    stored_list = list_read(system, current=start.current, whole=start.whole)
    championship = championship_read(system=system, since=since, at_head=at_head) if championship_applies(
        system) else None
    expansion = _event_expansion(system, facts, first_seq=last_seq + 1, start_games=start_games,
                                 start_played={player: state.last_played for player, state in start_state.items()})
    # Every write runs behind, in order, on a second thread (same transaction), while this thread works out
    # the next rows: the history is written part by part while the engine rates the rest, the rating list
    # and the history's indexes while the standings are computed, and so on.
    with write_behind() as behind:
        history_rewrite = _HistoryRewrite(system, since)
        behind.submit(history_rewrite.begin)

        def written_so_far(games: list, adjustments: list) -> None:
            behind.submit(history_rewrite.add, expansion.next(games, adjustments))

        history = replay(
            ruleset,
            tournaments=facts.tournaments,
            openings=engine_openings,
            closed_years=facts.closed_years,
            excluded=facts.excluded,
            start_state=engine_state or None,
            after=(since - timedelta(days=1)) if since is not None else None,
            progress=written_so_far,
            every=HISTORY_PART,
        )
        written_so_far(history.games, history.adjustments)
        written = behind.submit(history_rewrite.finish)
        changes = list_changes(ruleset=ruleset, history=history, start_state=start_state, facts=facts,
                               stored=stored_list)
        behind.submit(list_write, system=system, changes=changes,
                      bulk=list_bulk(code=system.code, changes=changes, stored=stored_list))
        results = tournament_results(facts=facts, history=history, ruleset=ruleset, club_names=clubs,
                                     records=expansion.records())
        behind.submit(tournament_results_write, system=system, facts=facts, results=results, full=since is None,
                      encoded=tournament_results_encoded(results))
        if championship is not None:
            counting, placings = counting_placings(facts, results)
            rows = championship_rows(stored=championship, replayed=counting, placings=placings)
            writes = championship_prepare(stored=championship, rows=rows)
            behind.submit(championship_write, system=system, writes=writes)
    DerivedRowsMark.objects.update_or_create(system=system, defaults={"replayed_at": timezone.now()})
    elapsed = time.perf_counter() - started
    summary = ReplaySummary(system.code, since, len(history.games), written.result(), elapsed)
    logger.info("replayed %s since %s: %d games, %d events in %.2fs", system.code, since, summary.games,
                summary.events, elapsed)
    held = [facts, start, start_state, start_games, engine_state, engine_openings, stored_list, championship,
            expansion, history, changes, results]
    if championship is not None:
        held += [counting, placings, rows, writes]
    return summary, held


class _HistoryRewrite:
    """Replace the system's events from `since` on (all of them when None) by rows that come in parts, in
    order: `begin`, `add` per part, `finish` (each a job of the write-behind thread)."""

    def __init__(self, system: RatingSystem, since: date | None) -> None:
        self.system, self.since = system, since
        self.table = RatingEvent._meta.db_table
        self.written = 0
        self._merge: tuple | None = None  # (stale condition, its parameters) when merging
        self._keys: IdRange | None = None  # the rows' keys to hand out, when written in bulk on PostgreSQL
        self._replacing = ExitStack()

    def begin(self) -> None:
        stored = RatingEvent.objects.filter(system=self.system)
        full = self.since is None
        if connection.vendor == "postgresql" and (not full or stored.exists()):
            # Events are the same from one replay to the next when their sequence number, player and every
            # value match: only the differing ones are written, and readers of the history are never held up.
            # Only a first replay, into an empty history, takes the bulk path below.
            self._merge = ("e.system_id = %s", [self.system.code]) if full else (
                "e.system_id = %s AND e.date >= %s", [self.system.code, self.since])
            merge_begin(table=self.table, columns=EVENT_COLUMNS)
            return
        stale = stored if full else stored.filter(date__gte=self.since)
        # By the other systems' codes, not "not this one": that would scan two million rows for nothing.
        whole = full and not RatingEvent.objects.filter(system_id__in=other_systems(self.system)).exists()
        self._keys = self._replacing.enter_context(replacing(table=self.table, stale=stale, full=full, whole=whole))

    def add(self, events: EventColumns) -> None:
        rows = events.binary_copy() if connection.vendor == "postgresql" else events.tuples()
        target = merge_table(self.table) if self._merge is not None else self.table
        self.written += rows_insert(table=target, columns=EVENT_COLUMNS, rows=rows, keys=self._keys)

    def finish(self) -> int:
        if self._merge is not None:
            stale, params = self._merge
            # Matched on numbers alone: the stale rows and the new ones are all of this system, and PostgreSQL
            # sorts or hashes a text key the same in every row several times slower.
            merge_finish(table=self.table, columns=EVENT_COLUMNS, key=("seq", "player_id"), stale=stale,
                         params=params)
        else:
            self._replacing.close()  # the history's indexes and keys built again
        return self.written


class ReplayBusy(Exception):
    """Another replay of the same system holds the lock; it will pick up the pending requests."""


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
                raise ReplayBusy(system_code)
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
    from tournaments.models import Sheet

    with transaction.atomic():
        ids = list(ReplayRequest.objects.filter(
            system_id=system_code, status__in=[ReplayRequest.PENDING, ReplayRequest.RUNNING]
        ).values_list("id", flat=True))
        ReplayRequest.objects.filter(id__in=ids).update(status=ReplayRequest.FAILED, error=error[:2000],
                                                        finished_at=timezone.now())
        Sheet.objects.filter(replay_request_id__in=ids, status=Sheet.IMPORTED).update(status=Sheet.FAILED)


def _mark_sheets_published(request_ids: list[int]) -> None:
    from tournaments.models import Sheet

    Sheet.objects.filter(replay_request_id__in=request_ids, status__in=[Sheet.IMPORTED, Sheet.FAILED]).update(
        status=Sheet.REPLAYED)


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
