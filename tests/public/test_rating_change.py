"""The rating list's change column: each player's rating change in their last rated tournament, as FIDE's and
chess-results' lists show it, read in one query for the page."""

from __future__ import annotations

from datetime import date

import pytest

from ratings.models import RatingEvent
from ratings.rating_list import last_tournament_changes
from tests.public.conftest import text
from tests.ratings.helpers import imported, roster, sheet

pytestmark = pytest.mark.django_db(transaction=True)


def _expected(player_id: int) -> int:
    """The change over the player's last tournament, from their events, worked out the slow way."""
    events = list(RatingEvent.objects.filter(system_id="adlg", player_id=player_id, kind=RatingEvent.GAME)
                  .order_by("seq"))
    last = [e for e in events if e.tournament_id == events[-1].tournament_id]
    return last[-1].rating_after - last[0].rating_before


def test_the_change_is_that_of_the_last_tournament_only():
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    imported(sheet(name="Summer Clash", start=date(2024, 6, 15)))
    players = sorted(set(RatingEvent.objects.values_list("player_id", flat=True)))
    changes = last_tournament_changes(system="adlg", player_ids=players)
    assert changes == {p: _expected(p) for p in players}
    summer = {e.player_id for e in RatingEvent.objects.filter(tournament__name="Summer Clash")}
    spring_total = {p: sum(e.change for e in RatingEvent.objects.filter(player_id=p)) for p in players}
    assert any(changes[p] != spring_total[p] for p in summer)  # not the change since the first tournament


def test_a_player_without_a_rated_tournament_has_no_change():
    roster()
    assert last_tournament_changes(system="adlg", player_ids=[101, 102]) == {}


def test_the_rating_list_shows_the_change_beside_the_rating_and_explains_it(client):
    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    page = text(client.get("/ratings/adlg/"))
    assert "Last tournament" in page
    assert "how much the rating changed in the player's last rated tournament" in page
    shown = [c for c in last_tournament_changes(system="adlg", player_ids=[101, 104]).values()]
    for change in shown:
        assert (f"+{change}" if change > 0 else f"−{abs(change)}" if change < 0 else ">0<") in page
