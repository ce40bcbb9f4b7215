"""Retired IDs, the next free ID, and the board's championship override."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from django.db import connection, transaction

from players.governance import GovernanceError, player_exclude, player_retire_id
from players.models import AuditEntry, RetiredId
from players.services import next_free_id_preview, player_ids_allocate
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament
from tournaments.services import tournament_override


@pytest.mark.django_db
def test_it_never_gives_a_retired_id(board):
    ahead = next_free_id_preview() + 3
    player_retire_id(player_id=ahead, reason="used on the old site by a club account", user=board)
    with transaction.atomic():
        given = player_ids_allocate(6)
    assert ahead not in given and 99 not in given
    assert min(given) > ahead


@pytest.mark.django_db
def test_it_shows_the_next_free_id(board):
    before = next_free_id_preview()
    assert before != 99
    with transaction.atomic():
        assert player_ids_allocate(1) == [before]
    assert next_free_id_preview() > before


@pytest.mark.django_db
def test_it_refuses_to_retire_an_id_someone_holds(board):
    player = make_player("Actif")
    with pytest.raises(GovernanceError, match="exclude the player or merge"):
        player_retire_id(player_id=player.pk, reason="x", user=board)


@pytest.mark.django_db
def test_it_refuses_to_retire_twice_the_spare_or_without_reason(board):
    player_retire_id(player_id=5000, reason="x", user=board)
    with pytest.raises(GovernanceError, match="already retired"):
        player_retire_id(player_id=5000, reason="x", user=board)
    with pytest.raises(GovernanceError, match="spare"):
        player_retire_id(player_id=99, reason="x", user=board)
    with pytest.raises(GovernanceError, match="reason"):
        player_retire_id(player_id=5001, reason="", user=board)
    assert AuditEntry.objects.filter(action="retire_id").count() == 1


@pytest.mark.django_db
def test_it_keeps_an_excluded_players_id_retired_when_retired_again(board):
    player = make_player("Exclu")
    player_exclude(player=player, reason="x", user=board)
    with pytest.raises(GovernanceError, match="already retired"):
        player_retire_id(player_id=player.pk, reason="x", user=board)
    assert RetiredId.objects.filter(pk=player.pk).exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_it_gives_different_ids_to_two_referees_at_once():
    """Two transactions allocate at the same moment: the allocator row lock makes the second wait (PostgreSQL)."""
    results, barrier = [], threading.Barrier(2)

    def allocate():
        try:
            barrier.wait()
            with transaction.atomic():
                results.append(player_ids_allocate(20))
        finally:
            connection.close()

    threads = [threading.Thread(target=allocate) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 2
    assert not set(results[0]) & set(results[1])
    assert 99 not in results[0] + results[1]


# --- championship override ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_overrides_with_a_reason_and_replays_from_the_end_date(board):
    tournament = make_tournament(start=date(2025, 4, 12), days=1)
    tournament_override(tournament=tournament, counts=True, reason="club count miscounted by the sheet",
                        user=board)
    tournament.refresh_from_db()
    assert (tournament.counts_override, tournament.override_reason) == (True, "club count miscounted by the sheet")
    request = ReplayRequest.objects.get()
    assert (request.system_id, request.since) == ("adlg", date(2025, 4, 13))
    assert AuditEntry.objects.get(action="tournament_override").changes["counts_override"] == [None, True]


@pytest.mark.django_db
@pytest.mark.parametrize("counts", [True, False])
def test_it_needs_a_reason_to_override(board, counts):
    tournament = make_tournament()
    with pytest.raises(GovernanceError, match="reason"):
        tournament_override(tournament=tournament, counts=counts, reason="  ", user=board)
    assert not ReplayRequest.objects.exists()


@pytest.mark.django_db
def test_it_returns_to_the_charters_checks_without_a_reason(board):
    tournament = make_tournament()
    tournament_override(tournament=tournament, counts=False, reason="not announced", user=board)
    tournament_override(tournament=tournament, counts=None, reason="", user=board)
    tournament.refresh_from_db()
    assert tournament.counts_override is None
    assert ReplayRequest.objects.count() == 2


@pytest.mark.django_db
def test_it_does_nothing_when_the_decision_is_unchanged(board):
    tournament = make_tournament()
    tournament_override(tournament=tournament, counts=True, reason="r", user=board)
    tournament_override(tournament=tournament, counts=True, reason="r", user=board)
    assert ReplayRequest.objects.count() == 1
