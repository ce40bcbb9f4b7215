"""The referee's keyboard grid of a round's results: a row per table, each row saved alone (the script's JSON POST)
through the one-table form's service, with its checks, refusals in words, revision and idempotency; without
JavaScript one form posting every row, each row recorded on its own."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.models import LiveTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(24, clubs=24))
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    return live


def _grid(live, number: int = 1) -> str:
    return reverse("referee:live_grid", args=[live.pk, number])


def _revision(html: str, table: int) -> str:
    return re.search(rf'name="t{table}-revision" value="(\d+)"', html).group(1)


def _row(client, live, table: int, result: str, a: str = "", b: str = "", *, revision: str = "0", **extra):
    data = {"row": str(table), f"t{table}-result": result, f"t{table}-a_losses": a, f"t{table}-b_losses": b,
            f"t{table}-revision": revision, **extra}
    return client.post(_grid(live), data, HTTP_ACCEPT="application/json")


def _stored(live, table: int) -> tuple:
    t = LiveTable.objects.get(round__live=live, round__number=1, table=table)
    return t.result, t.a_losses, t.b_losses


def test_the_grid_shows_one_row_per_table_with_its_players_and_the_forms_fields(signed_in, live):
    page = signed_in.get(_grid(live))
    text = page.content.decode()
    assert page.status_code == 200
    assert len(re.findall(r'<tr id="grid-\d+" data-table=', text)) == 12
    for table in LiveTable.objects.filter(round__live=live).select_related("a", "b"):
        row = text.split(f'id="grid-{table.table}"')[1].split("</tr>")[0]
        assert table.a.last_name in row and table.b.last_name in row
        for field in ("result", "a_losses", "b_losses", "revision"):
            assert f'name="t{table.table}-{field}"' in row
    assert 'aria-live="polite"' in text and "To enter" in text


def test_the_results_page_and_the_run_page_lead_to_the_grid(signed_in, live):
    grid = _grid(live)
    assert f'href="{grid}"' in signed_in.get(reverse("referee:live_results", args=[live.pk, 1])).content.decode()
    assert f'href="{grid}"' in signed_in.get(reverse("referee:live_run", args=[live.pk])).content.decode()


def test_a_row_left_is_saved_alone_and_answers_its_state_in_json(signed_in, live, django_assert_max_num_queries):
    with django_assert_max_num_queries(24):
        answer = _row(signed_in, live, 3, "a", "10", "40")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["state"] == "saved" and body["table"] == 3 and body["revision"] == 1
    assert body["shown"] == "98 – 12" and body["entered"] is True
    assert _stored(live, 3) == ("A", 10, 40)
    assert _stored(live, 4) == ("", None, None)  # the other rows are untouched


def test_the_same_row_sent_twice_is_counted_once(signed_in, live):
    for _ in range(2):
        assert _row(signed_in, live, 2, "D", "20", "20").json()["state"] == "saved"
    assert AuditEntry.objects.filter(action="live_results").count() == 1
    assert LiveTable.objects.get(round__live=live, table=2).revision == 1


def test_a_conflicting_edit_from_another_tab_is_refused_and_says_what_is_there(signed_in, live, referee):
    page = signed_in.get(_grid(live)).content.decode()
    revision = _revision(page, 5)
    assert _row(signed_in, live, 5, "A", "0", "50", revision=revision).json()["state"] == "saved"
    other = _row(signed_in, live, 5, "B", "50", "0", revision=revision)  # the second tab, shown before it
    body = other.json()
    assert other.status_code == 400 and body["state"] == "error"
    assert body["entered"] is True  # the grid's count still counts the table
    [said] = body["errors"]
    assert said.startswith(f"Table 5 already has a result, entered by {referee.get_username()} at ")
    assert said.endswith(": A 0% / 50%. Nothing was changed: send yours again to replace it.")
    assert _stored(live, 5) == ("A", 0, 50)
    # Sent again with the revision the answer gave, it replaces it, as the one-table form does.
    again = _row(signed_in, live, 5, "B", "50", "0", revision=str(body["revision"]))
    assert again.json()["state"] == "saved" and _stored(live, 5) == ("B", 50, 0)


def test_a_wrong_row_is_refused_in_words_and_nothing_changes(signed_in, live):
    for typed in (("X", "10", "20"), ("A", "150", "20"), ("A", "ten", "20")):
        answer = _row(signed_in, live, 1, *typed)
        assert answer.status_code == 400
        assert answer.json()["errors"] == ["Type one of the codes A, B, D, DD, FA, FB; losses are whole numbers "
                                           "from 0 to 100."]
    assert _stored(live, 1) == ("", None, None)


def test_a_wrong_row_is_refused_in_french_for_a_french_referee(signed_in, live):
    signed_in.cookies["django_language"] = "fr"
    answer = signed_in.post(_grid(live), {"row": "1", "t1-result": "X", "t1-a_losses": "1", "t1-b_losses": "2",
                                          "t1-revision": "0"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.json()["errors"] == ["Tapez l’un des codes A, B, D, DD, FA, FB\u00a0; les pertes sont des nombres "
                                       "entiers de 0 à 100."]
    page = signed_in.get(_grid(live), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Grille des résultats de la ronde 1" in page and "les pertes de chaque armée en %. Tab" in page
    assert "À saisir" in page


def test_a_row_whose_winner_lost_more_asks_the_forms_question_then_counts(signed_in, live):
    asked = _row(signed_in, live, 6, "A", "60", "20")
    body = asked.json()
    assert asked.status_code == 400 and body["confirm"] is True
    assert "wins with more losses (60%)" in body["errors"][0]
    assert _stored(live, 6) == ("", None, None)
    done = _row(signed_in, live, 6, "A", "60", "20", **{"t6-confirm": "on"})
    assert done.json()["state"] == "saved" and _stored(live, 6) == ("A", 60, 20)


def test_a_blank_row_is_left_as_it_is(signed_in, live):
    results_record(live, 1, [Result(7, "A", 0, 30)])
    answer = _row(signed_in, live, 7, "", "", "")
    body = answer.json()
    assert answer.status_code == 200 and _stored(live, 7) == ("A", 0, 30)
    assert body["state"] == "kept" and body["entered"] is True and body["shown"] == "100 – 10"
    blank = _row(signed_in, live, 8, "", "", "").json()
    assert blank["state"] == "empty" and blank["entered"] is False


def test_without_javascript_the_grid_posts_every_row_and_a_wrong_row_comes_back_with_its_words(signed_in, live):
    page = signed_in.get(_grid(live)).content.decode()
    key = re.search(r'name="action_key" value="([0-9a-f]{32})"', page).group(1)
    data = {"action_key": key}
    for table in range(1, 13):
        data.update({f"t{table}-result": "A", f"t{table}-a_losses": str(table), f"t{table}-b_losses": "50",
                     f"t{table}-revision": _revision(page, table)})
    data.update({"t4-result": "Q", "t12-result": "", "t12-a_losses": "", "t12-b_losses": ""})
    refused = signed_in.post(_grid(live), data)
    text = refused.content.decode()
    assert refused.status_code == 400
    row = text.split('id="grid-4"')[1].split("</tr>")[0]
    assert 'value="Q"' in row and "Type one of the codes" in row and 'aria-invalid="true"' in row
    assert "1 row was refused" in text
    assert [_stored(live, t)[0] for t in range(1, 13)] == ["A"] * 3 + [""] + ["A"] * 7 + [""]
    # The row corrected, the whole grid sent again: the rows saved before change nothing, the new one counts.
    data.update({"t4-result": "B", "t4-a_losses": "60", "t4-b_losses": "5",
                 "action_key": re.search(r'name="action_key" value="([0-9a-f]{32})"', text).group(1)})
    done = signed_in.post(_grid(live), data)
    assert done.status_code == 302 and done["Location"] == _grid(live)
    assert _stored(live, 4) == ("B", 60, 5)
    assert AuditEntry.objects.filter(action="live_results").count() == 11
    # The same grid sent once more (a double click): done once.
    assert signed_in.post(_grid(live), data)["Location"] == _grid(live)
    assert AuditEntry.objects.filter(action="live_results").count() == 11


def test_a_grid_of_another_round_or_a_round_not_published_is_not_found(signed_in, live):
    assert signed_in.get(_grid(live, 2)).status_code == 404
    assert signed_in.get(_grid(live, 99)).status_code == 404


def test_the_grid_of_twelve_tables_reads_the_database_a_bounded_number_of_times(signed_in, live,
                                                                                django_assert_max_num_queries):
    for table in range(1, 13):
        results_record(live, 1, [Result(table, "D", 10, 10)])
    with django_assert_max_num_queries(22):
        assert signed_in.get(_grid(live)).status_code == 200


def test_a_change_once_the_next_round_is_paired_asks_the_grids_reason(signed_in, live):
    results_record(live, 1, [Result(table, "D", 10, 10) for table in range(1, 13)])
    round_pair(live)
    page = signed_in.get(_grid(live)).content.decode()
    assert 'id="grid-reason"' in page
    revision = _revision(page, 2)
    refused = _row(signed_in, live, 2, "A", "0", "30", revision=revision)
    assert refused.json()["errors"] == ["Round 1 is followed by a paired round: give the reason for changing this "
                                        "result."]
    done = _row(signed_in, live, 2, "A", "0", "30", revision=revision, reason="The slip was misread")
    assert done.json()["state"] == "saved" and _stored(live, 2) == ("A", 0, 30)


def test_a_published_days_grid_leads_to_the_result_cards(signed_in, live):
    from django.utils import timezone

    from tournaments.models import LiveTournament

    LiveTournament.objects.filter(pk=live.pk).update(published_at=timezone.now())
    for response in (signed_in.get(_grid(live)), _row(signed_in, live, 1, "A", "0", "30")):
        assert response.status_code == 302
        assert response["Location"] == reverse("referee:live_results", args=[live.pk, 1])
    assert _stored(live, 1) == ("", None, None)
