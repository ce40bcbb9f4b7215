"""POST /api/sheets/ imports a sheet in one step for referees and the board; GET /api/sheets/<id>/ follows it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.referee.helpers import valid_sheet, xlsx
from tournaments.models import Sheet, Tournament

pytestmark = pytest.mark.django_db

URL = "/api/sheets/"


@pytest.fixture(autouse=True)
def _api_urls(settings):
    """adlg_site/api_urls.py includes tournaments.sheets.api; until it does, the tests mount it themselves."""
    settings.ROOT_URLCONF = "tests.referee.api_urlconf"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def post(client, data: bytes, name: str = "results.xlsx", **extra):
    return client.post(URL, {"file": xlsx(data, name)}, format="multipart", **extra)


def test_a_referee_imports_a_sheet_with_a_token(referee, tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(api(referee), valid_sheet(tournament).build())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"ok", "tournament_id", "new_players", "errors", "warnings"}
    assert (body["ok"], body["tournament_id"], sorted(body["new_players"])) == (True, tournament.pk, ["N1", "N2"])
    sheet = Sheet.objects.get()
    assert response["Location"] == f"/api/sheets/{sheet.pk}/"
    status = api(referee).get(response["Location"]).json()
    assert (status["status"], status["published"], status["finished"], status["replay_status"]) == (
        "replayed", True, True, "done")
    assert status["new_players"] == body["new_players"]


def test_the_same_file_twice_answers_200_and_changes_nothing(referee, tournament):
    data = valid_sheet(tournament).build()
    client = api(referee)
    assert post(client, data).status_code == 201
    second = post(client, data)
    assert second.status_code == 200 and second.json()["ok"]
    assert Sheet.objects.count() == 1


def test_a_faulty_sheet_is_refused_with_its_report(referee, tournament):
    builder = valid_sheet(tournament).set_game(0, "A losses %", 150)
    response = post(api(referee), builder.build())
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["tournament_id"] is None
    assert [(e["sheet"], e["cell"]) for e in body["errors"]] == [("Games", builder.game_cell(0, "A losses %"))]
    assert Sheet.objects.get().status == Sheet.REJECTED
    assert not tournament.games.exists()


def test_the_messages_follow_accept_language(referee, tournament):
    response = post(api(referee), valid_sheet(tournament).set("City", None).build(), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.json()["errors"][0]["message"] == (
        "«\u00a0City\u00a0» est obligatoire et n’est pas rempli. Remplissez-le.")


def test_another_referees_tournament_is_403_and_nothing_is_kept(other_referee, tournament, other_tournament):
    response = post(api(other_referee), valid_sheet(tournament).build())
    assert response.status_code == 403
    assert f"Tournament no. {tournament.pk}" in response.json()["detail"]
    assert not Sheet.objects.exists() and not tournament.games.exists()


def test_a_player_account_is_403(player_user):
    assert post(api(player_user), valid_sheet().build()).status_code == 403
    assert not Sheet.objects.exists()


def test_anonymous_callers_are_401(known_players):
    assert post(api(), valid_sheet().build()).status_code == 401


def test_the_board_imports_a_new_tournament(board, known_players):
    response = post(api(board), valid_sheet().build())
    assert response.status_code == 201
    assert Tournament.objects.get().name == "Spring Clash"


def test_session_authentication_works_too(referee, tournament):
    client = APIClient()
    client.force_login(referee)
    assert post(client, valid_sheet(tournament).build()).status_code == 201


def test_an_oversized_request_is_413_before_it_is_read(referee, tournament, settings):
    response = post(api(referee), valid_sheet(tournament).build(), CONTENT_LENGTH=str(settings.SHEET_MAX_BYTES * 2))
    assert response.status_code == 413
    assert "the limit for a result sheet" in response.json()["detail"]
    assert not Sheet.objects.exists()


def test_an_oversized_file_is_400(referee, tournament, settings):
    settings.SHEET_MAX_BYTES = 2000
    response = post(api(referee), valid_sheet(tournament).build())
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "file_too_large"


def test_a_file_that_is_not_an_xlsx_is_400(referee, tournament):
    response = post(api(referee), b"a;b\n", "results.csv")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "not_xlsx"


def test_a_missing_file_is_400(referee, tournament):
    response = api(referee).post(URL, {}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "no_file"


def test_another_referee_cannot_follow_someone_elses_sheet(referee, other_referee, tournament, other_tournament):
    post(api(referee), valid_sheet(tournament).build())
    sheet = Sheet.objects.get()
    assert api(other_referee).get(f"{URL}{sheet.pk}/").status_code == 404
    assert api().get(f"{URL}{sheet.pk}/").status_code == 401


def test_a_fault_of_the_site_is_a_500_with_a_sentence_and_keeps_nothing(referee, tournament, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the audit log is down")

    monkeypatch.setattr("tournaments.sheets.services.audit_record", broken)
    response = post(api(referee), valid_sheet(tournament).build())
    assert response.status_code == 500
    assert "nothing was kept" in response.json()["detail"]
    assert not Sheet.objects.exists() and not tournament.games.exists()


def test_the_schema_generates_without_warnings(tmp_path):
    call_command("spectacular", "--urlconf", "tests.referee.api_urlconf", "--validate", "--fail-on-warn",
                 "--file", str(tmp_path / "schema.yaml"))
    schema = (tmp_path / "schema.yaml").read_text()
    assert "/api/sheets/{id}/" in schema and "sheets_upload" in schema
