"""A tournament in the exchange format on the site: every tournament with results downloadable (its page, the API),
an upload of it held to the result sheet's checks, report, preview and import, and the round trip sheet → JSON →
import giving the same tournament: the same games, standings and ratings."""

from __future__ import annotations

import itertools
import json
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from players.governance import player_exclude
from players.models import Player
from players.services import players_import_csv
from ratings.models import PlayerRating, RatingEvent
from ratings.services import replay_pending
from rules.exchange import exchange_document, schema
from tests.ratings import real_history
from tests.ratings.helpers import roster
from tests.referee.helpers import valid_sheet
from tests.sheets.builders import SheetBuilder
from tournaments.models import Game, Registration, Sheet, Standing, Tournament
from tournaments.sheets.exchange import tournament_exchange
from tournaments.sheets.services import sheet_import_bytes

pytestmark = pytest.mark.django_db

VALIDATOR = Draft202012Validator(schema())


def rich_sheet() -> SheetBuilder:
    """The builders' valid sheet in two pools (the spare in pool B), with a penalty, armies and a free game."""
    builder = SheetBuilder.valid(two_pools=True)
    builder.set_player(101, "Penalty", 3).set_player(101, "Penalty reason", "late army list")
    builder.set_player(104, "Army", "Later Carthaginian")
    builder.set_game(14, "Free game", "yes")  # round 3 of 3: a free game
    return builder


