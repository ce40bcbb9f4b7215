"""Merging two records of one person: the duplicate's facts move, its ID is retired, history replays."""

from __future__ import annotations

from datetime import date

import pytest

from players.governance import GovernanceError, player_merge
from players.models import AuditEntry, OpeningBalance, Player, RetiredId, Sanction
from ratings.models import ReplayRequest
from tests.governance.factories import make_player, make_tournament, play, register
from tournaments.models import Game, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def keep():
    return make_player("Dupont", "Jean")


@pytest.fixture
def duplicate():
    return make_player("Dupont", "J.")


@pytest.fixture
def opponent():
    return make_player("Adversaire", "Luc")


def test_it_moves_games_and_registrations(board, keep, duplicate, opponent):
    first = make_tournament("Premier", start=date(2023, 3, 4))
    second = make_tournament("Second", start=date(2024, 3, 4))
    play(first, keep, opponent)
    play(second, opponent, duplicate)
    player_merge(keep=keep, duplicate=duplicate, user=board)
    assert Game.objects.filter(player_b=keep, tournament=second).exists()
    assert not Game.objects.filter(player_a=duplicate).exists() and not Game.objects.filter(player_b=duplicate).exists()
    assert set(Registration.objects.filter(player=keep).values_list("tournament__name", flat=True)) == {
        "Premier", "Second"}


def test_it_retires_the_duplicate_and_points_it_to_the_kept_record(board, keep, duplicate):
    player_merge(keep=keep, duplicate=duplicate, user=board)
    duplicate.refresh_from_db()
    assert duplicate.merged_into == keep
    assert RetiredId.objects.filter(pk=duplicate.pk).exists()
    assert list(Player.objects.public().filter(pk__in=[keep.pk, duplicate.pk])) == [keep]


def test_it_replays_from_the_duplicates_first_tournament(board, keep, duplicate, opponent):
    early = make_tournament("Early", start=date(2022, 9, 10), days=1)
    play(early, duplicate, opponent)
    play(make_tournament("Late", start=date(2024, 9, 10)), duplicate, opponent)
    player_merge(keep=keep, duplicate=duplicate, user=board)
    request = ReplayRequest.objects.get()
    assert (request.system_id, request.since) == ("adlg", date(2022, 9, 11))


def test_it_replays_from_scratch_when_an_opening_balance_moves(board, keep, duplicate):
    OpeningBalance.objects.create(player=duplicate, system_id="adlg", rating=1700, games=40)
    player_merge(keep=keep, duplicate=duplicate, user=board)
    assert OpeningBalance.objects.get(system_id="adlg").player == keep
    assert ReplayRequest.objects.get().since is None


def test_it_moves_cards_and_the_account(board, keep, duplicate, player_user):
    duplicate.user = player_user
    duplicate.save()
    Sanction.objects.create(player=duplicate, kind=Sanction.RED, reason="x", decided_on=date(2025, 1, 1))
    player_merge(keep=keep, duplicate=duplicate, user=board)
    keep.refresh_from_db()
    assert keep.user == player_user
    assert Sanction.objects.get().player == keep


def test_it_refuses_two_players_registered_in_the_same_tournament(board, keep, duplicate):
    shared = make_tournament("Commun")
    register(shared, keep, duplicate)
    with pytest.raises(GovernanceError) as refused:
        player_merge(keep=keep, duplicate=duplicate, user=board)
    assert f"tournament(s) {shared.pk}" in str(refused.value)
    assert "not duplicates" in str(refused.value)
    duplicate.refresh_from_db()
    assert duplicate.merged_into is None
    assert not RetiredId.objects.filter(pk=duplicate.pk).exists()


def test_it_refuses_two_opening_balances_in_one_system(board, keep, duplicate):
    OpeningBalance.objects.create(player=keep, system_id="adlg", rating=1500, games=3)
    OpeningBalance.objects.create(player=duplicate, system_id="adlg", rating=1700, games=40)
    with pytest.raises(GovernanceError, match="both have an opening balance in adlg"):
        player_merge(keep=keep, duplicate=duplicate, user=board)


def test_it_refuses_a_record_merged_into_itself(board, keep):
    with pytest.raises(GovernanceError, match="two different players"):
        player_merge(keep=keep, duplicate=keep, user=board)


def test_it_refuses_a_record_already_merged(board, keep, duplicate):
    player_merge(keep=keep, duplicate=duplicate, user=board)
    with pytest.raises(GovernanceError, match="already merged"):
        player_merge(keep=make_player("Troisième"), duplicate=duplicate, user=board)


def test_it_refuses_the_spare(board, keep):
    with pytest.raises(GovernanceError, match="spare"):
        player_merge(keep=keep, duplicate=Player.objects.get(pk=99), user=board)


def test_it_audits_the_merge(board, keep, duplicate, opponent):
    play(make_tournament(), duplicate, opponent)
    player_merge(keep=keep, duplicate=duplicate, user=board)
    entry = AuditEntry.objects.get(action="player_merge")
    assert entry.changes["keep"] == keep.pk
    assert entry.changes["moved"]["games_as_a"] == 1
