"""The official lists on the pages and in the API: which figures each shows, the lists, their downloads and the
changes between two; a tournament's list in force; the board's hand issue."""

import json
from datetime import date

import pytest

from players.models import AuditEntry
from ratings.models import OfficialList, PlayerRating, RatingSystem
from ratings.official_lists import list_issue
from tests.public.conftest import text


@pytest.fixture
def listed(federation):
    """The federation's ratings issued as list no. 1 dated 1 April 2024, then a live change of the first player."""
    official = list_issue(system=RatingSystem.objects.get(code="adlg"), on=date(2024, 4, 1))
    first = federation.players[0]
    PlayerRating.objects.filter(player=first, system_id="adlg").update(rating=1777)
    return official


def test_the_rating_list_says_it_shows_live_ratings_and_offers_the_official_list(visitor, listed, federation):
    page = text(visitor.get("/ratings/adlg/"))
    assert "Shown: live ratings, after the last tournament rated" in page
    assert federation.tournament.name in page
    assert "Official list no. 1 of" in page and "/ratings/adlg/lists/1/" in page


def test_the_rating_list_says_so_in_french(french_visitor, listed):
    page = text(french_visitor.get("/ratings/adlg/"))
    assert "Affiché\u00a0: cotes en direct, après le dernier tournoi intégré" in page
    assert "Liste officielle n°\u00a01 du" in page


def test_the_lists_page_lists_each_with_its_downloads(visitor, listed):
    page = text(visitor.get("/ratings/adlg/lists/"))
    assert "/ratings/adlg/lists/1.csv" in page and "/ratings/adlg/lists/1.json" in page
    assert "monthly, by the site" in page  # issued by no account: the worker's
    assert visitor.get("/ratings/adlg/lists/9/").status_code == 404
    assert visitor.get("/ratings/nope/lists/").status_code == 404


def test_an_official_list_page_shows_its_frozen_figures(visitor, listed, federation):
    page = text(visitor.get("/ratings/adlg/lists/1/"))
    assert "Shown: official list no. 1 of" in page
    assert "1777" not in page  # the live change came after the list
    assert federation.players[0].last_name in page


def test_the_downloads_are_the_same_bytes_in_either_language(visitor, listed):
    english = visitor.get("/ratings/adlg/lists/1.csv").content
    assert english == visitor.get("/ratings/adlg/lists/1.csv", HTTP_ACCEPT_LANGUAGE="fr").content
    assert english.decode().splitlines()[0] == "position,id,last_name,first_name,country,club,rating,rank,games," \
                                               "last_played"
    document = json.loads(visitor.get("/ratings/adlg/lists/1.json").content)
    assert (document["number"], document["date"], len(document["rows"])) == (1, "2024-04-01", listed.players)
    assert visitor.get("/ratings/adlg/lists/1.json").content == visitor.get(
        "/ratings/adlg/lists/1.json", HTTP_ACCEPT_LANGUAGE="fr").content


def test_the_changes_page_names_who_moved_and_by_how_much(visitor, listed, federation):
    second = list_issue(system=RatingSystem.objects.get(code="adlg"), on=date(2024, 5, 1))
    assert second.number == 2
    page = text(visitor.get("/ratings/adlg/lists/2/changes/"))
    assert federation.players[0].last_name in page and "1777" in page
    assert visitor.get("/ratings/adlg/lists/1/changes/").status_code == 404  # the first has none before it
    assert visitor.get("/ratings/adlg/lists/2/changes/?since=7").status_code == 404


def test_the_player_page_shows_both_figures_when_they_differ(visitor, listed, federation):
    first, second = federation.players[0], federation.players[1]
    page = text(visitor.get(f"/players/{first.id}/"))
    assert "Shown: live figures, after the last tournament rated." in page
    assert "Official list no. 1 of" in page and "1777" in page
    same = text(visitor.get(f"/players/{second.id}/"))
    assert "They are those of the official list no. 1 of" in same
    french = text(visitor.get(f"/players/{first.id}/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Affiché\u00a0: chiffres en direct" in french and "Liste officielle n°\u00a01 du" in french


def test_a_tournament_shows_the_list_in_force_on_its_first_day(visitor, federation):
    adlg = RatingSystem.objects.get(code="adlg")
    list_issue(system=adlg, on=date(2024, 3, 1))
    list_issue(system=adlg, on=date(2024, 4, 1))
    page = text(visitor.get(f"/tournaments/{federation.tournament.id}/"))  # first day 9 March 2024
    assert "Official list in force on its first day:" in page and "/ratings/adlg/lists/1/" in page


def test_the_api_reads_an_official_list_by_number_or_date(visitor, listed, federation):
    live = visitor.get("/api/players/", {"system": "adlg"})
    assert live["X-Ratings-Shown"] == "live"
    assert visitor.get(f"/api/players/{federation.players[0].id}/")["X-Ratings-Shown"] == "live"
    by_number = visitor.get("/api/players/", {"system": "adlg", "list": 1})
    assert by_number.status_code == 200 and by_number["X-Ratings-Shown"] == "official-list 1 2024-04-01"
    rows = by_number.json()["results"]
    assert rows[0]["list"] == 1 and rows[0]["list_date"] == "2024-04-01"
    assert 1777 not in [row["rating"] for row in rows]
    assert set(rows[0]) >= set(live.json()["results"][0])  # the live rows' fields, and the list's
    by_date = visitor.get("/api/players/", {"as_of": "2024-04-20", "country": "FR"})
    assert by_date.status_code == 200 and by_date.json()["results"]
    assert all(row["country"] == "FR" for row in by_date.json()["results"])
    assert visitor.get("/api/players/", {"as_of": "2024-03-01"}).status_code == 404
    assert visitor.get("/api/players/", {"list": "x"}).status_code == 400
    assert visitor.get("/api/players/", {"as_of": "someday"}).status_code == 400
    lists = visitor.get("/api/systems/adlg/lists/").json()
    assert [(entry["number"], entry["date"], entry["by_hand"]) for entry in lists] == [(1, "2024-04-01", False)]
    assert visitor.get("/api/systems/nope/lists/").status_code == 404


def test_the_board_issues_a_list_by_hand_and_it_is_audited(client, board, federation):
    client.force_login(board)
    assert client.get("/board/official-lists/").status_code == 200
    response = client.post("/board/official-lists/", {"system": "adlg", "on": date.today().isoformat(),
                                                      "confirm": "on"})
    assert response.status_code == 302
    official = OfficialList.objects.get()
    assert official.issued_by == board
    assert AuditEntry.objects.filter(action="official_list_issue").count() == 1
    refused = client.post("/board/official-lists/", {"system": "adlg", "on": "2020-01-01", "confirm": "on"})
    assert refused.status_code == 200 and OfficialList.objects.count() == 1
    assert "cannot be before the last list" in text(refused)


def test_only_the_board_issues_a_list(client, player_user, federation):
    client.force_login(player_user)
    assert client.post("/board/official-lists/", {"system": "adlg", "on": date.today().isoformat(),
                                                  "confirm": "on"}).status_code in (302, 403)
    assert not OfficialList.objects.exists()
