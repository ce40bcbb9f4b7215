"""The measure the bounded tests rely on (tests/bounds.py) sees memory the work takes, and only that."""

from __future__ import annotations

from tests.bounds import cpu_and_peak

MB = 1024 * 1024


def test_the_memory_a_work_holds_at_its_peak_is_seen_even_after_a_bigger_one_was_freed():
    freed = b"y" * (128 * MB)  # a test's own big input, built and dropped before the work measured
    del freed
    length, _, peak = cpu_and_peak(lambda: len(b"x" * (64 * MB)))
    assert length == 64 * MB
    assert 60 * MB <= peak < 100 * MB


def test_a_work_that_holds_nothing_adds_almost_nothing():
    total, elapsed, peak = cpu_and_peak(lambda: sum(range(1000)))
    assert total == 499500
    assert peak < 16 * MB
    assert elapsed < 1
