"""Every change made in the admin is audited with what changed, from what, to what, inline objects included
(the reported opening balance 1275 → 1375 and penalty 0 → 40 were audited as `change` with no fields), and the
audit log page shows it in words, never a Python dict."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players.models import AuditEntry, OpeningBalance
from tests.governance.factories import make_player, make_tournament
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, board):
    client.force_login(board)
    return client


def _player_form(player, balances) -> dict:
    form = {"id": player.pk, "last_name": player.last_name, "first_name": player.first_name,
            "country": player.country_id or "",
            "opening_balances-TOTAL_FORMS": len(balances), "opening_balances-INITIAL_FORMS": len(balances)}
    for number, balance in enumerate(balances):
        form |= {f"opening_balances-{number}-id": balance["id"], f"opening_balances-{number}-player": player.pk,
                 f"opening_balances-{number}-system": balance["system"],
                 f"opening_balances-{number}-rating": balance["rating"],
                 f"opening_balances-{number}-games": balance["games"],
                 f"opening_balances-{number}-as_of": balance.get("as_of", "")}
        if balance.get("delete"):
            form[f"opening_balances-{number}-DELETE"] = "on"
    return form


def test_an_inline_opening_balance_change_is_audited_with_its_values(admin_client):
    player = make_player("Martin", pk=101)
    balance = OpeningBalance.objects.create(player=player, system_id="adlg", rating=1275, games=40,
                                            as_of=date(2019, 12, 31))
    response = admin_client.post(
        reverse("admin:players_player_change", args=[player.pk]),
        _player_form(player, [{"id": balance.pk, "system": "adlg", "rating": 1375, "games": 40,
                               "as_of": "2019-12-31"}]),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = AuditEntry.objects.get(object_type="players.OpeningBalance", action="change")
    assert entry.changes == {"rating": [1275, 1375]}
    assert entry.object_id == str(balance.pk) and "players.Player 101" in entry.summary
    # Nothing of the player's own changed: no empty "change" entry for it.
    assert list(AuditEntry.objects.filter(object_type="players.Player", action="change")
                .values_list("changes", flat=True)) == []


def test_an_inline_deletion_is_audited_with_what_was_deleted(admin_client):
    player = make_player("Martin", pk=101)
    balance = OpeningBalance.objects.create(player=player, system_id="adlg", rating=1275, games=40)
    admin_client.post(
        reverse("admin:players_player_change", args=[player.pk]),
        _player_form(player, [{"id": balance.pk, "system": "adlg", "rating": 1275, "games": 40, "delete": True}]),
    )
    entry = AuditEntry.objects.get(object_type="players.OpeningBalance", action="delete")
    assert entry.object_id == str(balance.pk)
    assert entry.changes["rating"] == 1275 and entry.changes["games"] == 40


def test_a_penalty_changed_in_the_tournaments_inline_is_audited(admin_client, referee):
    start = timezone.localdate() + timedelta(days=30)
    tournament = make_tournament("Open", start=start, referees=[referee])
    player = make_player("Martin", pk=101)
    registration = Registration.objects.create(tournament=tournament, player=player)
    form = {
        "system": "adlg", "name": "Open", "start_date": start, "end_date": start + timedelta(days=1),
        "city": "Paris", "country": "FR", "pools": 1, "rounds": 3, "official": "on", "format": "",
        "referees": [referee.pk], "referee_name": "",
        "registrations-TOTAL_FORMS": 1, "registrations-INITIAL_FORMS": 1,
        "registrations-0-id": registration.pk, "registrations-0-tournament": tournament.pk,
        "registrations-0-player": player.pk, "registrations-0-pool": "A", "registrations-0-army": "",
        "registrations-0-penalty": 40, "registrations-0-penalty_reason": "late list",
        "registrations-0-row": "",
    }
    response = admin_client.post(reverse("admin:tournaments_tournament_change", args=[tournament.pk]), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = AuditEntry.objects.get(object_type="tournaments.Registration", action="change")
    assert entry.changes == {"penalty": [0, 40], "penalty_reason": ["", "late list"]}


def test_a_change_of_referee_accounts_is_audited(admin_client, referee, other_referee):
    start = timezone.localdate() + timedelta(days=30)
    tournament = make_tournament("Open", start=start, referees=[referee])
    form = {
        "system": "adlg", "name": "Open", "start_date": start, "end_date": start + timedelta(days=1),
        "city": "Paris", "country": "FR", "pools": 1, "rounds": 3, "official": "on", "format": "",
        "referees": [referee.pk, other_referee.pk], "referee_name": "",
        "registrations-TOTAL_FORMS": 0, "registrations-INITIAL_FORMS": 0,
    }
    response = admin_client.post(reverse("admin:tournaments_tournament_change", args=[tournament.pk]), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = AuditEntry.objects.get(object_type="tournaments.Tournament", action="change")
    assert entry.changes["referees"] == [[referee.pk], sorted([referee.pk, other_referee.pk])]


def test_the_audit_page_says_what_changed_in_words(admin_client, board):
    player = make_player("Martin", pk=101)
    balance = OpeningBalance.objects.create(player=player, system_id="adlg", rating=1275, games=40)
    admin_client.post(reverse("admin:players_player_change", args=[player.pk]),
                      _player_form(player, [{"id": balance.pk, "system": "adlg", "rating": 1375, "games": 40}]))
    page = admin_client.get(reverse("board:audit")).content.decode()
    assert "rating: 1275 → 1375" in page
    assert "{&#x27;" not in page and "[1275, 1375]" not in page


def test_the_audit_page_spells_out_recorded_values(admin_client, board):
    AuditEntry.objects.create(user=board, action="import_sheet", object_type="tournaments.Tournament",
                              object_id="4", summary="x.xlsx",
                              changes={"sheet": 7, "new_players": {"N1": 2311}, "failures": []})
    page = admin_client.get(reverse("board:audit")).content.decode()
    assert "new players: N1: 2311" in page and "sheet: 7" in page and "failures: —" in page
