"""The CPU time and the memory a piece of work takes, both measured in one run of it.

Time is the CPU time of this process (other jobs on the machine do not count). Memory is how far the process's
resident memory rose above what it held before: the high-water mark of its resident set (VmHWM, Linux), reset to
the current size first (/proc/self/clear_refs). That is what a server running out of memory is killed for, C
libraries' allocations included. tracemalloc, used before, counted Python's allocations only and slowed the work
about five-fold, so every bounded test ran its work twice; it is still used where /proc/self/clear_refs cannot be
written (not Linux, a locked-down container).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def _kilobytes(field: str) -> int:
    for line in _STATUS.read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise LookupError(field)


def _reset_resident_peak() -> bool:
    """The process's peak resident size set back to its current size; False where that cannot be done."""
    try:
        _CLEAR_REFS.write_text("5")  # 5: reset the peak resident set size to the current one
        _kilobytes("VmHWM")
    except OSError:
        return False
    return True


def _give_back_free_memory() -> None:
    """Memory freed by earlier work (a test's own big input, built just before) goes back to the system, so that
    the work measured cannot grow into it unseen: Python's empty arenas are unmapped once the garbage is collected,
    and glibc's malloc_trim releases the free pages of its heap."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: what is freed may stay with the process
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def cpu_and_peak(work: Callable[[], T]) -> tuple[T, float, int]:
    """work()'s result, the CPU seconds it took and the peak of memory (bytes) it added."""
    _give_back_free_memory()
    if not _reset_resident_peak():
        start = time.process_time()
        result = work()
        elapsed = time.process_time() - start
        tracemalloc.start()
        try:
            work()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return result, elapsed, peak
    before = _kilobytes("VmRSS")
    start = time.process_time()
    result = work()
    elapsed = time.process_time() - start
    return result, elapsed, max(0, _kilobytes("VmHWM") - before) * 1024