def as_bytes(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode()


def imported(data: bytes, name: str):
    outcome = sheet_import_bytes(data=data, file_name=name)
    assert outcome.ok, outcome.report.as_dict()
    replay_pending(system_code="adlg")
    return outcome


def tournament_state(tournament_id: int) -> dict:
    """The tournament as its pages and the ratings know it, without surrogate keys."""
    t = Tournament.objects.select_related("organising_club").get(pk=tournament_id)
    return {
        "tournament": (t.name, t.system_id, t.start_date, t.end_date, t.city, t.country_id,
                       t.organising_club.name if t.organising_club else None, t.referee_name, t.army_points,
                       t.rounds, t.worlds, t.official, t.pools, t.status),
        "registrations": sorted(Registration.objects.filter(tournament=t).values_list(
            "player_id", "pool", "army", "penalty", "penalty_reason", "club__name")),
        "games": sorted(Game.objects.filter(tournament=t).values_list(
            "round", "table", "player_a_id", "player_b_id", "result", "a_losses", "b_losses", "free")),
        "standings": sorted(Standing.objects.filter(tournament=t).values_list(
            "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins", "draws", "losses", "games",
            "tiebreak", "rating_before", "rating_after", "performance")),
    }


def ratings_state() -> dict:
    return {
        "ratings": list(PlayerRating.objects.order_by("system_id", "player_id").values_list(
            "system_id", "player_id", "rating", "games", "rank_code", "last_played")),
        "events": sorted(RatingEvent.objects.values_list(
            "system_id", "player_id", "kind", "date", "opponent_id", "rating_before", "rating_after", "change",
            "games_before", "k", "expected", "score")),
    }


def facts_count() -> tuple[int, ...]:
    return (Tournament.objects.count(), Game.objects.count(), Registration.objects.count(), Player.objects.count(),
            RatingEvent.objects.count())


# --- the round trip


@pytest.mark.django_db(transaction=True)
def test_a_tournament_exported_and_imported_again_is_the_same_tournament():
    roster()
    first = imported(rich_sheet().build(), "spring.xlsx")
    tid = first.tournament_id
    before = tournament_state(tid), ratings_state()
    document = tournament_exchange(tournament_id=tid)
    VALIDATOR.validate(document)
    assert {p["id"] for p in document["players"]} >= {99, *first.new_players.values()}
    again = imported(as_bytes(document), f"tournament-{tid}.json")
    # A correction of the same tournament, which changes nothing: no new player, the same games and figures.
    assert (again.tournament_id, again.new_players) == (tid, {})
    assert Sheet.objects.get(pk=again.sheet.pk).reading["source"] == "json"
    assert (tournament_state(tid), ratings_state()) == before


def state_after_import(data: bytes, name: str) -> tuple:
    """The tournament, its new players and the ratings once `data` is imported, then everything undone."""
    with transaction.atomic():
        outcome = imported(data, name)
        state = (tournament_state(outcome.tournament_id), outcome.new_players, ratings_state())
        transaction.set_rollback(True)
    return state


def test_a_new_tournament_sent_as_json_is_the_one_its_sheet_makes():
    roster()
    builder = rich_sheet()
    parsed = builder.read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    assert {"N1", "N2"} <= {p["id"] for p in document["players"]}  # new players, as tags
    from_sheet = state_after_import(builder.build(), "spring.xlsx")
    assert not Tournament.objects.exists()
    from_json = state_after_import(as_bytes(document), "spring.json")
    assert from_json == from_sheet
    assert len(from_json[0]["games"]) == 21 and from_json[1].keys() == {"N1", "N2"}


@pytest.mark.django_db(transaction=True)
def test_real_tournaments_round_trip_through_the_site():
    """The real history's shape: a few of its tournaments (from 14 to 121 games, dozens of players), imported from
    their sheets, exported, and imported again from the JSON: the same games, standings and ratings."""
    players_import_csv(text=real_history.players_csv())
    chosen = [t for t in itertools.islice(real_history.tournaments(), 12) if 10 <= t.games <= 130][:4]
    assert len(chosen) == 4 and max(t.games for t in chosen) > 60
    ids = [imported(t.sheet, f"{t.code}.xlsx").tournament_id for t in chosen]
    before = [tournament_state(tid) for tid in ids], ratings_state()
    assert sum(len(state["games"]) for state in before[0]) == sum(t.games for t in chosen)
    documents = [tournament_exchange(tournament_id=tid) for tid in ids]
    for tid, document in zip(ids, documents, strict=True):
        VALIDATOR.validate(document)
        assert imported(as_bytes(document), f"{tid}.json").tournament_id == tid
    assert ([tournament_state(tid) for tid in ids], ratings_state()) == before


def test_an_excluded_player_leaves_the_export_with_his_games(board):
    roster()
    tid = imported(rich_sheet().build(), "spring.xlsx").tournament_id
    player_exclude(player=Player.objects.get(pk=102), reason="cheating", user=board)
    document = tournament_exchange(tournament_id=tid)
    VALIDATOR.validate(document)
    assert 102 not in {p["id"] for p in document["players"]}
    assert all(102 not in (g["a"], g["b"]) for g in document["games"])
    assert len(document["games"]) == Game.objects.filter(tournament_id=tid).count() - 3
    assert "cheating" not in json.dumps(document)


def test_a_tournament_without_results_has_no_export(tournament):
    assert tournament_exchange(tournament_id=tournament.pk) is None
    assert tournament_exchange(tournament_id=999_999) is None


# --- bad files change nothing


BAD_FILES = {
    "syntax": (b'{"format": "adlg-tournament/1", "tournament": {', "json_syntax"),
    "not a tournament": (b'"adlg-tournament/1"', "json_not_object"),
    "another version": (b'{"format": "adlg-tournament/9"}', "json_unknown_format"),
    "oversized": (b'{"format": "adlg-tournament/1", "source": {"pad": "' + b"x" * (5 * 1024 * 1024) + b'"}}',
                  "json_too_large"),
    "not UTF-8": (b'{"format": "adlg-tournament/1", "x": "\xff"}', "json_not_utf8"),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_malformed_file_is_refused_and_changes_nothing(name):
    roster()
    data, code = BAD_FILES[name]
    before = facts_count()
    outcome = sheet_import_bytes(data=data, file_name="bad.json")
    assert not outcome.ok and [i.code for i in outcome.report.errors] == [code]
    assert outcome.as_json("fr")["errors"][0]["message"] != outcome.as_json("en")["errors"][0]["message"]
    assert facts_count() == before
    assert Sheet.objects.get().status == Sheet.REJECTED


def test_wrong_types_are_refused_at_their_paths_and_change_nothing():
    roster()
    parsed = rich_sheet().read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    document["games"][3]["a_losses"] = "20"
    document["tournament"]["worlds"] = "no"
    before = facts_count()
    outcome = sheet_import_bytes(data=as_bytes(document), file_name="bad.json")
    assert [(i.code, i.params["path"]) for i in outcome.report.errors] == [
        ("json_wrong_type", "$.tournament.worlds"), ("json_wrong_type", "$.games[3].a_losses")]
    assert facts_count() == before


def test_the_federations_checks_apply_to_json_too():
    roster()
    parsed = rich_sheet().read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    document["players"][1]["id"] = 5555  # 102, unknown to the federation under this ID
    for game in document["games"]:
        game["a"], game["b"] = (5555 if g == 102 else g for g in (game["a"], game["b"]))
    before = facts_count()
    outcome = sheet_import_bytes(data=as_bytes(document), file_name="bad.json")
    assert [i.code for i in outcome.report.errors] == ["unknown_player_id"]
    assert facts_count() == before


# --- the pages and the API


def upload(client, data: bytes, name: str):
    file = SimpleUploadedFile(name, data, content_type="application/json")
    return client.post(reverse("referee:upload"), {"file": file})


def test_a_referee_uploads_json_and_sees_the_preview_then_imports(client, referee, tournament):
    client.force_login(referee)
    parsed = valid_sheet(tournament).read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    response = upload(client, as_bytes(document), "spring.json")
    sheet = Sheet.objects.get()
    assert (sheet.status, sheet.tournament) == (Sheet.CHECKED, tournament)
    assert response["Location"] == reverse("referee:sheet", args=[sheet.pk])
    preview = client.get(response["Location"])
    assert preview.status_code == 200 and "Nouveau" in preview.content.decode()
    client.post(reverse("referee:sheet_confirm", args=[sheet.pk]), {"acknowledge": "on"})
    sheet.refresh_from_db()
    assert sheet.status in Sheet.ACCEPTED and Game.objects.filter(tournament=tournament).count() == 15
    sent = client.get(reverse("referee:sheet_file", args=[sheet.pk]))
    assert sent["Content-Type"] == "application/json" and sent.content == as_bytes(document)


def test_the_report_of_a_faulty_json_names_each_values_path(client, referee, tournament):
    client.force_login(referee)
    parsed = valid_sheet(tournament).read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    document["games"][2]["b"] = document["games"][0]["a"]  # 101 twice in round 1
    upload(client, as_bytes(document), "spring.json")
    page = client.get(reverse("referee:sheet", args=[Sheet.objects.get().pk])).content.decode()
    assert '<code class="cell">$.games[2].b</code>' in page
    assert reverse("referee:sheet_annotated", args=[Sheet.objects.get().pk]) not in page
    annotated = client.get(reverse("referee:sheet_annotated", args=[Sheet.objects.get().pk]))
    assert annotated.status_code == 302 and annotated["Location"] == reverse("referee:sheet",
                                                                             args=[Sheet.objects.get().pk])


def test_the_upload_refuses_other_extensions_in_words(client, referee, tournament):
    client.force_login(referee)
    response = upload(client, b"{}", "spring.txt")
    assert response.status_code == 400
    assert "is neither an Excel workbook (.xlsx) nor a tournament in JSON (.json)" in response.content.decode()
    assert not Sheet.objects.exists()


def test_every_tournament_with_results_links_its_json(client, tournament, django_assert_max_num_queries):
    roster()
    tid = imported(rich_sheet().build(), "spring.xlsx").tournament_id
    link = reverse("tournament_exchange", args=[tid])
    assert link in client.get(reverse("tournament_detail", args=[tid])).content.decode()
    assert reverse("tournament_exchange", args=[tournament.pk]) not in client.get(
        reverse("tournament_detail", args=[tournament.pk])).content.decode()
    with django_assert_max_num_queries(4):
        response = client.get(link)
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{tid}.json"'
    document = json.loads(response.content)
    VALIDATOR.validate(document)
    assert document["source"]["tournament_page"].endswith(reverse("tournament_detail", args=[tid]))
    assert client.get(reverse("tournament_exchange", args=[tournament.pk])).status_code == 404


def test_the_api_gives_the_same_document(client, tournament):
    roster()
    tid = imported(rich_sheet().build(), "spring.xlsx").tournament_id
    api = APIClient()
    body = api.get(f"/api/tournaments/{tid}/exchange/").json()
    page = json.loads(client.get(reverse("tournament_exchange", args=[tid])).content)
    assert body == page and body["tournament"]["id"] == tid
    assert api.get(f"/api/tournaments/{tournament.pk}/exchange/").status_code == 404


def test_the_api_upload_takes_json(referee, tournament):
    from rest_framework.authtoken.models import Token

    parsed = valid_sheet(tournament).read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=referee)[0].key}")
    file = SimpleUploadedFile("spring.json", as_bytes(document), content_type="application/json")
    response = api.post("/api/sheets/", {"file": file}, format="multipart")
    assert response.status_code == 201, response.json()
    assert (response.json()["tournament_id"], sorted(response.json()["new_players"])) == (tournament.pk, ["N1", "N2"])


def test_dates_in_the_future_are_refused_as_in_the_sheet():
    roster()
    parsed = rich_sheet().read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    document["tournament"]["start"] = document["tournament"]["end"] = "2999-01-01"
    outcome = sheet_import_bytes(data=as_bytes(document), file_name="future.json")
    assert {i.code for i in outcome.report.errors} == {"date_in_future"}
    assert date.today().year < 2999
