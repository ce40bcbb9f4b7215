"""Finding people (a player not found by name was added again as new: a duplicate record): one name search, accents and
case aside, everywhere a name is searched (the public search, the rating list and its API, the admin, the referee's
player search, the live page's "find your table"), on SQLite and on PostgreSQL; and no search box answers 500 to what
can be typed in it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from adlg_site.inputs import whole_number
from players.models import Player
from players.selectors import club_named, player_search, players_like
from rules.names import fold_name, name_key, search_words
from tests import factories as f
from tests.live.helpers import live_tournament
from tournaments.live.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db

HOSTILE = ["²", "\x00", "a\x00b", "x" * 10_000, "9" * 10_000, "%", "_", "' OR 1=1 --", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\u202e", "  "]


@pytest.fixture
def people():
    club = f.club("Les Dragons de Saint-Étienne")
    made = [f.player("Dupont", "Benoît", id=55, club=club), f.player("Álvarez", "Stéphane", id=56),
            f.player("Øster", "Łukasz", id=57), f.player("Martin", "Zoé", id=58)]
    for n, player in enumerate(made):
        f.rating(player, value=1100 - n)
    f.renumber_positions()
    return made


def _ids(players) -> list[int]:
    return sorted(p.pk for p in players)


def test_the_fold_is_plain_ascii_lower_case_for_latin_letters():
    assert fold_name("Benoît ÁLVAREZ Stéphane Øster Łukasz Şerban Ștefan Groß Œuvre O’Brien") == \
        "benoit alvarez stephane oster lukasz serban stefan gross oeuvre o'brien"
    assert name_key("  Saint-ÉTIENNE  ") == "saint-etienne"
    assert search_words("a\x00b  ² " + "x" * 100) == ["a", "b", "²", "x" * 40]
    ids = [whole_number(q, minimum=1) for q in ("55", " 55 ", "²", "٣", "0", "9" * 10, "5.9")]
    assert ids == [55, 55, None, None, None, None, None]


@pytest.mark.parametrize(("query", "expected"), [
    ("Benoit", [55]), ("benoît", [55]), ("BENOIT dupont", [55]), ("alvarez", [56]), ("stephane", [56]),
    ("STÉPHANE ÁLVAREZ", [56]), ("oster", [57]), ("lukasz", [57]), ("zoe", [58]), ("55", [55]),
    ("benoit martin", []),
])
def test_a_name_is_found_whatever_its_accents_and_case(people, query, expected):
    assert _ids(player_search(query=query)) == expected


def test_the_folded_name_follows_every_write_of_the_names(people):
    benoit = people[0]
    benoit.first_name = "Benoît-René"
    benoit.save(update_fields=["first_name"])
    assert Player.objects.get(pk=55).search_name == "benoit-rene dupont"
    Player.objects.bulk_create([Player(id=60, last_name="Ñúñez", first_name="Íñigo")])
    assert _ids(player_search(query="inigo nunez")) == [60]
    nunez = Player.objects.get(pk=60)
    nunez.last_name = "Núñez-Pérez"
    Player.objects.bulk_update([nunez], ["last_name"])
    assert _ids(player_search(query="perez")) == [60]
    with pytest.raises(TypeError):
        Player.objects.filter(pk=60).update(last_name="Other")


def test_the_public_search_finds_benoit_for_benoit_with_a_circumflex(client, people):
    response = client.get("/search/", {"q": "benoit"})
    assert response.status_code == 302 or "Dupont" in response.content.decode()
    page = client.get("/search/", {"q": "stephane"}).content.decode()
    assert "Álvarez" in page


def test_the_rating_list_and_its_api_search_ignore_accents(client, people):
    page = client.get(reverse("rating_list", args=["adlg"]), {"q": "alvarez"}).content.decode()
    assert "Álvarez" in page and "Dupont" not in page
    api = client.get("/api/players/", {"search": "lukasz"}).json()
    assert [row["player"]["id"] if isinstance(row.get("player"), dict) else row.get("id")
            for row in api["results"]] == [57]


def test_the_admins_player_search_ignores_accents(client, board, people):
    client.force_login(board)
    page = client.get("/admin/players/player/", {"q": "benoit"}).content.decode()
    assert "Dupont" in page and "Álvarez" not in page
    page = client.get("/admin/players/sanction/", {"q": "alvarez"})
    assert page.status_code == 200
    page = client.get("/admin/ratings/playerrating/", {"q": "oster"}).content.decode()
    assert "Øster" in page and "Dupont" not in page


def test_a_new_players_name_brings_up_the_known_players_it_resembles(people):
    assert [p.pk for p in players_like(last_name="dupont", first_name="benoit")] == [55]
    assert [p.pk for p in players_like(last_name="ALVAREZ")] == [56]
    assert players_like(last_name="Nobody") == []
    assert players_like(last_name="\x00") == []


def test_a_club_is_found_by_its_name_accents_and_case_aside(people):
    assert club_named("les dragons de saint-etienne").name == "Les Dragons de Saint-Étienne"
    assert club_named("  LES  DRAGONS DE SAINT-ÉTIENNE ").name == "Les Dragons de Saint-Étienne"
    assert club_named("Les Dragons") is None and club_named("") is None


def test_the_live_page_finds_a_table_by_a_name_without_its_accents(client, people):
    live = live_tournament(people)
    round_publish(round_pair(live, method="draw", seed=3))
    page = client.get(reverse("live_page", args=[live.pk]), {"q": "benoit"}).content.decode()
    assert "Benoît Dupont" in page[page.index("found-title"):]
    assert 'data-names="' in page and "benoit dupont" in page


def test_no_search_box_answers_500_to_what_can_be_typed(client, board, referee, people):
    live = live_tournament(people[:2])
    live.tournament.referees.add(referee)
    public = ["/search/", reverse("rating_list", args=["adlg"]), reverse("live_page", args=[live.pk]),
              reverse("tournament_list")]
    # A NUL anywhere is refused whole by the site (adlg_site.middleware, 400); anything else is searched.
    def ok(query):
        return (400,) if "\x00" in query else (200, 302)

    for query in HOSTILE:
        for url in public:
            assert client.get(url, {"q": query}).status_code in ok(query), (url, query[:20])
        assert client.get("/api/players/", {"search": query}).status_code in (200, 400), query[:20]
    client.force_login(board)
    for query in HOSTILE:
        for url in ("/admin/players/player/", "/admin/players/sanction/", "/admin/ratings/playerrating/",
                    "/admin/tournaments/game/", "/admin/tournaments/registration/"):
            assert client.get(url, {"q": query}).status_code in ok(query), (url, query[:20])
        response = client.get("/admin/autocomplete/", {"term": query, "app_label": "players",
                                                       "model_name": "sanction", "field_name": "player"})
        assert response.status_code in ok(query), query[:20]
    client.force_login(referee)
    for query in HOSTILE:
        response = client.get(reverse("referee:live_players", args=[live.pk]), {"q": query})
        assert response.status_code in ok(query), query[:20]


@pytest.mark.services
def test_postgresql_folds_and_indexes_the_names_as_sqlite_does(people):
    """The same searches on PostgreSQL, and the trigram index that serves them there."""
    assert connection.vendor == "postgresql"
    for query, expected in (("Benoit", [55]), ("ALVAREZ stephane", [56]), ("oster", [57]), ("zoé", [58])):
        assert _ids(player_search(query=query)) == expected, query
    for query in HOSTILE:
        list(player_search(query=query))
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'players_player'")
        indexes = {row[0] for row in cursor.fetchall()}
    assert "player_search_name_trigram" in indexes
    assert "player_last_name_trigram" not in indexes
