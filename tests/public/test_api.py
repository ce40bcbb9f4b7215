"""The read API: players, a player's history, tournaments, championship, rulesets; strict query strings."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.management import call_command

from championship.models import ChampionshipTotal
from players.models import Player
from ratings.models import RatingEvent
from rules.rulesets import RULESETS
from tests import factories as f


def get(client, url, **params):
    return client.get(url, params, HTTP_ACCEPT="application/json")


def test_api_root_links_every_collection(client, db):
    body = get(client, "/api/").json()
    assert set(body) == {"players", "tournaments", "championship", "systems", "rulesets", "live", "schema", "docs"}


def test_api_players_lists_the_rating_list_best_first(client, federation):
    body = get(client, "/api/players/").json()
    assert body["count"] == 6
    ratings = [row["rating"] for row in body["results"]]
    assert ratings == sorted(ratings, reverse=True)
    row = body["results"][0]
    assert set(row) >= {"id", "last_name", "first_name", "club", "country", "system", "position", "rating", "rank",
                        "rank_name_en", "rank_name_fr", "games", "last_played"}
    assert row["system"] == "adlg"


def test_api_players_filters_by_country_club_rank_system_and_search(client, federation):
    assert {r["country"] for r in get(client, "/api/players/", country="be").json()["results"]} == {"BE"}
    club = federation.clubs[0]
    assert {r["club"] for r in get(client, "/api/players/", club=club.pk).json()["results"]} == {club.name}
    rank = get(client, "/api/players/").json()["results"][0]["rank"]
    assert all(r["rank"] == rank for r in get(client, "/api/players/", rank=rank).json()["results"])
    assert get(client, "/api/players/", system="battle-empire").json()["count"] == 0
    found = get(client, "/api/players/", search="dupont").json()["results"]
    assert [r["last_name"] for r in found] == ["Dupont"]


def test_api_players_orders_by_rating_name_or_games(client, federation):
    ascending = [r["rating"] for r in get(client, "/api/players/", ordering="rating").json()["results"]]
    assert ascending == sorted(ascending)
    names = [r["last_name"] for r in get(client, "/api/players/", ordering="name").json()["results"]]
    assert names == sorted(names)


def test_api_players_never_lists_excluded_merged_or_spare_players(client, federation):
    f.rating(f.player("Excluded", "X", excluded=True), value=2000)
    f.rating(f.player("Merged", "X", merged_into=federation.players[0]), value=2000)
    f.rating(Player.objects.get(pk=99), value=2000)
    names = {r["last_name"] for r in get(client, "/api/players/", page_size=500).json()["results"]}
    assert not names & {"Excluded", "Merged", "Spare"}
    assert get(client, "/api/players/").json()["count"] == 6


def test_api_refuses_an_unknown_query_parameter_with_a_message(client, federation):
    response = get(client, "/api/players/", contry="FR")
    assert response.status_code == 400
    assert "contry" in response.json()["detail"] and "country" in response.json()["detail"]
    for url in ("/api/tournaments/", "/api/championship/2024/", "/api/rulesets/",
                f"/api/players/{federation.players[0].id}/", "/api/systems/", "/api/"):
        assert get(client, url, nope="1").status_code == 400, url


def test_api_refuses_an_invalid_filter_value(client, federation):
    for params in ({"country": "FRA"}, {"system": "chess"}, {"club": "x"}, {"ordering": "luck"},
                   {"active_since": "yesterday"}):
        response = get(client, "/api/players/", **params)
        assert response.status_code == 400, params
        assert response.json()["detail"]


def test_api_paginates_with_page_size_up_to_500(client, db):
    players = [f.player(f"P{i:03d}", "X") for i in range(12)]
    for i, player in enumerate(players):
        f.rating(player, value=1000 + i)
    body = get(client, "/api/players/", page_size=5, page=2).json()
    assert body["count"] == 12 and len(body["results"]) == 5 and body["next"] and body["previous"]
    assert len(get(client, "/api/players/", page_size=10000).json()["results"]) == 12
    assert get(client, "/api/players/", page=99).status_code == 404


def test_api_player_gives_ratings_next_rank_and_history(client, federation):
    player = federation.players[0]
    f.adjustment(player, year=2024, before=1100, after=1050)
    body = get(client, f"/api/players/{player.id}/").json()
    assert body["id"] == player.id
    assert body["ratings"][0]["system"] == "adlg" and body["ratings"][0]["next_rank"]["points_needed"] >= 0
    kinds = [event["kind"] for event in body["history"]]
    assert kinds.count("adjustment") == 1
    assert kinds.count("game") == RatingEvent.objects.filter(player=player, kind="game").count()
    game = next(e for e in body["history"] if e["kind"] == "game")
    assert {"k", "expected", "score", "opponent", "opponent_name", "tournament_name", "round"} <= set(game)
    assert get(client, f"/api/players/{player.id}/", system="battle-empire").json()["history"] == []


def test_api_player_of_a_merged_record_redirects(client, federation):
    old = f.player("Old", "O", merged_into=federation.players[0])
    response = get(client, f"/api/players/{old.id}/")
    assert response.status_code == 301
    assert response["Location"].endswith(f"/api/players/{federation.players[0].id}/")


def test_api_player_of_an_excluded_player_or_the_spare_is_404(client, db):
    excluded = f.player("Excluded", "X", excluded=True)
    assert get(client, f"/api/players/{excluded.id}/").status_code == 404
    assert get(client, "/api/players/99/").status_code == 404


def test_api_tournaments_list_and_filters(client, federation):
    f.tournament("Brussels Open", start=date(2023, 5, 1), country_code="BE", status="registered")
    body = get(client, "/api/tournaments/").json()
    assert [t["name"] for t in body["results"]] == [federation.tournament.name, "Brussels Open"]
    assert body["results"][0]["counts"] is True and body["results"][1]["counts"] is None
    assert [t["name"] for t in get(client, "/api/tournaments/", year=2023).json()["results"]] == ["Brussels Open"]
    assert get(client, "/api/tournaments/", country="be", status="registered").json()["count"] == 1
    assert get(client, "/api/tournaments/", search="brussels").json()["count"] == 1


def test_api_tournament_gives_standings_and_games(client, federation):
    t = federation.tournament
    body = get(client, f"/api/tournaments/{t.id}/").json()
    assert len(body["standings"]) == 6 and len(body["games"]) == 9
    first = body["standings"][0]
    assert first["rank"] == 1 and first["championship_points"] == "25.00"
    assert {"tiebreak", "tiebreak_text", "penalty_reason", "performance", "rounds"} <= set(first)
    assert len(first["rounds"]) == 3
    assert body["average_rating"] == 1000.0


def test_api_tournament_charter_failures_come_in_both_languages(client, db):
    players = [f.player(f"P{i}", "X") for i in range(4)]
    played = f.rated_tournament(players, counts=False, points=False,
                                charter_failures=[{"code": "too_few_players", "params": {"players": 4, "minimum": 8}}])
    failure = get(client, f"/api/tournaments/{played.tournament.id}/").json()["charter_failures"][0]
    assert failure["code"] == "too_few_players"
    assert failure["message_en"] == "The tournament ranks 4 players; at least 8 are needed."
    assert "il en faut au moins 8" in failure["message_fr"]


def test_api_championship_years_and_rankings(client, federation):
    assert get(client, "/api/championship/").json() == [{"year": 2024, "players": 6}]
    body = get(client, "/api/championship/2024/").json()
    assert body["count"] == 6
    first = body["results"][0]
    assert first["position"] == 1 and first["total"] == "25.00" and len(first["counted_results"]) == 1
    assert first["counted_results"][0]["tournament_name"] == federation.tournament.name


def test_api_championship_by_country_needs_five_registered_players(client, federation):
    assert get(client, "/api/championship/2024/", country="FR").json()["count"] == 0  # two French players
    for i in range(3):
        f.player(f"Extra{i}", "X", country_code="FR")
    body = get(client, "/api/championship/2024/", country="fr").json()
    assert body["count"] == 2 and [r["position"] for r in body["results"]] == [1, 2]


def test_api_championship_international(client, federation):
    ChampionshipTotal.objects.filter(player=federation.players[1]).update(international=True, international_rank=1)
    body = get(client, "/api/championship/2024/", international="true").json()
    assert [r["player"] for r in body["results"]] == [federation.players[1].id]
    assert get(client, "/api/championship/2024/", international="true", country="FR").status_code == 400


def test_api_rulesets_come_from_the_ruleset_data(client, db):
    body = get(client, "/api/rulesets/").json()
    assert [r["code"] for r in body] == list(RULESETS)
    adlg = get(client, "/api/rulesets/adlg-2018/").json()
    assert adlg["scale"] == 500 and adlg["gap"] == 500 and adlg["k_bands"][0]["k"] == 50
    assert adlg["unproven_rank"]["code"] == "seneschal"
    assert get(client, "/api/rulesets/nope/").status_code == 404


def test_api_systems(client, db):
    assert [s["code"] for s in get(client, "/api/systems/").json()] == ["adlg", "battle-empire"]


def test_api_is_read_only(client, federation):
    assert client.post("/api/players/", {}).status_code in (403, 405)
    assert client.delete(f"/api/players/{federation.players[0].id}/").status_code in (403, 405)


def test_api_docs_page_lists_the_operations_without_a_cdn(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "/api/players/" in page and "/api/schema/" in page
    # Every script, style and link is the site's own. (Searching the page for "cdn" also matched its random
    # CSRF token now and then.)
    addresses = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert addresses and all(address.startswith(("/", "#")) for address in addresses), addresses


def test_api_schema_is_served(client, db):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert "/api/players/{id}/" in response.json()["paths"]


def test_openapi_schema_generates_without_warnings(db, tmp_path):
    schema = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))  # raises on a warning
    assert "/api/players/{id}/:" in schema.read_text(encoding="utf-8")


@pytest.mark.parametrize("size", [4, 30])
def test_api_takes_the_same_queries_whatever_the_size(client, db, django_assert_num_queries, size):
    players = [f.player(f"P{i}", "X") for i in range(size)]
    played = f.rated_tournament(players)
    f.championship_totals(2024)
    # hidden IDs, default system, count, page, rulesets of the rank names, the system's rating counts
    with django_assert_num_queries(6):
        assert get(client, "/api/players/").status_code == 200
    # player, rulesets, ratings, their rating counts, history
    with django_assert_num_queries(5):
        assert get(client, f"/api/players/{players[0].id}/").status_code == 200
    # tournament, standings, registrations, games, rating changes, championship points
    with django_assert_num_queries(6):
        assert get(client, f"/api/tournaments/{played.tournament.id}/").status_code == 200
    # count, page, counted results
    with django_assert_num_queries(3):
        assert get(client, "/api/championship/2024/").status_code == 200


def test_api_words_follow_the_language_asked_for(client, federation):
    t = federation.tournament
    english = client.get(f"/api/tournaments/{t.id}/", HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(f"/api/tournaments/{t.id}/", HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.json()["standings"][1]["tiebreak_text"] == "score"
    assert french.json()["standings"][2]["tiebreak_text"] in ("score", "score des adversaires")
    unknown = client.get("/api/players/", {"contry": "FR"}, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Paramètre(s) de requête inconnu(s)\u00a0: contry" in unknown.json()["detail"]  # a non-breaking space


def test_api_docs_page_in_french(french_visitor, db):
    assert "API de lecture" in french_visitor.get("/api/docs/").content.decode()


def test_api_answers_a_malformed_id_in_json(client, db):
    response = client.get("/api/players/abc/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_api_answers_a_path_with_an_encoded_newline_in_json(client, db):
    # Found by schemathesis: '.' in the catch-all route did not match the newline, so Django's HTML 404 answered.
    response = client.get("/api/tournaments/%2C1%C3%BF%0A/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
