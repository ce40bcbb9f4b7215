"""Withdrawing a sanction (an appeal upheld, a wrong ID): with a reason, audited; an exclusion's replays undone."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from django.db import connection
from django.urls import reverse

from players.governance import GovernanceError, player_exclude, sanction_give, sanction_withdraw
from players.models import AuditEntry, Player, RetiredId, Sanction
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament, play


@pytest.fixture
def board_client(client, board):
    client.force_login(board)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["yellow", "red"])
def test_it_erases_a_withdrawn_card_and_audits_why(board, kind):
    player = make_player("Martin", "Paul")
    card = sanction_give(player=player, kind=kind, reason="threw the dice", user=board)
    sanction_withdraw(sanction=card, reason="appeal upheld by the board", user=board)
    assert not Sanction.objects.filter(pk=card.pk).exists()
    entry = AuditEntry.objects.get(action="sanction_withdrawn")
    assert entry.user == board and entry.object_id == str(card.pk)
    assert entry.changes["withdrawal_reason"] == "appeal upheld by the board"
    assert entry.changes["kind"] == kind and entry.changes["player"] == player.pk
    assert "threw the dice" not in str(entry.changes) + entry.summary  # the card's own reason goes with it


@pytest.mark.django_db
def test_a_withdrawn_card_needs_a_reason(board):
    card = sanction_give(player=make_player(), kind="yellow", reason="x", user=board)
    with pytest.raises(GovernanceError, match="reason for the withdrawal"):
        sanction_withdraw(sanction=card, reason="  ", user=board)
    assert Sanction.objects.filter(pk=card.pk).exists()


@pytest.mark.django_db
def test_a_withdrawn_red_card_leaves_the_public_notices(board, client):
    tournament = make_tournament("Coupe des Flandres")
    card = sanction_give(player=make_player(), kind="red", reason="x", user=board, tournament=tournament)
    assert "Coupe des Flandres" in client.get(reverse("notices")).content.decode()
    sanction_withdraw(sanction=card, reason="mistaken ID", user=board)
    assert "Coupe des Flandres" not in client.get(reverse("notices")).content.decode()


@pytest.mark.django_db
def test_a_withdrawn_exclusion_gives_the_player_back_and_asks_for_a_replay(board):
    player, opponent = make_player("Martin", "Paul"), make_player("Autre")
    play(make_tournament(start=date(2024, 5, 4)), player, opponent)
    exclusion = player_exclude(player=player, reason="cheating", user=board)
    ReplayRequest.objects.all().delete()
    sanction_withdraw(sanction=exclusion, reason="the appeal committee found no cheating", user=board)
    player.refresh_from_db()
    assert not player.is_excluded
    assert Player.objects.public().filter(pk=player.pk).exists()
    assert not RetiredId.objects.filter(pk=player.pk).exists()
    assert not Sanction.objects.filter(player=player).exists()
    assert list(ReplayRequest.objects.values_list("system_id", "since")) == [("adlg", None)]  # from scratch
    entry = AuditEntry.objects.get(action="exclusion_withdrawn")
    assert entry.changes["excluded_at"][1] is None
    assert entry.changes["withdrawal_reason"] == "the appeal committee found no cheating"


@pytest.mark.django_db
def test_withdrawing_an_exclusion_keeps_an_id_retired_for_another_reason(board):
    player = make_player()
    exclusion = player_exclude(player=player, reason="cheating", user=board)
    RetiredId.objects.filter(pk=player.pk).update(reason="used by the old site for someone else")
    sanction_withdraw(sanction=exclusion, reason="appeal", user=board)
    assert RetiredId.objects.filter(pk=player.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_withdrawn_exclusion_replays_history_back_to_what_it_was(board):
    from tests.ratings.helpers import derived_state, imported, roster, sheet

    roster()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16)))
    before = derived_state()
    cheat = Player.objects.get(pk=103)
    exclusion = player_exclude(player=cheat, reason="cheating", user=board)
    excluded = derived_state()
    assert excluded != before  # his games were void for everyone: ratings and standings changed
    assert 103 not in {row[1] for row in excluded["ratings"]}
    sanction_withdraw(sanction=exclusion, reason="appeal upheld", user=board)
    assert derived_state() == before
    assert not ReplayRequest.objects.filter(status__in=ReplayRequest.OPEN).exists()


@pytest.mark.django_db
def test_the_withdrawal_page_shows_the_player_and_what_follows(board_client, board):
    player = make_player("Martin", "Paul")
    exclusion = player_exclude(player=player, reason="loaded dice", user=board)
    url = reverse("board:sanction_withdraw", args=[exclusion.pk])
    page = board_client.get(url).content.decode()
    assert f"Withdraw the exclusion of {player.full_name} ({player.pk})" in page
    assert "loaded dice" in page and "back on every public list" in page
    response = board_client.post(url, {"reason": ""})
    assert response.status_code == 200 and "required" in response.content.decode()
    player.refresh_from_db()
    assert player.is_excluded
    assert board_client.post(url, {"reason": "appeal upheld"}).status_code == 302
    player.refresh_from_db()
    assert not player.is_excluded


@pytest.mark.django_db
def test_the_sanctions_page_links_each_sanction_to_its_withdrawal(board_client, board):
    card = sanction_give(player=make_player(), kind="yellow", reason="x", user=board)
    page = board_client.get(reverse("board:sanctions")).content.decode()
    assert reverse("board:sanction_withdraw", args=[card.pk]) in page


@pytest.mark.django_db
def test_only_the_board_withdraws(client, referee, board):
    card = sanction_give(player=make_player(), kind="yellow", reason="x", user=board)
    client.force_login(referee)
    url = reverse("board:sanction_withdraw", args=[card.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "mine"}).status_code == 403
    assert Sanction.objects.filter(pk=card.pk).exists()


# --- twice at once -------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["yellow", "exclusion"])
def test_withdrawing_the_same_sanction_twice_tells_the_second_it_was_already_withdrawn(board, kind):
    player = make_player("Martin", "Paul")
    sanction = sanction_give(player=player, kind=kind, reason="x", user=board)
    stale = Sanction.objects.get(pk=sanction.pk)  # what the second board member's page loaded
    sanction_withdraw(sanction=sanction, reason="appeal upheld", user=board)
    with pytest.raises(GovernanceError, match="already withdrawn"):
        sanction_withdraw(sanction=stale, reason="appeal upheld", user=board)
    assert AuditEntry.objects.filter(action__in=["sanction_withdrawn", "exclusion_withdrawn"]).count() == 1


@pytest.mark.django_db
def test_the_page_tells_a_second_click_the_sanction_was_already_withdrawn(board_client, board):
    card = sanction_give(player=make_player("Martin"), kind="yellow", reason="x", user=board)
    url = reverse("board:sanction_withdraw", args=[card.pk])
    assert board_client.post(url, {"reason": "appeal upheld"}).status_code == 302
    response = board_client.post(url, {"reason": "appeal upheld"}, follow=True)
    assert response.status_code == 200
    assert f"Sanction #{card.pk} was already withdrawn" in response.content.decode()
    assert board_client.get(url).status_code == 404


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["red", "exclusion"])
def test_two_board_members_withdrawing_at_once_get_one_withdrawal_and_one_message(board, kind):
    """Two transactions at the same moment (PostgreSQL): the row lock makes the second wait, then read again."""
    sanction = sanction_give(player=make_player("Martin"), kind=kind, reason="x", user=board)
    outcomes, barrier = [], threading.Barrier(2)

    def withdraw(page):  # what each board member's page loaded
        try:
            barrier.wait()
            sanction_withdraw(sanction=page, reason="appeal upheld", user=board)
            outcomes.append("withdrawn")
        except GovernanceError as exc:
            outcomes.append(str(exc))
        except Exception as exc:  # what two pages at once once gave: DoesNotExist, a server error
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=withdraw, args=(Sanction.objects.get(pk=sanction.pk),)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes)[1] == "withdrawn", outcomes
    assert "already withdrawn" in sorted(outcomes)[0], outcomes
    assert not Sanction.objects.filter(pk=sanction.pk).exists()
