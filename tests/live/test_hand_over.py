"""Finishing the day in the spreadsheet: the workbook so far, the day handed over (its pages stop
changing, the players' links stop, the public page says where the results will come from), the sheet uploaded
as any; taken back on the site while no sheet is imported."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.entrants import entrant_move
from tournaments.live.handover import live_hand_over, live_take_back
from tournaments.live.links import entrant_link_path
from tournaments.live.publication import live_publish
from tournaments.live.refusals import LiveRefused
from tournaments.live.rounds import round_pair
from tournaments.models import LiveTournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8, clubs=8), rounds=3)
    live.tournament.referees.add(referee)
    return live


def _action_key(html: str) -> str:
    start = html.index('name="action_key" value="') + len('name="action_key" value="')
    return html[start:start + 32]


def test_the_referee_confirms_before_the_day_is_handed_over(signed_in, live):
    page = signed_in.get(reverse("referee:live_hand_over", args=[live.pk]))
    assert page.status_code == 200
    assert "Download the workbook so far" in page.content.decode()
    refused = signed_in.post(reverse("referee:live_hand_over", args=[live.pk]),
                             {"action_key": _action_key(page.content.decode())})
    assert refused.status_code == 400
    live.refresh_from_db()
    assert live.handed_over_at is None


def test_a_day_handed_over_stops_changing_and_says_where_its_results_will_come_from(signed_in, live, referee):
    play_round(live, 1, random.Random(3))
    page = signed_in.get(reverse("referee:live_hand_over", args=[live.pk])).content.decode()
    response = signed_in.post(reverse("referee:live_hand_over", args=[live.pk]),
                              {"action_key": _action_key(page), "confirm": "on"})
    assert response.status_code == 302 and response["Location"] == reverse("referee:live_handed_over",
                                                                           args=[live.pk])
    live.refresh_from_db()
    assert live.handed_over_at is not None and live.handed_over_by == referee
    assert AuditEntry.objects.filter(action="live_hand_over", object_id=str(live.pk)).count() == 1

    # The day's pages lead to the hand-over page; the workbook so far still downloads.
    assert signed_in.get(reverse("referee:live_run", args=[live.pk]))["Location"] == reverse(
        "referee:live_handed_over", args=[live.pk])
    status = signed_in.get(reverse("referee:live_handed_over", args=[live.pk])).content.decode()
    assert "Upload the sheet" in status and "Take the day back on the site" in status
    workbook = signed_in.get(reverse("referee:live_workbook", args=[live.pk]))
    assert workbook.status_code == 200 and workbook.content[:2] == b"PK"
    # No service of the day changes it, whatever the way in (a command, a second tab).
    with pytest.raises(LiveRefused) as refused:
        round_pair(live, pool="A")
    assert refused.value.notices[0][0] == "handed_over"
    # The players' links stop; the public page says the sheet will bring the results.
    entrant = live.entrants.first()
    assert 'name="result"' not in signed_in.get(entrant_link_path(entrant)).content.decode()
    public = signed_in.get(reverse("live_page", args=[live.pk])).content.decode()
    assert "finishes this tournament in the result sheet" in public


def test_a_day_taken_back_goes_on_where_it_stopped(signed_in, live, referee):
    play_round(live, 1, random.Random(3))
    live_hand_over(live, user=referee)
    response = signed_in.post(reverse("referee:live_handed_over", args=[live.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("referee:live_run", args=[live.pk])
    live.refresh_from_db()
    assert live.handed_over_at is None
    assert round_pair(live, pool="A").number == 2
    assert AuditEntry.objects.filter(action="live_take_back", object_id=str(live.pk)).count() == 1


def test_a_published_day_cannot_be_handed_over(live, referee):
    rng = random.Random(5)
    for number in (1, 2, 3):
        play_round(live, number, rng)
    assert live_publish(live, user=referee).ok
    with pytest.raises(LiveRefused) as refused:
        live_hand_over(LiveTournament.objects.get(pk=live.pk), user=referee)
    assert refused.value.notices[0][0] == "published"


def test_handing_over_twice_is_done_once(live, referee):
    live_hand_over(live, user=referee)
    live_hand_over(live, user=referee)
    assert AuditEntry.objects.filter(action="live_hand_over", object_id=str(live.pk)).count() == 1
    assert live_take_back(live, user=referee).handed_over_at is None


def test_the_french_referee_reads_the_hand_over_in_french(signed_in, live):
    signed_in.cookies["django_language"] = "fr"
    page = signed_in.get(reverse("referee:live_hand_over", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Finir dans le tableur" in page.content.decode()


def test_the_french_referee_finishes_in_a_french_workbook_the_reader_takes(signed_in, live):
    import io

    from openpyxl import load_workbook

    from rules.sheet.reader import read_sheet

    play_round(live, 1, random.Random(3))
    signed_in.cookies["django_language"] = "fr"
    data = signed_in.get(reverse("referee:live_workbook", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="fr").content
    assert load_workbook(io.BytesIO(data), read_only=True).sheetnames[:3] == ["Tournoi", "Joueurs", "Parties"]
    signed_in.cookies["django_language"] = "en"
    english = signed_in.get(reverse("referee:live_workbook", args=[live.pk])).content
    today = live.tournament.end_date
    french, read_english = read_sheet(data, today=today), read_sheet(english, today=today)
    assert (french.players, french.games) == (read_english.players, read_english.games) and french.games


def test_the_run_page_leads_to_the_spreadsheet_mid_round_and_the_workbook_so_far_imports_once_filled_in(
        signed_in, live, referee):
    """The network lost in the middle of round 2 (two of its four results in): the run page leads to the hand-over
    at once, and the workbook so far holds every published table, the results in and blanks for the rest; filled in
    and finished in Excel, it imports as any sheet."""
    import io

    from openpyxl import load_workbook

    from tournaments.live.results import Result, results_record
    from tournaments.live.rounds import round_publish
    from tournaments.models import Game, LiveTable
    from tournaments.sheets.services import sheet_import_bytes

    hand_over = reverse("referee:live_hand_over", args=[live.pk])
    assert f'href="{hand_over}"' in signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    rng = random.Random(3)
    play_round(live, 1, rng)
    round_publish(round_pair(live, pool="A"))
    results_record(live, 2, [Result(1, "A", 10, 40), Result(2, "D", 20, 20)])

    run = signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()
    assert f'href="{hand_over}"' in run and "Finish in the spreadsheet" in run
    page = signed_in.get(hand_over).content.decode()
    assert signed_in.post(hand_over, {"action_key": _action_key(page), "confirm": "on"}).status_code == 302

    data = signed_in.get(reverse("referee:live_workbook", args=[live.pk])).content
    book = load_workbook(io.BytesIO(data))
    games = book["Games"]
    header = [cell.value for cell in games[1]]
    column = {name: header.index(name) for name in ("Round", "Table", "Result", "A losses %", "B losses %")}
    rows = [row for row in games.iter_rows(min_row=2) if row[column["Round"]].value is not None]
    by_game = {(row[column["Round"]].value, row[column["Table"]].value): row for row in rows}
    assert sorted(by_game) == [(r, t) for r in (1, 2) for t in (1, 2, 3, 4)]
    assert [by_game[(2, t)][column["Result"]].value for t in (1, 2, 3, 4)] == ["A", "D", None, None]

    # The referee finishes round 2 in Excel (and would pair round 3 there): the sheet imports as any.
    for table in (3, 4):
        row = by_game[(2, table)]
        row[column["Result"]].value, row[column["A losses %"]].value, row[column["B losses %"]].value = "B", 50, 5
    out = io.BytesIO()
    book.save(out)
    outcome = sheet_import_bytes(data=out.getvalue(), file_name="finished.xlsx", user=referee, refuse_if_live=True)
    assert outcome.ok, outcome.report.as_dict()["errors"]
    assert Game.objects.filter(tournament=live.tournament).count() == 8
    assert LiveTable.objects.filter(round__live=live).count() == 8  # the day's own tables stay as they were
def test_the_hand_over_counts_rounds_not_pool_rounds(signed_in, live, referee):
    """3 rounds played in 2 pools are 3 rounds (round numbers are shared by the pools), not 6."""
    for entrant in live.entrants.order_by("pk")[:4]:
        entrant_move(live, entrant, pool="B")
    rng = random.Random(5)
    for number in (1, 2, 3):
        for pool in ("A", "B"):
            play_round(live, number, rng, pool=pool)
    page = signed_in.get(reverse("referee:live_hand_over", args=[live.pk])).content.decode()
    assert "3 rounds are published on the site so far." in page
    live_hand_over(live, user=referee)
    assert AuditEntry.objects.get(action="live_hand_over").changes == {"published_rounds": 3}
