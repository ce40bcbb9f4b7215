"""A sheet for a tournament being run live on the site is refused, through the upload page, the API and
import_results alike, with a message telling the referee to publish the tournament day first; once it is
published a sheet corrects it as any other. The tournament day's own publication imports its workbook as before.

(Such a sheet was once rated while the live page still said "live".)"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from adlg_site.words import words_in
from tests.referee.helpers import create_known_players, make_tournament, upload, valid_sheet, xlsx
from tests.sheets.builders import assert_issue
from tournaments.live.entrants import NewEntrant
from tournaments.live.handover import live_hand_over, live_take_back
from tournaments.live.refusals import LiveRefused
from tournaments.live.start import live_begin
from tournaments.models import Game, LiveTournament, Sheet, Tournament
from tournaments.sheets.services import sheet_import_bytes, sheet_receive_as

pytestmark = pytest.mark.django_db

MESSAGE = ('Tournament {id} ("Spring Clash") is being run live on the site: its results will be those of its '
           'tournament day. Publish the tournament day first ("Publish the tournament", on its page under Run a '
           "tournament live); then send a sheet if its results need correcting. To finish the day in this sheet "
           'instead, choose "Finish in the spreadsheet" on that page first.')


@pytest.fixture
def live(referee):
    """The referee's tournament, run live on the site (started, not published)."""
    known = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[known[pid] for pid in (101, 102, 104)])
    return live_begin(tournament, entrants=[NewEntrant(player=pid) for pid in (101, 102, 104)], user=referee)


def _nothing_imported(tournament: Tournament) -> bool:
    tournament.refresh_from_db()
    return tournament.status == Tournament.REGISTERED and not Game.objects.filter(tournament=tournament).exists()


def test_the_service_refuses_a_referees_sheet_for_a_tournament_run_live(live, referee):
    outcome = sheet_import_bytes(data=valid_sheet(live.tournament).build(), file_name="results.xlsx", user=referee,
                                 refuse_if_live=True)
    assert not outcome.ok
    assert_issue(outcome.report, code="tournament_running_live", sheet="Tournament", cell="B2",
                 en=MESSAGE.format(id=live.pk))
    assert outcome.report.errors[0].code == "tournament_running_live"  # first: the one thing to do
    assert "Publiez d’abord la journée" in outcome.report.as_dict(words_in("fr"))["errors"][0]["message"]
    assert _nothing_imported(live.tournament)
    assert outcome.sheet.status == Sheet.REJECTED


def test_a_sheet_without_the_id_but_with_the_name_and_first_day_is_refused_too(live, referee):
    data = valid_sheet(live.tournament).set("Tournament ID", None).build()
    sheet, _parsed, report = sheet_receive_as(user=referee, data=data, file_name="results.xlsx")
    assert [issue.code for issue in report.errors] == ["tournament_running_live"]
    assert sheet.status == Sheet.REJECTED


def test_the_upload_page_refuses_it_and_says_why(client, live, referee):
    client.force_login(referee)
    response = upload(client, valid_sheet(live.tournament).build(), follow=True)
    assert "is being run live on the site" in response.content.decode()
    assert Sheet.objects.get().status == Sheet.REJECTED
    assert _nothing_imported(live.tournament)


def test_a_sheet_checked_before_the_live_run_began_is_refused_at_its_confirmation(client, referee):
    known = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[known[pid] for pid in (101, 102, 104)])
    client.force_login(referee)
    upload(client, valid_sheet(tournament).build())
    sheet = Sheet.objects.get()
    assert sheet.status == Sheet.CHECKED
    live_begin(tournament, entrants=[NewEntrant(player=pid) for pid in (101, 102, 104)], user=referee)
    preview = client.get(reverse("referee:sheet", args=[sheet.pk])).content.decode()
    assert "is being run live on the site" in preview
    client.post(reverse("referee:sheet_confirm", args=[sheet.pk]), {"acknowledge": "on"})
    sheet.refresh_from_db()
    assert sheet.status == Sheet.REJECTED
    assert _nothing_imported(tournament)


def test_the_api_refuses_it(live, referee):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=referee)[0].key}")
    response = client.post("/api/sheets/", {"file": xlsx(valid_sheet(live.tournament).build())}, format="multipart")
    assert response.status_code == 400
    assert [error["code"] for error in response.json()["errors"]] == ["tournament_running_live"]
    assert _nothing_imported(live.tournament)


def test_import_results_refuses_it(live, tmp_path):
    path = tmp_path / "results.xlsx"
    path.write_bytes(valid_sheet(live.tournament).build())
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_results", str(path), stdout=out, stderr=err)
    assert exit_.value.code == 1
    assert "is being run live on the site" in err.getvalue() + out.getvalue()
    assert _nothing_imported(live.tournament)


def test_once_the_tournament_day_is_published_a_sheet_corrects_it(live, referee):
    LiveTournament.objects.filter(pk=live.pk).update(published_at=timezone.now())
    outcome = sheet_import_bytes(data=valid_sheet(live.tournament).build(), file_name="results.xlsx", user=referee,
                                 refuse_if_live=True)
    assert outcome.ok, outcome.report.as_dict()


def test_a_day_handed_over_to_the_spreadsheet_takes_the_referees_sheet_as_any_upload(live, referee):
    live_hand_over(live, user=referee)
    outcome = sheet_import_bytes(data=valid_sheet(live.tournament).build(), file_name="results.xlsx", user=referee,
                                 refuse_if_live=True)
    assert outcome.ok, outcome.report.as_dict()["errors"]
    assert Game.objects.filter(tournament=live.tournament).exists()
    # The sheet is the tournament's results now: the day cannot be taken back on the site.
    with pytest.raises(LiveRefused) as refused:
        live_take_back(live, user=referee)
    assert refused.value.notices[0][0] == "sheet_imported_after_hand_over"


def test_a_day_taken_back_from_the_spreadsheet_refuses_the_sheet_again(live, referee):
    live_hand_over(live, user=referee)
    live_take_back(live, user=referee)
    outcome = sheet_import_bytes(data=valid_sheet(live.tournament).build(), file_name="results.xlsx", user=referee,
                                 refuse_if_live=True)
    assert [issue.code for issue in outcome.report.errors] == ["tournament_running_live"]
    assert _nothing_imported(live.tournament)
