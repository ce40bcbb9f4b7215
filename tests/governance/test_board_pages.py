"""The board's and referees' pages do each task without a shell: sanction, merge, retire, override, exception, audit."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from players.governance import sanction_give
from players.models import AuditEntry, RetiredId, Sanction
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament, play, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_client(client, board):
    client.force_login(board)
    return client


def test_it_gives_a_yellow_card_from_the_sanctions_page(board_client, entrant):
    response = board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "yellow", "reason": "late list twice", "decided_on": "2025-05-01"})
    assert response.status_code == 302
    card = Sanction.objects.get(player=entrant)
    assert (card.kind, card.expires_on) == ("yellow", date(2026, 5, 1))


def test_it_lists_the_current_sanctions_with_their_reasons(board_client, board, entrant):
    sanction_give(player=entrant, kind="red", reason="threw the dice at an opponent", user=board)
    page = board_client.get(reverse("board:sanctions")).content.decode()
    assert "threw the dice at an opponent" in page and entrant.last_name in page


def test_it_excludes_from_the_sanctions_page(board_client, entrant):
    board_client.post(reverse("board:sanctions"), {
        "player": entrant.pk, "kind": "exclusion", "reason": "cheating", "decided_on": "2025-05-01"})
    entrant.refresh_from_db()
    assert entrant.is_excluded
    assert RetiredId.objects.filter(pk=entrant.pk).exists()


def test_it_shows_a_refusal_on_the_sanctions_page(board_client):
    response = board_client.post(reverse("board:sanctions"), {
        "player": 99, "kind": "yellow", "reason": "x", "decided_on": "2025-05-01"})
    assert response.status_code == 200
    assert "spare player" in response.content.decode()
    response = board_client.post(reverse("board:sanctions"), {
        "player": 987654, "kind": "yellow", "reason": "x", "decided_on": "2025-05-01"})
    assert "No player has the ID 987654." in response.content.decode()


def test_it_shows_both_records_before_merging(board_client):
    keep, duplicate = make_player("Dupont", "Jean"), make_player("Dupond", "Jean")
    response = board_client.post(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk})
    page = response.content.decode()
    assert "Dupont" in page and "Dupond" in page and 'name="confirm" value="yes"' in page
    duplicate.refresh_from_db()
    assert duplicate.merged_into is None


def test_it_merges_once_confirmed(board_client):
    keep, duplicate, opponent = make_player("Dupont"), make_player("Dupond"), make_player("Autre")
    play(make_tournament(), duplicate, opponent)
    response = board_client.post(reverse("board:merge"),
                                 {"keep": keep.pk, "duplicate": duplicate.pk, "confirm": "yes"})
    assert response.status_code == 302
    duplicate.refresh_from_db()
    assert duplicate.merged_into == keep
    assert ReplayRequest.objects.exists()


def test_it_explains_a_refused_merge(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    register(make_tournament("Commun"), keep, duplicate)
    response = board_client.post(reverse("board:merge"),
                                 {"keep": keep.pk, "duplicate": duplicate.pk, "confirm": "yes"})
    assert response.status_code == 200
    assert "not duplicates" in response.content.decode()


def test_it_opens_the_merge_confirmation_from_the_admin_action(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    page = board_client.get(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk}).content.decode()
    assert 'name="confirm" value="yes"' in page


def test_it_retires_an_id_and_shows_the_next_free_one(board_client):
    from players.services import next_free_id_preview

    page = board_client.get(reverse("board:ids")).content.decode()
    assert str(next_free_id_preview()) in page
    assert board_client.post(reverse("board:ids"), {"player_id": 7777, "reason": "old club account"}).status_code == 302
    assert RetiredId.objects.get(pk=7777).reason == "old club account"
    assert "7778" in board_client.get(reverse("board:ids")).content.decode()


def test_it_overrides_from_the_page(board_client, tournament):
    url = reverse("board:tournament_override", args=[tournament.pk])
    response = board_client.post(url, {"counts": "no", "reason": ""})
    assert "Give the reason" in response.content.decode()
    assert board_client.post(url, {"counts": "no", "reason": "two clubs only"}).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.counts_override, tournament.override_reason) == (False, "two clubs only")


def test_it_approves_an_exception_from_the_page(board_client, referee):
    late = make_tournament("Annoncé tard", start=timezone.localdate() + timedelta(days=10), referees=[referee],
                           announced_on=timezone.localdate())
    url = reverse("board:tournament_exception", args=[late.pk])
    assert "less than 2 months" in board_client.get(url).content.decode()
    assert board_client.post(url, {"approved": "on", "reason": "replaces a cancelled event"}).status_code == 302
    late.refresh_from_db()
    assert late.exception_approved and late.exception_reason == "replaces a cancelled event"
    assert AuditEntry.objects.filter(action="tournament_exception", object_id=str(late.pk)).exists()


def test_the_exception_page_says_when_no_announcement_date_is_recorded(board_client, referee):
    undated = make_tournament("Sans date", start=timezone.localdate() + timedelta(days=10), referees=[referee],
                              announced_on=None)
    page = board_client.get(reverse("board:tournament_exception", args=[undated.pk])).content.decode()
    assert "No announcement date recorded" in page and "Announced on ," not in page


def test_the_merge_confirmation_heads_each_record_in_french_with_its_space(board_client):
    keep, duplicate = make_player("Dupont"), make_player("Dupond")
    page = board_client.get(reverse("board:merge"), {"keep": keep.pk, "duplicate": duplicate.pk},
                            HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Conservée : {keep.full_name} ({keep.pk})" in page


def test_it_lists_tournaments_for_the_board(board_client, tournament):
    page = board_client.get(reverse("board:tournaments"), {"q": "référé"}).content.decode()
    assert tournament.name in page


def test_it_filters_the_audit_log(board_client, board, entrant):
    sanction_give(player=entrant, kind="yellow", reason="x", user=board)
    make_tournament("Autre")
    AuditEntry.objects.create(user=None, action="import_players", object_type="players.Player", summary="imported")
    page = board_client.get(reverse("board:audit"), {"action": "sanction_yellow"}).content.decode()
    assert "sanction_yellow" in page and "imported" not in page
    page = board_client.get(reverse("board:audit"), {"user": "board"}).content.decode()
    assert "sanction_yellow" in page and "imported" not in page
    page = board_client.get(reverse("board:audit"), {"object_type": "players.Player"}).content.decode()
    assert "imported" in page


# --- the referee's view of the cards --------------------------------------------------------------------------------


@pytest.fixture
def carded(board, tournament, entrant):
    sanction_give(player=entrant, kind="yellow", reason="SECRET-YELLOW-MOTIVE", user=board)
    return entrant


def test_the_referee_sees_the_card_of_a_registered_player_but_not_the_reason(client, referee, tournament, carded):
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert carded.last_name in page
    assert "SECRET-YELLOW-MOTIVE" not in page


def test_the_board_sees_the_reason_on_the_cards_page(board_client, tournament, carded):
    page = board_client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "SECRET-YELLOW-MOTIVE" in page


def test_the_cards_page_closes_a_week_after_the_tournament_has_ended(client, referee, carded):
    ended = make_tournament("Fini", start=timezone.localdate() - timedelta(days=10), referees=[referee])
    ended.end_date = timezone.localdate() - timedelta(days=8)
    ended.save()
    register(ended, carded)
    client.force_login(referee)
    assert client.get(reverse("board:tournament_cards", args=[ended.pk])).status_code == 403


def test_the_cards_page_lists_no_player_of_another_tournament(client, referee, tournament, board):
    stranger = make_player("Étranger")
    sanction_give(player=stranger, kind="red", reason="x", user=board)
    client.force_login(referee)
    page = client.get(reverse("board:tournament_cards", args=[tournament.pk])).content.decode()
    assert "Étranger" not in page


def test_the_forms_carry_a_csrf_token(client, board):
    client = type(client)(enforce_csrf_checks=True)
    client.force_login(board)
    response = client.post(reverse("board:ids"), {"player_id": 7777, "reason": "x"})
    assert response.status_code == 403
    assert not RetiredId.objects.filter(pk=7777).exists()
    assert 'name="csrfmiddlewaretoken"' in client.get(reverse("board:ids")).content.decode()
