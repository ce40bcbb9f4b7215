"""The results page and the grid offer a free game in the last round from the standing the day's view has already
worked out; the answer is the one the pool read again gives (tournaments.live.results.free_players)."""

from __future__ import annotations

import random

import pytest

from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live import selectors
from tournaments.live.results import free_players
from tournaments.live.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_last_rounds_free_games_from_the_days_standing_are_the_pools_own(seed):
    live = live_tournament(federation_players(12), rounds=3)
    rng = random.Random(seed)
    play_round(live, 1, rng)
    play_round(live, 2, rng)
    round_publish(round_pair(live, user=None), user=None)
    pool = selectors.live_view(live).pools[0]

    before = pool.standing_before(3)

    assert before is not None and len(before) == 12
    read_again = free_players(live, "A", 3)
    assert read_again  # the leaders cannot be caught: a free game is possible, so a wrong standing would show
    assert free_players(live, "A", 3, before=before) == read_again


def test_a_standing_with_a_result_missing_is_not_there_to_reuse():
    live = live_tournament(federation_players(8), rounds=2)
    round_publish(round_pair(live, seed=7, user=None), user=None)  # round 1 published, no result in
    pool = selectors.live_view(live).pools[0]

    assert pool.standing_before(2) is None
    assert free_players(live, "A", 2) == free_players(live, "A", 2, before=pool.standing_before(2))
