"""Each player's chances on the tournament day: the public round page and the private link, in words and in both
languages, by the rating rule from the ratings at the start; gone once the table's result is in; on the big screen
when the referee says so."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from players.models import AuditEntry
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


def test_the_big_screen_shows_the_chances_only_when_the_referee_says_so(client, table, referee):
    live = table.round.live
    live.tournament.referees.add(referee)
    a, _b = _expected(table)
    screen = reverse("live_screen_now", args=[live.tournament_id])
    assert "screen-chances" not in client.get(screen).content.decode()
    client.force_login(referee)
    run = client.get(reverse("referee:live_run", args=[live.tournament_id])).content.decode()
    assert "The big screen shows each player" in run
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                             run.split("screen-chances/")[1].split("</form>")[0]))
    response = client.post(reverse("referee:live_screen_chances", args=[live.tournament_id]),
                           {**fields, "screen_chances": "on"})
    assert response.status_code == 302
    client.logout()
    html = client.get(screen).content.decode()
    assert f'<span class="screen-chances">{a}\u00a0%</span>' in html
    assert AuditEntry.objects.filter(action="live_screen_chances").count() == 1
