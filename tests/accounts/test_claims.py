"""Linking an account to a federation record: asked, then confirmed or refused by the board; confirmed at once by
a tournament day's private token; one account per player and one player per account; undone by the board; every
step audited; excluded and merged records refused with a message that says why (merged: which record to ask
for)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from players.audit import audit_trail
from players.claims import (
    ClaimError,
    claim_ask,
    claim_cancel,
    claim_confirm,
    claim_refuse,
    claim_token_issue,
    player_claim_by_token,
    player_unlink,
)
from players.models import ClaimToken, Player, PlayerClaim
from players.permissions import player_of
from tests import factories as f
from tests.accounts.helpers import account

pytestmark = pytest.mark.django_db

# The board's confirmation on the claimant's word says how it checked.
CHECKED = {"checked_how": "club", "note": "The club's secretary confirmed by phone"}


def _actions() -> list[str]:
    return list(audit_trail().order_by("at", "id").values_list("action", flat=True))


# --- asked, then decided by the board ----------------------------------------------------------------------------


def test_a_request_waits_for_the_board_which_confirms_it(board):
    user, player = account(), f.player("Martin", "Paul")
    claim = claim_ask(user=user, player=player, message="Paris 2024, club Alpha")
    assert claim.status == PlayerClaim.PENDING and player_of(user) is None
    claim_confirm(claim=claim, user=board, **CHECKED)
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.CONFIRMED and claim.via == PlayerClaim.BY_BOARD
    assert claim.decided_by == board
    assert player_of(user) == player
    assert _actions() == ["claim_ask", "claim_confirm"]


def test_the_board_refuses_with_a_reason_the_player_reads(board):
    user, player = account(), f.player()
    claim = claim_ask(user=user, player=player)
    with pytest.raises(ClaimError, match="reason"):
        claim_refuse(claim=claim, user=board, reason="  ")
    claim_refuse(claim=claim, user=board, reason="This record is your brother's.")
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.REFUSED and claim.reason == "This record is your brother's."
    assert player_of(user) is None
    assert _actions()[-1] == "claim_refuse"


def test_a_settled_request_is_not_decided_again(board):
    claim = claim_ask(user=account(), player=f.player())
    claim_confirm(claim=claim, user=board, **CHECKED)
    with pytest.raises(ClaimError, match="already settled"):
        claim_refuse(claim=claim, user=board, reason="changed my mind")
    with pytest.raises(ClaimError, match="already settled"):
        claim_confirm(claim=claim, user=board, **CHECKED)


def test_an_account_waits_for_one_answer_at_a_time_and_may_cancel():
    user = account()
    claim_ask(user=user, player=f.player("Martin"))
    with pytest.raises(ClaimError, match="already asked for record"):
        claim_ask(user=user, player=f.player("Bernard"))
    claim_cancel(user=user)
    assert claim_ask(user=user, player=f.player("Dubois")).status == PlayerClaim.PENDING
    assert "claim_cancel" in _actions()


def test_the_database_keeps_one_waiting_request_per_account():
    user = account()
    PlayerClaim.objects.create(user=user, player=f.player())
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerClaim.objects.create(user=user, player=f.player())


def test_an_unconfirmed_address_cannot_ask():
    with pytest.raises(ClaimError, match="Confirm your email address first"):
        claim_ask(user=account(verified=False), player=f.player())


# --- one account per player, one player per account --------------------------------------------------------------


def test_a_linked_record_is_refused_to_a_second_account():
    player = f.player()
    account(player=player)
    with pytest.raises(ClaimError, match="already linked to another account"):
        claim_ask(user=account(), player=player)


def test_a_linked_account_cannot_ask_for_a_second_record():
    user = account(player=f.player("Martin"))
    with pytest.raises(ClaimError, match="one account is one player"):
        claim_ask(user=user, player=f.player("Bernard"))


def test_two_accounts_may_ask_for_one_record_and_confirming_one_refuses_the_other(board):
    player = f.player()
    first, second = account(), account()
    claim_first = claim_ask(user=first, player=player)
    claim_second = claim_ask(user=second, player=player)
    claim_confirm(claim=claim_second, user=board, **CHECKED)
    claim_first.refresh_from_db()
    assert claim_first.status == PlayerClaim.REFUSED and "another account" in claim_first.reason
    assert player_of(second) == player and player_of(first) is None
    with pytest.raises(ClaimError, match="already settled"):
        claim_confirm(claim=claim_first, user=board, **CHECKED)


def test_the_board_cannot_confirm_a_record_linked_since(board):
    player = f.player()
    claim = claim_ask(user=account(), player=player)
    account(player=player)  # linked meanwhile (a token, say)
    with pytest.raises(ClaimError, match="already linked"):
        claim_confirm(claim=claim, user=board, **CHECKED)


# --- records that cannot be claimed ------------------------------------------------------------------------------


def test_an_excluded_record_is_refused_with_a_clear_message():
    with pytest.raises(ClaimError, match="closed by a decision of the technical board"):
        claim_ask(user=account(), player=f.player(excluded=True))


def test_a_merged_record_points_to_the_kept_one():
    kept = f.player("Martin", id=4100)
    middle = f.player("Martin", id=4101, merged_into=kept)
    duplicate = f.player("Martin", id=4102, merged_into=middle)
    with pytest.raises(ClaimError, match="merged into record 4100") as refused:
        claim_ask(user=account(), player=duplicate)
    assert "ask for 4100 instead" in str(refused.value)


def test_the_spare_is_nobody_to_claim():
    with pytest.raises(ClaimError, match="spare"):
        claim_ask(user=account(), player=Player.objects.get(pk=99))


def test_a_record_excluded_while_its_request_waits_is_not_linked(board):
    player = f.player()
    claim = claim_ask(user=account(), player=player)
    Player.objects.filter(pk=player.pk).update(excluded_at=timezone.now())
    with pytest.raises(ClaimError, match="closed by a decision"):
        claim_confirm(claim=claim, user=board, **CHECKED)


# --- the board undoes a link -------------------------------------------------------------------------------------


def test_the_board_undoes_a_link_with_a_reason_audited(board):
    player = f.player()
    user = account()
    claim_confirm(claim=claim_ask(user=user, player=player), user=board, **CHECKED)
    with pytest.raises(ClaimError, match="reason"):
        player_unlink(player=player, user=board, reason="")
    player_unlink(player=player, user=board, reason="Shared account of two brothers")
    player.refresh_from_db()
    assert player.user is None and player_of(user) is None
    claim = PlayerClaim.objects.get(player=player)
    assert claim.status == PlayerClaim.UNDONE and claim.reason == "Shared account of two brothers"
    entry = audit_trail(action="player_unlink").get()
    assert entry.user == board and entry.changes["reason"] == "Shared account of two brothers"
    # Either may be linked again.
    assert claim_ask(user=user, player=player).status == PlayerClaim.PENDING


def test_undoing_an_unlinked_record_says_so(board):
    with pytest.raises(ClaimError, match="linked to no account"):
        player_unlink(player=f.player(), user=board, reason="why not")


# --- the tournament day's private token --------------------------------------------------------------------------


def test_a_token_of_a_tournament_the_player_played_links_at_once():
    player = f.player()
    tournament = f.tournament(start=timezone.localdate())
    secret = claim_token_issue(player=player, tournament=tournament)
    user = account()
    assert player_claim_by_token(user=user, token=secret) == player
    assert player_of(user) == player
    claim = PlayerClaim.objects.get(user=user)
    assert claim.status == PlayerClaim.CONFIRMED and claim.via == PlayerClaim.BY_TOKEN and claim.decided_by is None
    row = ClaimToken.objects.get()
    assert row.used_by == user and row.used_at is not None
    assert secret not in row.digest and len(row.digest) == 64  # only the digest is stored
    assert row.expires_at > timezone.now() + timedelta(days=59)
    assert audit_trail(action="claim_token").get().changes["tournament"] == tournament.pk


def test_a_token_settles_the_accounts_waiting_request_and_refuses_others_for_that_record():
    player = f.player()
    mine, rival = account(), account()
    claim_ask(user=mine, player=f.player("Elsewhere"))  # the account's own earlier guess
    rival_claim = claim_ask(user=rival, player=player)
    player_claim_by_token(user=mine, token=claim_token_issue(player=player))
    assert list(PlayerClaim.objects.filter(user=mine).values_list("status", flat=True).order_by("id")) == [
        PlayerClaim.CANCELLED, PlayerClaim.CONFIRMED]
    rival_claim.refresh_from_db()
    assert rival_claim.status == PlayerClaim.REFUSED


def test_a_token_is_used_once():
    player = f.player()
    secret = claim_token_issue(player=player)
    player_claim_by_token(user=account(), token=secret)
    with pytest.raises(ClaimError, match="already used"):
        player_claim_by_token(user=account(), token=secret)


def test_an_expired_token_is_refused():
    secret = claim_token_issue(player=f.player(), expires_at=timezone.now() - timedelta(minutes=1))
    user = account()
    with pytest.raises(ClaimError, match="expired"):
        player_claim_by_token(user=user, token=secret)
    assert player_of(user) is None and ClaimToken.objects.get().used_at is None


def test_an_unknown_or_altered_token_is_refused():
    secret = claim_token_issue(player=f.player())
    for wrong in ["", "nonsense", secret[:-1], secret + "x", "x" * 500]:
        with pytest.raises(ClaimError, match="not valid"):
            player_claim_by_token(user=account(), token=wrong)


def test_another_players_token_does_not_move_a_linked_account():
    mine, theirs = f.player("Martin"), f.player("Bernard")
    user = account(player=mine)
    secret = claim_token_issue(player=theirs)
    with pytest.raises(ClaimError, match="this link is another player's"):
        player_claim_by_token(user=user, token=secret)
    assert player_of(user) == mine
    theirs.refresh_from_db()
    assert theirs.user is None and ClaimToken.objects.get().used_at is None


def test_a_token_of_a_player_linked_to_another_account_is_refused():
    player = f.player()
    owner = account(player=player)
    with pytest.raises(ClaimError, match="already linked to another account"):
        player_claim_by_token(user=account(), token=claim_token_issue(player=player))
    assert player_of(owner) == player


def test_a_token_of_an_excluded_or_merged_record_is_refused():
    kept = f.player("Kept", id=4200)
    with pytest.raises(ClaimError, match="ask for 4200 instead"):
        player_claim_by_token(user=account(), token=claim_token_issue(player=f.player(id=4201, merged_into=kept)))
    with pytest.raises(ClaimError, match="closed by a decision"):
        player_claim_by_token(user=account(), token=claim_token_issue(player=f.player(excluded=True)))


def test_a_token_needs_a_signed_in_account():
    with pytest.raises(ClaimError, match="Sign in"):
        player_claim_by_token(user=AnonymousUser(), token=claim_token_issue(player=f.player()))


def test_the_page_of_a_token_names_the_record_it_would_link_and_spends_nothing(client):
    player = f.player("Lefèvre", "Odile")
    token = claim_token_issue(player=player, tournament=f.tournament(start=timezone.localdate()))
    client.force_login(account())
    page = client.get(reverse("account_claim_token", args=[token])).content.decode()
    assert "Odile Lefèvre" in page and str(player.pk) in page
    assert ClaimToken.objects.get().used_at is None and player_of(Player.objects.get(pk=player.pk).user) is None
    assert "Odile" not in client.get(reverse("account_claim_token", args=["not-a-token"])).content.decode()
