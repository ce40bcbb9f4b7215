"""The home page, the search box and the language switch."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from players.models import Player
from tests import factories as f
from tests.public.conftest import text
from tournaments.models import Tournament


def test_home_shows_top_ten_of_each_system_latest_rated_and_upcoming_tournaments(visitor, federation):
    be_player = f.player("Empereur", "Napoleon")
    f.rating(be_player, system_code="battle-empire", value=1250, games=12)
    f.tournament("Future Open", status=Tournament.REGISTERED, start=date.today() + timedelta(days=20))
    f.tournament("Past announced", status=Tournament.REGISTERED, start=date.today() - timedelta(days=20))
    page = text(visitor.get("/"))
    assert "Top ten — L&#x27;Art de la Guerre" in page or "Top ten — L'Art de la Guerre" in page
    assert "Top ten — Battle Empire" in page and "Empereur" in page and "Division General" in page
    assert federation.tournament.name in page
    assert "Future Open" in page and "Past announced" not in page
    assert 'action="/search/"' in page


def test_home_top_ten_has_ten_players_and_hides_excluded_ones(visitor, db):
    for i in range(12):
        f.rating(f.player(f"Player{i:02d}", "X"), value=1000 + i)
    f.rating(f.player("Cheater", "X", excluded=True), value=2000)
    f.renumber_positions()
    page = text(visitor.get("/"))
    board = page[page.index("Top ten"):page.index("</table>", page.index("Top ten"))]
    assert board.count("/players/") == 10
    assert "Cheater" not in page and "Player11" in board and "Player01" not in board


def test_home_in_french(french_visitor, federation):
    page = text(french_visitor.get("/"))
    assert 'lang="fr"' in page
    assert "Les dix premiers" in page and "Trouver un joueur" in page and "Tournois à venir" in page


def test_language_switch_posts_to_setlang_and_the_next_page_is_french(client, federation):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/ratings/adlg/"})
    assert response.status_code == 302 and response["Location"] == "/ratings/adlg/"
    page = text(client.get("/ratings/adlg/"))
    assert "Télécharger cette liste" in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Download this list" in text(client.get("/ratings/adlg/"))


def test_every_page_has_the_header_nav_and_the_language_switch(visitor, federation):
    for url in ("/", "/ratings/adlg/", "/tournaments/", "/championship/2024/", "/rules/",
                f"/players/{federation.players[0].id}/", f"/tournaments/{federation.tournament.id}/"):
        page = text(visitor.get(url))
        assert "AdlG Federation" in page, url
        for link in ('href="/ratings/"', 'href="/tournaments/"', 'href="/championship/"', 'href="/rules/"'):
            assert link in page, url
        assert 'action="/i18n/setlang/"' in page and 'name="language" value="fr"' in page, url


def test_search_by_exact_id_goes_to_the_player_page(visitor, federation):
    player = federation.players[2]
    response = visitor.get("/search/", {"q": f" {player.id} "})
    assert response.status_code == 302 and response["Location"] == f"/players/{player.id}/"


def test_search_by_name_lists_the_players(visitor, federation):
    page = text(visitor.get("/search/", {"q": "dupont"}))
    assert "Dupont" in page and "Martin" not in page
    assert "1 player matches" in page


def test_search_by_first_and_last_name_words(visitor, db):
    f.player("Dupont", "Jean")
    f.player("Dupont", "Marie")
    page = text(visitor.get("/search/", {"q": "marie dup"}))
    assert "Marie" in page and "Jean" not in page


def test_search_never_finds_excluded_merged_or_spare_players(visitor, db):
    kept = f.player("Visible", "V")
    excluded = f.player("Hidden", "Excluded", excluded=True)
    f.player("Hidden", "Merged", merged_into=kept)
    page = text(visitor.get("/search/", {"q": "hidden"}))
    assert "No player matches" in page
    assert visitor.get("/search/", {"q": str(excluded.id)}).status_code == 200
    assert "Spare" not in text(visitor.get("/search/", {"q": "99"}))


def test_search_without_a_query_shows_the_form(visitor, db):
    response = visitor.get("/search/")
    assert response.status_code == 200 and 'id="search-q"' in text(response)


def test_search_in_french(french_visitor, db):
    f.player("Dupont", "Jean")
    assert "1 joueur correspond à «\u00a0dup\u00a0»." in text(french_visitor.get("/search/", {"q": "dup"}))


@pytest.mark.parametrize("size", [3, 30])
def test_home_and_search_take_the_same_queries_whatever_the_size(visitor, db, django_assert_num_queries, size):
    players = [f.player(f"Dupont{i}", "X") for i in range(size + size % 2)]
    f.rated_tournament(players, rounds=1)
    for i in range(size):
        f.tournament(f"Future {i}", status=Tournament.REGISTERED, start=date.today() + timedelta(days=i + 1))
    # systems, one top ten per system (two systems), latest rated, upcoming, running live now
    with django_assert_num_queries(7):  # with the rating counts of the one system played
        assert visitor.get("/").status_code == 200
    # count, page (a name is not looked up as an ID)
    with django_assert_num_queries(2):
        assert visitor.get("/search/", {"q": "dupont"}).status_code == 200
    assert Player.objects.count() > size
