"""Freeing a replay's objects on a thread of their own, so that its transaction need not wait for it.

Why: a full replay holds millions of small Python objects at its end (the facts, the engine's history, the
standings and championship rows); dropping them takes about 2 s at a million games on this project's machine,
0.3 s for a correction five years back. Freed by the replay's own thread, that time comes before the commit
that makes the new ratings readable. Freed here, it runs while the caller marks the requests done and commits,
which mostly wait on the database.

Dropping the last reference to a list of a million tuples frees them all inside one C call, which holds the
GIL from start to end: the caller would wait just the same. So large containers are emptied a slice at a time
and the GIL is offered to the other threads after each slice: the freeing runs at low priority, and a replay
that starts meanwhile (the next sheet) is slowed by little more than the slices it lets through.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from itertools import islice

_SLICE = 1000  # items freed between two chances for the GIL to change hands
_DEPTH = 3  # levels of objects looked into for large containers


_RUNNING: set[threading.Thread] = set()


def release_behind(objects: list, *, then: Callable[[], None] | None = None) -> threading.Thread:
    """Free what `objects` holds on a new daemon thread, then call `then`. The caller must hold no other
    reference to them and never use them again: their containers are emptied. Returns the thread."""
    thread = threading.Thread(target=_release, args=(objects, then), name="replay-release", daemon=True)
    _RUNNING.add(thread)
    thread.start()
    return thread


def releases_finished() -> None:
    """Wait until every object handed over so far is freed (a benchmark times each step on a settled
    process; tests check what the release leaves behind)."""
    for thread in list(_RUNNING):
        thread.join()


def _release(objects: list, then: Callable[[], None] | None) -> None:
    try:
        while objects:
            _empty(objects.pop(), _DEPTH)
    finally:
        if then is not None:
            then()
        _RUNNING.discard(threading.current_thread())


def _empty(value, depth: int) -> None:
    """Empty the large lists and dicts of `value` (itself, or its fields and items, theirs, `depth` levels
    down) a slice at a time. The items of a large container are taken to be small (a game, a player's row)."""
    if isinstance(value, list) and len(value) > _SLICE:
        while value:
            del value[-_SLICE:]
            time.sleep(0)  # the GIL goes to any thread waiting for it, not after the 5 ms switch interval
    elif isinstance(value, dict) and len(value) > _SLICE:
        while value:
            for key in list(islice(value, _SLICE)):
                del value[key]
            time.sleep(0)
    elif depth > 0:
        if isinstance(value, tuple | list):  # named tuples among them (History, StartState)
            fields = value
        elif isinstance(value, dict):
            fields = list(value.values())
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = [getattr(value, field.name) for field in dataclasses.fields(value)]
        else:
            fields = list(getattr(value, "__dict__", {}).values())
        for field in fields:
            _empty(field, depth - 1)
