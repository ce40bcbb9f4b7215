"""Bulk writes of a replay run on a second thread, on the same connection and transaction, while the replay's
own thread computes the next rows.

Why: a full replay spends seconds in PostgreSQL ingesting the history and building its indexes, and seconds in
Python computing the standings; on two cores both can run at once. The second thread borrows the caller's
database connection (Django's thread sharing), so its writes are part of the caller's transaction and roll back
with it. The contract: between `submit` and the end of the block the calling thread computes and does not query
(psycopg's own lock would make it wait, never corrupt, but the overlap would be lost). On SQLite, or with
`enabled=False`, jobs run at once in the calling thread.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections

_SWITCH_INTERVAL = 0.001  # seconds


class WriteBehind:
    def __init__(self, executor: ThreadPoolExecutor | None) -> None:
        self._executor = executor
        self.futures: list[Future] = []
        self._failed = False  # a job failed: the transaction is lost, the later jobs are not run

    def submit(self, job: Callable, *args, **kwargs) -> Future:
        """Run `job(*args, **kwargs)` behind the jobs submitted before it; its result or error is the future's."""
        if self._executor is not None:
            future = self._executor.submit(self._run, job, args, kwargs)
        else:
            future = Future()
            try:
                future.set_result(self._run(job, args, kwargs))
            except BaseException as error:  # handed over to whoever reads the future
                future.set_exception(error)
        self.futures.append(future)
        return future

    def _run(self, job: Callable, args: tuple, kwargs: dict):
        if self._failed:
            raise JobSkipped(f"{getattr(job, '__name__', job)}: an earlier write failed")
        try:
            return job(*args, **kwargs)
        except BaseException:
            self._failed = True
            raise


class JobSkipped(Exception):
    """A job not run because one before it failed (that one's error is the one raised)."""


@contextmanager
def write_behind(*, enabled: bool = True, using: str = DEFAULT_DB_ALIAS) -> Iterator[WriteBehind]:
    """A WriteBehind whose jobs have all finished when the block ends (an error of theirs is raised there; an
    error of the block's own cancels the jobs not yet started)."""
    wrapper = connections[using]
    if not enabled or wrapper.vendor != "postgresql":
        behind = WriteBehind(None)
        yield behind
        _raise_first_error(behind)
        return

    def borrow() -> None:
        connections[using] = wrapper  # this thread's connection is now the caller's

    wrapper.inc_thread_sharing()
    switch = sys.getswitchinterval()
    # The second thread wakes thousands of times (each block of COPY data sent, each statement answered) and
    # needs the GIL for a moment each time: at the default 5 ms hand-over it would wait longer than PostgreSQL.
    sys.setswitchinterval(_SWITCH_INTERVAL)
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="write-behind", initializer=borrow)
    try:
        behind = WriteBehind(executor)
        try:
            yield behind
        except BaseException:
            executor.shutdown(wait=True, cancel_futures=True)  # the running job ends; the connection is ours again
            raise
        executor.shutdown(wait=True)
    finally:
        sys.setswitchinterval(switch)
        wrapper.dec_thread_sharing()
    _raise_first_error(behind)


def _raise_first_error(behind: WriteBehind) -> None:
    for future in behind.futures:
        if future.cancelled():
            continue
        error = future.exception()
        if error is not None and not isinstance(error, JobSkipped):
            raise error
