"""A replay's objects are freed on a thread of their own, a slice at a time (ratings.release_behind)."""

from __future__ import annotations

import gc
import threading
import time
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

import pytest

from ratings.release_behind import release_behind, releases_finished


class Tracked:
    freed_on: list[str] = []

    def __del__(self) -> None:
        Tracked.freed_on.append(threading.current_thread().name)


@dataclass
class Facts:
    games: list
    info: dict


class History(NamedTuple):
    games: list
    final: dict


def _replay_objects() -> list:
    """A replay's objects, referenced by nothing else (as the replay hands them over)."""
    facts = Facts(games=[(i, Tracked()) for i in range(3000)], info={i: [Tracked()] for i in range(2500)})
    history = History(games=[Tracked() for _ in range(4000)], final={i: Tracked() for i in range(10)})
    return [facts, history]


def test_the_objects_are_freed_on_the_releasing_thread_then_its_callback_runs():
    Tracked.freed_on = []
    called = []
    thread = release_behind(_replay_objects(), then=lambda: called.append(threading.current_thread().name))
    thread.join(timeout=10)
    assert len(Tracked.freed_on) == 3000 + 2500 + 4000 + 10
    assert set(Tracked.freed_on) == {"replay-release"}
    assert called == ["replay-release"]


def test_large_containers_are_emptied_a_slice_at_a_time_so_the_caller_runs_meanwhile():
    # One C call freeing a million items would hold the GIL throughout; slices let the caller's thread run.
    ticks = []
    done = threading.Event()
    thread = release_behind([{"rows": [(i, str(i)) for i in range(1_500_000)]}], then=done.set)
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0)
    thread.join(timeout=10)
    assert len(ticks) >= 5  # one C call freeing them all lets the caller in once at most


@pytest.mark.django_db
def test_a_replay_leaves_the_collector_as_it_found_it():
    from ratings.models import RatingSystem
    from ratings.services import replay_from_scratch
    from tests.ratings.helpers import imported, roster, sheet

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    releases_finished()
    assert gc.isenabled() and gc.get_freeze_count() == 0
