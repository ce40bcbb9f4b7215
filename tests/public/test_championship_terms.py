"""A championship result shows the terms of its formula (why a 9th can earn more than an 8th), and they add up to
the points the replay stored."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest

from championship.models import ChampionshipResult
from rules.championship import championship_terms, round_points, tournament_points
from tests.ratings.helpers import imported, roster, sheet


@pytest.mark.parametrize("players,rounds,rank,score,games,worlds", [
    (32, 5, 9, 320, 5, False), (10, 3, 8, 200, 3, False), (20, 3, 1, 290, 3, False), (40, 6, 5, 400, 6, True),
    (70, 3, 70, 10, 2, False), (8, 3, 3, 150, 0, False),
])
def test_the_terms_add_up_to_the_formula(players, rounds, rank, score, games, worlds):
    terms = championship_terms(players=players, rounds=rounds, rank=rank, score=score, games=games, worlds=worlds)
    total = tournament_points(players=players, rounds=rounds, rank=rank, score=score, games=games, worlds=worlds)
    assert terms.placing + terms.scoring == pytest.approx(total)
    assert terms.points == round_points(total)
    assert terms.n == min(players, 2 ** (rounds + 1)) and terms.placing >= 0
    assert terms.s == pytest.approx(score * (1.2 if worlds else 1))


def test_a_ninth_of_a_large_tournament_earns_more_than_an_eighth_of_a_small_one():
    ninth = championship_terms(players=32, rounds=5, rank=9, score=320, games=5)
    eighth = championship_terms(players=10, rounds=3, rank=8, score=200, games=3)
    assert ninth.points > eighth.points


@pytest.mark.django_db(transaction=True)
def test_the_player_and_tournament_pages_show_terms_that_make_the_stored_points(client):
    roster()
    outcome = imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    results = list(ChampionshipResult.objects.filter(tournament_id=outcome.tournament_id))
    assert results
    for result in results:
        page = client.get(f"/players/{result.player_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        section = page[page.index('class="championship-results"'):]
        row = section[:section.index("</tr>", section.index("<tbody>"))]
        cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S)
        rank_of_n, placing, s_over_t, scoring, points = cells[1], cells[2], cells[3], cells[4], cells[5]
        assert re.fullmatch(r"\d+ / \d+", rank_of_n.strip()) and re.fullmatch(r"[\d.]+ / \d+", s_over_t.strip())
        assert abs(Decimal(placing) + Decimal(scoring) - result.points) <= Decimal("0.01")
        assert f"<strong>{result.points}</strong>" in points
    page = client.get(f"/tournaments/{outcome.tournament_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = re.findall(r'<strong>([\d.]+)</strong><br><abbr class="terms" title="[^"]*">([\d.]+) \+ ([\d.]+)</abbr>',
                       page)
    assert len(shown) == len(results)
    for points, placing, scoring in shown:
        assert abs(Decimal(placing) + Decimal(scoring) - Decimal(points)) <= Decimal("0.01")
