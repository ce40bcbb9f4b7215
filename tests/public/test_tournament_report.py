"""A tournament's report, from its published results: on its page and as text to paste, in English and French."""

from __future__ import annotations

from rules import report
from tests import factories
from tests.public.conftest import text
from tournaments.models import Registration, Tournament


def test_upsets_are_the_lower_rated_players_wins_least_likely_first():
    games = [("A", "B", 1000, 1200, 0.28, 1.0, 1), ("C", "D", 1300, 1000, 0.8, 0.0, 2),
             ("E", "F", 1100, 1000, 0.6, 1.0, 1), ("G", "H", 1000, 1000, 0.5, 1.0, 3)]
    found = report.upsets(games)
    assert [(u.winner, u.loser, round(u.chances, 2)) for u in found] == [("D", "C", 0.2), ("A", "B", 0.28)]


def test_moves_list_the_biggest_gains_and_losses():
    gains, losses = report.moves([report.Move("A", 1000, 1035), report.Move("B", 1200, 1180),
                                  report.Move("C", 1000, 1000), report.Move("D", 900, 950)])
    assert [m.name for m in gains] == ["D", "A"] and [m.name for m in losses] == ["B"]


def test_the_tournament_page_and_its_text_tell_the_story(client, db):
    fed = factories.federation(6)
    tid = fed.tournament.id
    Registration.objects.filter(tournament_id=tid).update(army="Romains")
    page = text(client.get(f"/tournaments/{tid}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "The tournament's report" in page and "Podium" in page and "The biggest rating moves" in page
    assert "Romains: 6 players" in page
    plain = client.get(f"/tournaments/{tid}/report.txt", HTTP_ACCEPT_LANGUAGE="fr")
    assert plain["Content-Type"] == "text/plain; charset=utf-8"
    body = plain.content.decode()
    assert "Podium" in body and "Les plus fortes variations de cote" in body and "<" not in body
    assert f"/tournaments/{tid}/" in body


def test_a_tournament_without_results_has_no_report(client, db):
    tournament = factories.tournament("Open à venir", status=Tournament.REGISTERED)
    assert client.get(f"/tournaments/{tournament.id}/report.txt").status_code == 404
