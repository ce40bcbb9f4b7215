"""The round clock (rules.clock): the charter's game times, deployment at 20 %, the announcements, and a clock
started, paused, resumed and extended; with property tests over any sequence of the referee's actions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clock import (
    DEPLOYMENT_OVER,
    LEFT_15,
    LEFT_30,
    OVER,
    PAUSED,
    READY,
    RUNNING,
    TIME_UP,
    Clock,
    ClockRefused,
    clock_extend,
    clock_pause,
    clock_reset,
    clock_resume,
    clock_set,
    clock_start,
    deployment_time,
    minutes_checked,
    planned_minutes,
)

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


@pytest.mark.parametrize(("points", "expected"), [
    (100, (75, "charter")), (200, (150, "charter")), (300, (210, "charter")),  # App. 1 §6
    (150, (115, "charter")), (250, (180, "charter")), (101, (80, "charter")),  # the line, rounded up to 5 minutes
    (50, (75, "nearest")), (400, (210, "nearest")), (None, (150, "default")),  # where the charter gives none
])
def test_game_time_follows_the_charter_and_the_clock_decision_where_it_gives_none(points, expected):
    assert planned_minutes(points) == expected


def test_the_announced_game_time_comes_first():
    assert planned_minutes(200, announced=140) == (140, "announced")


def test_deployment_is_a_fifth_of_the_game_time_as_the_charter_says_30_minutes_in_200_points():
    assert deployment_time(minutes(150)) == minutes(30)
    assert deployment_time(minutes(75)) == minutes(15)


@pytest.mark.parametrize("typed", [-5, 0, 9, 361, 10_000])
def test_a_game_time_out_of_bounds_is_refused(typed):
    with pytest.raises(ClockRefused) as refused:
        minutes_checked(typed)
    assert refused.value.code == "clock_minutes"


def test_a_clock_before_its_start_is_ready_and_announces_nothing():
    clock = Clock(minutes(150))
    assert clock.state(T0) == READY
    assert clock.time_left(T0 + minutes(60)) == minutes(150)
    assert clock.due(T0) == []
    assert clock.ends_at(T0) is None


def test_a_running_clock_counts_down_and_announces_deployment_30_15_and_the_end_in_order():
    clock = clock_start(Clock(minutes(150)), T0)
    assert clock.state(T0 + minutes(1)) == RUNNING
    assert clock.time_left(T0 + minutes(10)) == minutes(140)
    assert not clock.deployment_over(T0 + minutes(29))
    assert [a.code for a in clock.due(T0 + minutes(29))] == []
    assert clock.deployment_over(T0 + minutes(30))
    assert [a.code for a in clock.due(T0 + minutes(30))] == [DEPLOYMENT_OVER]
    assert [a.code for a in clock.due(T0 + minutes(120))] == [DEPLOYMENT_OVER, LEFT_30]
    assert [a.code for a in clock.due(T0 + minutes(135))] == [DEPLOYMENT_OVER, LEFT_30, LEFT_15]
    assert [a.code for a in clock.due(T0 + minutes(150))] == [DEPLOYMENT_OVER, LEFT_30, LEFT_15, TIME_UP]
    assert clock.state(T0 + minutes(151)) == OVER
    assert clock.time_left(T0 + minutes(151)) == minutes(-1)
    assert clock.ends_at(T0 + minutes(5)) == T0 + minutes(150)
    assert clock.deployment_ends_at(T0 + minutes(5)) == T0 + minutes(30)


def test_a_pause_freezes_the_clock_and_moves_every_deadline_by_its_length():
    clock = clock_pause(clock_start(Clock(minutes(150)), T0), T0 + minutes(10))
    assert clock.state(T0 + minutes(50)) == PAUSED
    assert clock.time_left(T0 + minutes(50)) == minutes(140)
    assert clock.ends_at(T0 + minutes(50)) is None
    clock = clock_resume(clock, T0 + minutes(25))
    assert clock.paused == minutes(15)
    assert clock.time_left(T0 + minutes(25)) == minutes(140)
    assert clock.ends_at(T0 + minutes(25)) == T0 + minutes(165)
    assert not clock.deployment_over(T0 + minutes(44))
    assert clock.deployment_over(T0 + minutes(45))


def test_an_extension_adds_its_minutes_but_leaves_deployment_where_it_was():
    clock = clock_extend(clock_start(Clock(minutes(150)), T0), 10)
    assert clock.time_left(T0 + minutes(140)) == minutes(20)
    assert [a.code for a in clock.due(T0 + minutes(140))] == [DEPLOYMENT_OVER, LEFT_30]
    assert clock.deployment_over(T0 + minutes(30))


def test_an_announcement_a_short_game_never_had_is_not_made():
    clock = clock_start(Clock(minutes(20)), T0)
    assert [a.code for a in clock.announcements()] == [DEPLOYMENT_OVER, LEFT_15, TIME_UP]


@pytest.mark.parametrize(("action", "code"), [
    (lambda c: clock_start(c, T0), "clock_started"),
    (lambda c: clock_set(c, 100), "clock_started"),
    (lambda c: clock_resume(c, T0), "clock_not_paused"),
    (lambda c: clock_pause(clock_pause(c, T0), T0), "clock_paused"),
    (lambda c: clock_extend(c, 0), "clock_extension"),
    (lambda c: clock_extend(c, -5), "clock_extension"),
    (lambda c: clock_extend(c, 121), "clock_extension"),
    (lambda c: clock_extend(clock_extend(clock_extend(clock_extend(c, 120), 120), 120), 120), "clock_total"),
])
def test_what_a_started_clock_cannot_do_is_refused(action, code):
    with pytest.raises(ClockRefused) as refused:
        action(clock_start(Clock(minutes(150)), T0))
    assert refused.value.code == code


@pytest.mark.parametrize("action", [lambda c: clock_pause(c, T0), lambda c: clock_extend(c, 5)])
def test_a_clock_not_started_cannot_be_paused_or_extended(action):
    with pytest.raises(ClockRefused) as refused:
        action(Clock(minutes(150)))
    assert refused.value.code == "clock_not_started"


def test_a_reset_clock_is_ready_again_with_its_game_time():
    clock = clock_extend(clock_pause(clock_start(Clock(minutes(150)), T0), T0 + minutes(20)), 10)
    assert clock_reset(clock, T0 + minutes(30)) == Clock(minutes(150))
    with pytest.raises(ClockRefused):
        clock_reset(Clock(minutes(150)), T0)


def test_the_game_time_is_set_before_the_start():
    assert clock_set(Clock(minutes(150)), 120).duration == minutes(120)


# --- properties: any sequence of the referee's actions, at any moments


actions = st.lists(st.tuples(st.sampled_from(["wait", "pause", "resume", "extend"]),
                             st.integers(min_value=0, max_value=3 * 3600), st.integers(min_value=1, max_value=20)),
                   max_size=25)


def _apply(clock: Clock, action: str, now: datetime, extra: int) -> Clock:
    try:
        if action == "pause":
            return clock_pause(clock, now)
        if action == "resume":
            return clock_resume(clock, now)
        if action == "extend":
            return clock_extend(clock, extra)
    except ClockRefused:
        pass
    return clock


# No deadline: on a machine shared by the whole suite a slow example is not a wrong one.
PROPERTY = settings(max_examples=200, deadline=None)


@PROPERTY
@given(st.integers(min_value=10, max_value=360), actions)
def test_time_left_never_increases_but_by_an_extension_and_a_pause_freezes_it(duration, steps):
    clock = clock_start(Clock(minutes(duration)), T0)
    now = T0
    for action, wait, extra in steps:
        before = clock.time_left(now)
        later = now + timedelta(seconds=wait)
        # Waiting: a running clock loses exactly the time waited, a paused one nothing.
        waited = clock.time_left(later)
        if clock.paused_at is not None:
            assert waited == before
        else:
            assert waited == before - timedelta(seconds=wait)
        now = later
        after_action = _apply(clock, action, now, extra)
        if action == "extend" and after_action is not clock:
            assert after_action.time_left(now) == waited + minutes(extra)
        else:
            assert after_action.time_left(now) == waited  # pause and resume take nothing and give nothing
        clock = after_action


@PROPERTY
@given(st.integers(min_value=10, max_value=360), actions)
def test_the_announcements_due_are_those_whose_mark_the_time_left_reached_in_their_order(duration, steps):
    clock = clock_start(Clock(minutes(duration)), T0)
    now = T0
    for action, wait, extra in steps:
        now += timedelta(seconds=wait)
        clock = _apply(clock, action, now, extra)
        due = clock.due(now)
        every = clock.announcements()
        assert due == every[:len(due)]  # a prefix: they fall due in order
        assert (TIME_UP in [a.code for a in due]) == (clock.time_left(now) <= timedelta(0))
        assert (DEPLOYMENT_OVER in [a.code for a in due]) == clock.deployment_over(now)
