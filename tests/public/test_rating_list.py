"""The rating list of a system: columns, filters, sorts, pagination, downloads, hidden players, query counts."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from players.models import Player
from ratings.rating_list import rank_rating_bounds
from rules.ranks import rank_for
from rules.rulesets import RULESETS
from tests import factories as f
from tests.public.conftest import text

URL = "/ratings/adlg/"


def rated(last_name, value, *, games=20, country="FR", club=None, last_played=None, **kwargs):
    player = f.player(last_name, "Test", country_code=country, club=club, **kwargs)
    f.rating(player, value=value, games=games, last_played=last_played)
    return player


@pytest.fixture
def hidden_players(db):
    """One of each kind of player that must never be listed, all rated higher than anyone else."""
    shown = rated("Visible", 1000)
    excluded = rated("Excluded", 1900, excluded=True)
    merged = rated("Duplicate", 1800, merged_into=shown)
    spare = Player.objects.get(pk=99)
    f.rating(spare, value=1700)
    f.renumber_positions()
    return {"shown": shown, "excluded": excluded, "merged": merged, "spare": spare}


def test_ratings_index_redirects_to_the_first_system(visitor, db):
    response = visitor.get("/ratings/")
    assert response.status_code == 302
    assert response["Location"] == reverse("rating_list", args=["adlg"])


def test_rating_list_shows_every_column(visitor, db):
    club = f.club("Les Aigles", "FR")
    player = rated("Dupont", 1234, games=42, club=club, last_played=date(2024, 5, 1))
    f.renumber_positions()
    response = visitor.get(URL)
    assert response.status_code == 200
    page = text(response)
    for value in ("Dupont", "Les Aigles", "FR", "1234", "Champion", "42", str(player.id), 'class="num">1<'):
        assert value in page
    assert "<abbr title=\"Rated games played\">" in page  # every number explained


def test_rating_list_hides_excluded_merged_and_spare_players(visitor, hidden_players):
    page = text(visitor.get(URL))
    assert "Visible" in page
    for name in ("Excluded", "Duplicate", "Spare"):
        assert name not in page
    assert "1 player" in page


def test_rating_list_hides_an_excluded_player_even_without_a_retired_id(visitor, db):
    # The list counts hidden players through retired IDs; the rows shown are checked on the player itself.
    rated("Visible", 1000)
    sneaky = rated("Sneaky", 1500)
    Player.objects.filter(pk=sneaky.pk).update(excluded_at="2024-01-01T00:00:00Z")
    assert "Sneaky" not in text(visitor.get(URL))


def test_rating_list_is_best_first_with_ties_by_lower_id(visitor, db):
    first = rated("Alpha", 1100)
    second = rated("Beta", 1100)
    third = rated("Gamma", 1300, games=30)
    page = text(visitor.get(URL))
    assert page.index("Gamma") < page.index("Alpha") < page.index("Beta")
    assert first.id < second.id and third


def test_rating_list_filters_by_country_club_rank_and_activity(visitor, db):
    eagles = f.club("Les Aigles", "FR")
    rated("French", 1000, country="FR", club=eagles, last_played=date.today() - timedelta(days=30))
    rated("Belgian", 1150, country="BE", last_played=date.today() - timedelta(days=800))
    rated("Italian", 800, country="IT")
    assert "Belgian" not in text(visitor.get(URL, {"country": "FR"}))
    assert "French" in text(visitor.get(URL, {"country": "FR"}))
    assert "Italian" not in text(visitor.get(URL, {"club": eagles.pk}))
    by_rank = text(visitor.get(URL, {"rank": "knight"}))
    assert "Belgian" in by_rank and "French" not in by_rank
    active = text(visitor.get(URL, {"active": "on"}))
    assert "French" in active and "Belgian" not in active and "Italian" not in active


def test_rating_list_searches_names_and_ids(visitor, db):
    rated("Dupont", 1000)
    other = rated("Martin", 1000)
    assert "Martin" not in text(visitor.get(URL, {"q": "dup"}))
    assert "Martin" in text(visitor.get(URL, {"q": str(other.id)}))


@pytest.mark.parametrize(("sort", "order"), [
    ("rating", ["Strong", "Middle", "Weak"]),
    ("name", ["Middle", "Strong", "Weak"]),
    ("games", ["Weak", "Middle", "Strong"]),
    ("last_played", ["Middle", "Weak", "Strong"]),
])
def test_rating_list_sorts(visitor, db, sort, order):
    rated("Strong", 1300, games=12, last_played=date(2020, 1, 1))
    rated("Middle", 1100, games=20, last_played=date(2024, 1, 1))
    rated("Weak", 900, games=50, last_played=date(2022, 1, 1))
    page = text(visitor.get(URL, {"sort": sort}))
    positions = [page.index(name) for name in order]
    assert positions == sorted(positions)


def test_rating_list_paginates_in_pages_of_fifty(visitor, db):
    for i in range(55):
        rated(f"Player{i:02d}", 1000 + i)
    first, second = text(visitor.get(URL)), text(visitor.get(URL, {"page": 2}))
    assert "Player54" in first and "Player00" not in first
    assert "Player00" in second and "Player54" not in second
    assert "page 2 of 2" in second
    assert visitor.get(URL, {"page": 99}).status_code == 200  # a page past the end shows the last one


@pytest.mark.parametrize("keys_limit", [10000, 7])  # a search reads all its keys, or pages like a filter
def test_rating_list_pages_match_a_plain_ordering_with_ties_and_hidden_players(db, monkeypatch, keys_limit):
    # The whole list is counted and its pages sought through the per-rating counts, a filtered one on the
    # rating rows' copy of the players' country: every page of every sort, with and without a filter, must be
    # exactly the plain ordering's slice.
    import random

    from ratings import rating_list as module
    from ratings.models import PlayerRating
    from ratings.rating_list import RatingListPaginator, rating_list

    monkeypatch.setattr(module, "SEARCH_KEYS_LIMIT", keys_limit)
    rng = random.Random(5)
    for i in range(130):
        excluded = i % 17 == 0
        rated(f"P{i:03d}", rng.choice([900, 1000, 1000, 1100, 1250]), games=rng.randint(1, 40),
              country=rng.choice(["FR", "BE"]), excluded=excluded,
              last_played=date(2024, 1, 1) + timedelta(days=rng.randint(0, 400)))
    f.renumber_positions()
    shown = list(PlayerRating.objects.filter(player__excluded_at__isnull=True).exclude(player_id=99)
                 .select_related("player"))
    keys = {
        "rating": lambda r: (-r.rating, r.player_id),
        "games": lambda r: (-r.games, -r.rating, r.player_id),
        "last_played": lambda r: (-r.last_played.toordinal(), -r.rating, r.player_id),
        "name": lambda r: (r.player.last_name, r.player.first_name, r.player_id),
    }
    for sort, key in keys.items():
        for country, search in ((None, None), ("BE", None), (None, "P1"), ("BE", "P0")):
            expected = sorted((r for r in shown if (country is None or r.player.country_id == country)
                               and (search is None or search in r.player.last_name)), key=key)
            listing = rating_list(system="adlg", sort=sort, country=country, search=search)
            for number in range(1, 6):
                page = RatingListPaginator(listing, 20).get_page(number)
                wanted = expected[(page.number - 1) * 20:page.number * 20]
                got = list(page.object_list)
                assert got == [r.player_id if listing.by_player else r.pk for r in wanted], (sort, country, number)
                assert page.paginator.count == len(expected)


def test_rating_list_ignores_an_invalid_filter_and_says_so(visitor, db):
    rated("Dupont", 1000)
    response = visitor.get(URL, {"country": "ZZ", "rank": "emperor", "sort": "luck", "club": "x"})
    assert response.status_code == 200
    assert "Dupont" in text(response)
    assert "errorlist" in text(response)


def test_rating_list_of_an_unknown_system_is_404(visitor, db):
    assert visitor.get("/ratings/chess/").status_code == 404


def test_rating_list_in_french_names_ranks_in_french(french_visitor, db):
    rated("Dupont", 1150)
    page = text(french_visitor.get(URL))
    assert "Chevalier" in page and "Knight" not in page
    assert "Liste Elo" in page and "Télécharger cette liste" in page


def test_rating_list_csv_has_the_filtered_list(visitor, hidden_players):
    rated("Belgian", 1200, country="BE")
    response = visitor.get("/ratings/adlg/ratings.csv", {"country": "FR"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:3] == ["position", "ID", "last name"]
    assert [row[2] for row in rows[1:]] == ["Visible"]


def test_rating_list_excel_has_the_filtered_list(visitor, hidden_players):
    rated("Belgian", 1200, country="BE")
    response = visitor.get("/ratings/adlg/ratings.xlsx", {"sort": "name"})
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    names = [row[2] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert names == ["Belgian", "Visible"]


def test_rating_list_csv_in_french_has_french_headers_and_ranks(french_visitor, db):
    rated("Dupont", 1150)
    content = b"".join(french_visitor.get("/ratings/adlg/ratings.csv").streaming_content).decode()
    assert content.splitlines()[0].startswith("position;ID;nom;prénom")  # a French spreadsheet splits on ;
    row = next(r for r in csv.reader(io.StringIO(content), delimiter=";") if "Dupont" in r)
    assert "Chevalier" in row and "1150" in row


def test_rating_list_csv_in_english_is_comma_separated(visitor, db):
    rated("Dupont", 1150)
    content = b"".join(visitor.get("/ratings/adlg/ratings.csv").streaming_content).decode()
    assert content.splitlines()[0].startswith("position,ID,last name,first name")
    row = next(r for r in csv.reader(io.StringIO(content)) if "Dupont" in r)
    assert "Knight" in row and "1150" in row


@pytest.mark.parametrize("size", [3, 30])
def test_rating_list_takes_the_same_queries_whatever_its_size(visitor, db, django_assert_num_queries, size):
    clubs = [f.club(f"Club {i}", "FR") for i in range(size)]
    for i in range(size):
        rated(f"Player{i}", 900 + i, club=clubs[i], excluded=(i == 0))
    f.renumber_positions()
    # systems, countries and clubs offered (then cached), hidden IDs, rating counts, count, page keys, page rows,
    # the page's last-tournament changes, the official list offered and the last tournament rated
    with django_assert_num_queries(11):
        assert visitor.get(URL, {"country": "FR", "sort": "rating"}).status_code == 200
    # the whole list is counted from the rating counts, less the hidden players' rows (and, as above, the official
    # list offered and the last tournament rated: two queries)
    with django_assert_num_queries(9):
        assert visitor.get(URL, {"sort": "name", "page": 1}).status_code == 200
    with django_assert_num_queries(9):
        assert visitor.get(URL, {"page": 1}).status_code == 200
    with django_assert_num_queries(8):  # a search: its keys, in order, and so its count, in one query
        assert visitor.get(URL, {"q": "Player"}).status_code == 200


def test_rating_list_offers_a_new_club_at_once(visitor, db):
    rated("Dupont", 1000, club=f.club("Les Aigles", "FR"))
    assert "Les Aigles" in text(visitor.get(URL))  # the filters offered are now cached
    rated("Martin", 1000, country="BE", club=f.club("Lions de Gand", "BE"))
    page = text(visitor.get(URL))
    assert "Lions de Gand" in page and "Belgium" in page


@pytest.mark.parametrize("code", sorted(RULESETS))
def test_rank_rating_bounds_hold_every_holder_of_the_rank(code):
    # The rating list narrows a rank filter to these bounds: they must never leave a holder out.
    ruleset = RULESETS[code]
    for rating in range(0, 3001, 7):
        for games in (0, 5, 9, 10, 15, 19, 20, 25, 29, 30, 60):
            rank = rank_for(ruleset, rating, games)
            low, high = rank_rating_bounds(ruleset, rank.code)
            assert (low is None or rating >= low) and (high is None or rating < high), (rank.code, rating, games)


def test_rating_list_filters_the_unproven_rank(visitor, db):
    rated("Seneschal", 1350, games=5)
    rated("Master", 1350, games=15)
    page = text(visitor.get(URL, {"rank": "seneschal"}))
    assert "Seneschal, Test" in page and "Master, Test" not in page


def test_the_rating_row_follows_its_players_country_and_club_whatever_changes_them(db):
    # The list filters on the rating row's copy (database triggers): every way a player changes must reach it.
    from ratings.models import PlayerRating

    aigles, lions = f.club("Les Aigles", "FR"), f.club("Lions", "BE")
    player = rated("Moving", 1000, country="FR", club=aigles)

    def copy():
        return PlayerRating.objects.values_list("country_id", "club_id").get(player=player)

    assert copy() == ("FR", aigles.pk)  # on insert
    player.country_id, player.club = "BE", lions
    player.save()
    assert copy() == ("BE", lions.pk)  # a save
    Player.objects.filter(pk=player.pk).update(club=aigles)
    assert copy() == ("BE", aigles.pk)  # a queryset update
    player.refresh_from_db()
    player.country_id = "IT"
    Player.objects.bulk_update([player], ["country"])
    assert copy() == ("IT", aigles.pk)  # a bulk update (sheet imports)
    aigles.delete()
    assert copy() == ("IT", None)  # the club deleted: its players have none


@pytest.mark.django_db(transaction=True)
def test_a_country_new_to_the_list_through_a_sheet_is_offered_as_a_filter_at_once():
    from ratings.selectors import filter_choices
    from tests.ratings.helpers import imported, roster
    from tests.sheets.builders import SheetBuilder

    roster()
    assert "BE" not in dict(filter_choices("en")["country"])  # cached from here on
    builder = SheetBuilder.valid()
    for row in builder.players:
        if row[0] == "N2":
            row[3] = None  # a Belgian newcomer without a club: the sheet creates no club, only the player
    imported(builder.build())
    assert "BE" in dict(filter_choices("en")["country"])
