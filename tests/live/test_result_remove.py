"""A result entered on the wrong table, or before the game ended, is taken back from its card: the table waits for
its result again (the players' entries go with it), audited, the hall's pages told; refused, changing nothing, when
the page showed an older result, when there is none, and once a later round was paired with it."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from players.models import AuditEntry
from tests import factories
from tests.live.helpers import federation_players, form_fields, live_tournament
from tournaments.live.entrants import NewEntrant
from tournaments.live.links import entrant_link_path
from tournaments.live.results import Result, result_remove, results_record
from tournaments.live.rounds import round_pair, round_publish
from tournaments.live.start import live_begin
from tournaments.models import LiveTable, LiveTournament, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(referee):
    live = live_tournament(federation_players(8, clubs=8), players_enter_results=True)
    live.tournament.referees.add(referee)
    round_publish(round_pair(live, seed=1))
    return live


def _results(live, number: int = 1) -> str:
    return reverse("referee:live_results", args=[live.pk, number])


def _remove(live, table: int, number: int = 1) -> str:
    return reverse("referee:live_result_remove", args=[live.pk, number, table])


def _table(live, table: int, number: int = 1) -> LiveTable:
    return LiveTable.objects.get(round__live=live, round__number=number, table=table)


def test_a_result_on_the_wrong_table_is_removed_from_its_card_and_the_table_waits_again(signed_in, live):
    results_record(live, 1, [Result(3, "A", 10, 40)])
    version = LiveTournament.objects.get(pk=live.pk).version
    page = signed_in.get(_results(live)).content.decode()
    assert "Remove this result" in page
    response = signed_in.post(_remove(live, 3), form_fields(page, _remove(live, 3)), follow=True)
    assert response.status_code == 200
    assert "Table 3: its result is removed; the table waits for its result again." in response.content.decode()
    table = _table(live, 3)
    assert (table.result, table.a_losses, table.b_losses, table.claim_a, table.claim_b) == ("", None, None, None, None)
    assert table.revision == 2
    assert LiveTournament.objects.get(pk=live.pk).version > version  # the hall's pages show it gone
    [entry] = AuditEntry.objects.filter(action="live_results", summary__contains="removed")
    assert entry.summary.startswith("round 1, table 3: ")
    assert entry.summary.endswith("result removed (was: A 10% / 40%)")
    assert entry.changes["removed"] is True


def test_a_removed_table_takes_its_players_entries_again(client, live):
    results_record(live, 1, [Result(2, "B", 60, 10)])
    result_remove(live, 1, 2)
    table = _table(live, 2)
    for entrant in (table.a, table.b):
        page = client.get(entrant_link_path(entrant)).content.decode()
        fields = {**form_fields(page, entrant_link_path(entrant)), "result": "D", "a_losses": "20", "b_losses": "20"}
        client.post(entrant_link_path(entrant), fields)
    assert _table(live, 2).result == "D"


def test_a_result_changed_since_the_page_showed_it_is_not_removed(signed_in, live):
    results_record(live, 1, [Result(3, "A", 10, 40)])
    page = signed_in.get(_results(live)).content.decode()
    results_record(live, 1, [Result(3, "B", 50, 0)])  # another referee's tab, meanwhile
    response = signed_in.post(_remove(live, 3), form_fields(page, _remove(live, 3)))
    assert response.status_code == 400
    assert ("Table 3's result changed since your page showed it: B 50% / 0%. Nothing was removed: check it, then "
            "remove it again if it is wrong.") in response.content.decode().replace("&#x27;", "'")
    assert _table(live, 3).result == "B"


def test_a_table_with_no_result_has_nothing_to_remove(signed_in, live):
    results_record(live, 1, [Result(3, "A", 10, 40)])
    fields = form_fields(signed_in.get(_results(live)).content.decode(), _remove(live, 3))
    result_remove(live, 1, 3)  # removed in another tab
    response = signed_in.post(_remove(live, 3), {**fields, "revision": ""})
    assert response.status_code == 400
    assert "Table 3 has no result to remove." in response.content.decode()
    assert AuditEntry.objects.filter(summary__contains="removed").count() == 1


def test_a_double_tap_removes_once(signed_in, live):
    results_record(live, 1, [Result(3, "A", 10, 40)])
    fields = form_fields(signed_in.get(_results(live)).content.decode(), _remove(live, 3))
    signed_in.post(_remove(live, 3), fields)
    second = signed_in.post(_remove(live, 3), fields, follow=True)
    assert "Already done: this form was sent twice" in second.content.decode()
    assert AuditEntry.objects.filter(summary__contains="removed").count() == 1


def test_once_the_next_round_is_paired_with_it_a_result_is_corrected_not_removed(signed_in, live):
    results_record(live, 1, [Result(t.table, "A", 10, 40) for t in LiveTable.objects.filter(round__live=live)])
    round_pair(live, seed=2)
    page = signed_in.get(_results(live)).content.decode()
    assert "Remove this result" not in page
    response = signed_in.post(_remove(live, 3), {"revision": str(_table(live, 3).revision)})
    assert response.status_code == 400
    assert ("Round 1 is followed by a paired round, paired with this result: enter table 3's right result instead, "
            "with the reason for the change.") in response.content.decode().replace("&#x27;", "'")
    assert _table(live, 3).result == "A"


def test_with_two_pools_a_result_of_the_pool_not_paired_further_is_still_removed(signed_in, referee):
    players = federation_players(8, clubs=8)
    tournament = factories.tournament("Open à deux poules", start=date(2026, 11, 21), end=date(2026, 11, 21),
                                      rounds=3, status=Tournament.REGISTERED)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk, pool="AB"[n % 2]) for n, p in enumerate(players)])
    tournament.referees.add(referee)
    for pool in ("A", "B"):
        round_publish(round_pair(live, pool=pool, seed=1))
    tables = {t.round.pool: t for t in LiveTable.objects.filter(round__live=live).select_related("round")}
    results_record(live, 1, [Result(t.table, "A", 10, 40) for t in LiveTable.objects.filter(round__live=live)])
    round_pair(live, pool="A", seed=2)
    page = signed_in.get(_results(live)).content.decode()
    assert form_fields(page, _remove(live, tables["B"].table))  # pool B's card offers it
    assert f'action="{_remove(live, tables["A"].table)}"' not in page  # pool A's does not
    response = signed_in.post(_remove(live, tables["B"].table), form_fields(page, _remove(live, tables["B"].table)))
    assert response.status_code == 302 and _table(live, tables["B"].table).result == ""
    assert _table(live, tables["A"].table).result == "A"


def test_the_refusal_is_in_french_for_a_french_referee(signed_in, live):
    signed_in.cookies["django_language"] = "fr"
    response = signed_in.post(_remove(live, 3), {"revision": "0"})
    assert response.status_code == 400
    assert "La table 3 n’a pas de résultat à retirer." in response.content.decode()


def test_another_tournaments_referee_cannot_remove_a_result(client, live, django_user_model):
    results_record(live, 1, [Result(3, "A", 10, 40)])
    client.force_login(django_user_model.objects.create_user("other", password="other-pass-123"))
    response = client.post(_remove(live, 3), {"revision": "1"})
    assert response.status_code in (302, 403, 404)
    assert _table(live, 3).result == "A"
