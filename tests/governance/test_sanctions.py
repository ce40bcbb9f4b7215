"""Yellow and red cards (charter App. 7 §3): a yellow card is kept one year, a red card's notice names no one."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from players.governance import GovernanceError, red_card_notice, sanction_give, yellow_cards_expire
from players.models import AuditEntry, Player, Sanction
from players.tasks import expire_yellow_cards
from tests.governance.factories import make_player, make_tournament, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return make_player("Lebrun", "Henri")


def test_it_keeps_a_yellow_card_one_year(board, player):
    card = sanction_give(player=player, kind=Sanction.YELLOW, reason="late list twice", user=board,
                         decided_on=date(2025, 3, 10))
    assert card.expires_on == date(2026, 3, 10)
    assert card.public_notice == ""


def test_it_keeps_a_card_of_29_february_until_28_february(board, player):
    card = sanction_give(player=player, kind=Sanction.YELLOW, reason="x", user=board, decided_on=date(2024, 2, 29))
    assert card.expires_on == date(2025, 2, 28)


def test_it_erases_a_yellow_card_after_one_year_and_not_before(board, player):
    card = sanction_give(player=player, kind=Sanction.YELLOW, reason="late list twice", user=board,
                         decided_on=date(2025, 3, 10))
    assert yellow_cards_expire(today=date(2026, 3, 10)) == 0
    assert Sanction.objects.filter(pk=card.pk).exists()
    assert yellow_cards_expire(today=date(2026, 3, 11)) == 1
    assert not Sanction.objects.filter(pk=card.pk).exists()
    assert yellow_cards_expire(today=date(2026, 3, 11)) == 0  # safe to run twice


def test_it_erases_the_reason_with_the_card(board, player):
    sanction_give(player=player, kind=Sanction.YELLOW, reason="SECRET-MOTIVE", user=board,
                  decided_on=date(2025, 3, 10))
    yellow_cards_expire(today=date(2026, 3, 11))
    assert AuditEntry.objects.filter(action="sanction_expire").count() == 1
    assert not any("SECRET-MOTIVE" in f"{e.summary}{e.changes}" for e in AuditEntry.objects.all())


def test_it_never_erases_red_cards_or_exclusions(board, player):
    sanction_give(player=player, kind=Sanction.RED, reason="x", user=board, decided_on=date(2020, 1, 1))
    other = make_player("Exclu")
    sanction_give(player=other, kind=Sanction.EXCLUSION, reason="x", user=board, decided_on=date(2020, 1, 1))
    assert yellow_cards_expire(today=date(2030, 1, 1)) == 0
    assert Sanction.objects.count() == 2


def test_it_expires_cards_from_the_nightly_task(board, player):
    sanction_give(player=player, kind=Sanction.YELLOW, reason="x", user=board, decided_on=date(2001, 1, 1))
    assert expire_yellow_cards() == 1
    assert not Sanction.objects.exists()


def test_it_writes_a_red_card_notice_that_names_no_one(board):
    player = make_player("Rougemont", "Aristide", pk=4321)
    tournament = make_tournament("Open de Carcassonne")
    register(tournament, player)
    card = sanction_give(player=player, kind=Sanction.RED, reason="threatened an opponent at Carcassonne",
                         user=board, decided_on=date(2025, 6, 1))
    assert card.public_notice == "A red card was given on 2025-06-01."
    for clue in ("Rougemont", "Aristide", "4321", "Carcassonne", "threatened", player.club or "Paris"):
        assert str(clue) not in card.public_notice
    assert card.expires_on is None


def test_the_red_card_notice_is_a_date_only():
    assert red_card_notice(date(2025, 12, 31)) == "A red card was given on 2025-12-31."


def test_it_keeps_the_reason_out_of_the_audit_trail(board, player):
    sanction_give(player=player, kind=Sanction.RED, reason="SECRET-MOTIVE", user=board, decided_on=date(2025, 6, 1))
    entry = AuditEntry.objects.get(action="sanction_red")
    assert entry.user == board
    assert "SECRET-MOTIVE" not in f"{entry.summary}{entry.changes}"


@pytest.mark.parametrize("kind", ["reminder", "", "orange"])
def test_it_refuses_an_unknown_kind(board, player, kind):
    with pytest.raises(GovernanceError, match="yellow, red or exclusion"):
        sanction_give(player=player, kind=kind, reason="x", user=board)


def test_it_needs_a_reason(board, player):
    with pytest.raises(GovernanceError, match="reason"):
        sanction_give(player=player, kind=Sanction.YELLOW, reason=" ", user=board)


def test_it_refuses_the_spare(board):
    with pytest.raises(GovernanceError, match="spare"):
        sanction_give(player=Player.objects.get(pk=99), kind=Sanction.YELLOW, reason="x", user=board)


def test_it_defaults_the_decision_to_today(board, player):
    from django.utils import timezone

    card = sanction_give(player=player, kind=Sanction.YELLOW, reason="x", user=board)
    assert card.decided_on == timezone.localdate()
    assert card.expires_on - card.decided_on in (timedelta(days=365), timedelta(days=366))
