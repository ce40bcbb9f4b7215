"""Each player's chances on the tournament day: the public round page and the private link, in words and in both
languages, by the rating rule from the ratings at the start; gone once the table's result is in."""

from __future__ import annotations

import pytest

from rules.predictions import chances, percent
from rules.rulesets import get_ruleset
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.links import entrant_link_path
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    players = federation_players(4)
    live = live_tournament(players, players_enter_results=True)
    round_publish(round_pair(live, seed=1))
    return LiveTable.objects.select_related("a", "b", "round__live").filter(round__live=live).order_by(
        "table").first()


def _expected(table) -> tuple[int, int]:
    p = chances(get_ruleset("adlg-2018"), table.a.rating, table.b.rating)
    return percent(p), percent(1 - p)


def test_the_private_link_says_the_players_chances_in_words(client, table):
    a, b = _expected(table)
    assert a != b
    page = client.get(entrant_link_path(table.a), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Your chances: {a}\u00a0%" in page
    favourite = "favourite" if a > 50 else "underdog"
    assert favourite in page.split(f"Your chances: {a}\u00a0%")[1][:80]
    page = client.get(entrant_link_path(table.b), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Vos chances\u00a0: {b}\u00a0%" in page


def test_the_public_round_page_shows_each_tables_chances_until_its_result(client, table):
    a, b = _expected(table)
    tid = table.round.live.tournament_id
    page = client.get(f"/tournaments/{tid}/live/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"chances {a}\u00a0% – {b}\u00a0%" in page
    assert "How well the ratings predict" in page
    page = client.get(f"/tournaments/{tid}/live/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"chances {a}\u00a0% – {b}\u00a0%" in page and "favori" in page
    results_record(table.round.live, 1, [Result(table.table, "A", 10, 60)])
    page = client.get(f"/tournaments/{tid}/live/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"chances {a}\u00a0% – {b}\u00a0%" not in page
