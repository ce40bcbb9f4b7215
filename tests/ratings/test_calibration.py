"""The calibration page's numbers: worked out by the worker after each replay, from the rated games only."""

from __future__ import annotations

from datetime import date

import pytest

from players.governance import player_exclude
from players.models import Player
from ratings.calibration import calibration_games
from ratings.models import Calibration, RatingEvent, RatingSystem
from rules.rulesets import SPARE_ID
from tests.ratings.helpers import imported, roster, sheet

pytestmark = pytest.mark.django_db(transaction=True)


def _rated_pairs() -> int:
    """Rated games between two real players, counted from the history's events."""
    return RatingEvent.objects.filter(system_id="adlg", kind=RatingEvent.GAME).exclude(
        opponent_id=SPARE_ID).values("game_id").distinct().count()


def test_the_worker_stores_the_calibration_after_a_replay_each_game_once():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    stored = Calibration.objects.get(system_id="adlg")
    assert stored.games == _rated_pairs() > 0
    assert sum(band[2] for band in stored.bands) == stored.games
    rows = list(calibration_games(RatingSystem.objects.get(code="adlg")))
    assert all(diff >= 0 and p >= 0.5 for diff, p, _, _ in rows) and sum(n for *_, n in rows) == stored.games


def test_with_the_calibration_after_replays_off_a_replay_leaves_it_unbuilt(settings):
    settings.CALIBRATION_AFTER_REPLAY = False
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    assert RatingEvent.objects.exists() and not Calibration.objects.exists()


def test_an_excluded_players_games_leave_the_calibration(django_user_model):
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    before = Calibration.objects.get(system_id="adlg").games
    board = django_user_model.objects.create_user("board-member", is_staff=True)
    cheat = Player.objects.get(pk=101)
    theirs = RatingEvent.objects.filter(player=cheat, kind=RatingEvent.GAME).exclude(opponent_id=SPARE_ID).count()
    assert theirs > 0
    player_exclude(player=cheat, reason="loaded dice", user=board)
    after = Calibration.objects.get(system_id="adlg")
    assert after.games == before - theirs == _rated_pairs()
