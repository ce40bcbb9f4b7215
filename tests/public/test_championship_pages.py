"""The championship of a year: overall, national (five registered players at least) and international."""

from __future__ import annotations

from datetime import date

import pytest

from championship.models import ChampionshipTotal
from tests import factories as f
from tests.public.conftest import text


@pytest.fixture
def season(db):
    """Five French players, two Belgians; two French tournaments and one Belgian one in 2024."""
    french = [f.player(f"Francais{i}", "F", country_code="FR") for i in range(5)]
    belgians = [f.player(f"Belge{i}", "B", country_code="BE") for i in range(2)]
    f.rated_tournament(french[:4], name="Open de Paris", start=date(2024, 3, 2))
    f.rated_tournament(french[2:] + belgians[:1], name="Open de Lyon", start=date(2024, 4, 6), rounds=2)
    f.rated_tournament([french[0], belgians[0], belgians[1], french[4]], name="Brussels Open", start=date(2024, 5, 4),
                       country_code="BE", city="Brussels")
    f.championship_totals(2024)
    return {"french": french, "belgians": belgians}


def test_championship_index_redirects_to_the_latest_year(visitor, season):
    response = visitor.get("/championship/")
    assert response.status_code == 302 and response["Location"] == "/championship/2024/"


def test_championship_index_without_results_says_so(visitor, db):
    assert "No championship result yet" in text(visitor.get("/championship/"))


def test_championship_overall_lists_totals_with_their_counted_results(visitor, season):
    page = text(visitor.get("/championship/2024/"))
    best = ChampionshipTotal.objects.filter(year=2024).order_by("rank").first()
    assert best.player.full_name in page
    assert f"{best.total:.2f}" in page
    assert "Open de Paris" in page and "Brussels Open" in page
    table = page[page.index('class="championship"'):]
    assert table.count("<tr>") == ChampionshipTotal.objects.filter(year=2024).count() + 1


def test_championship_national_ranking_of_a_country_with_five_players(visitor, season):
    page = text(visitor.get("/championship/2024/countries/FR/"))
    assert "Championship 2024 — France" in page
    assert "Francais0" in page and "Belge0" not in page
    assert 'id="no-national-ranking"' not in page


def test_championship_national_ranking_needs_five_registered_players(visitor, season):
    page = text(visitor.get("/championship/2024/countries/BE/"))
    assert 'id="no-national-ranking"' in page
    assert "No national ranking for Belgium" in page
    assert "Belge0" not in page


def test_championship_national_ranking_ignores_excluded_players_in_the_count(visitor, season):
    f.player("Excluded", "E", country_code="BE", excluded=True)
    f.player("Excluded2", "E", country_code="BE", excluded=True)
    f.player("Excluded3", "E", country_code="BE", excluded=True)
    assert 'id="no-national-ranking"' in text(visitor.get("/championship/2024/countries/BE/"))


def test_championship_international_ranking(visitor, season):
    page = text(visitor.get("/championship/2024/international/"))
    assert "International championship 2024" in page
    international = ChampionshipTotal.objects.filter(year=2024, international=True)
    assert international.exists()
    for total in ChampionshipTotal.objects.filter(year=2024):
        assert (total.player.last_name in page) == total.international


def test_championship_hides_excluded_players(visitor, season):
    excluded = season["french"][0]
    excluded.excluded_at = "2024-12-01T00:00:00Z"
    excluded.save()
    assert "Francais0" not in text(visitor.get("/championship/2024/"))


def test_championship_of_an_unknown_country_is_404(visitor, season):
    assert visitor.get("/championship/2024/countries/QQ/").status_code == 404


def test_championship_in_french(french_visitor, season):
    page = text(french_visitor.get("/championship/2024/countries/BE/"))
    assert "Pas de classement national pour Belgique" in page
    assert "Championnat 2024" in page


@pytest.mark.parametrize("size", [6, 30])  # a national ranking needs five players
def test_championship_pages_take_the_same_queries_whatever_the_size(visitor, db, django_assert_num_queries, size):
    players = [f.player(f"P{i}", "X", country_code="FR") for i in range(size)]
    f.rated_tournament(players, rounds=1)
    f.championship_totals(2024)
    # years, eligible countries, page count, page, counted results, countries of the year
    with django_assert_num_queries(6):
        assert visitor.get("/championship/2024/").status_code == 200
    with django_assert_num_queries(7):  # and the country itself
        assert visitor.get("/championship/2024/countries/FR/").status_code == 200
