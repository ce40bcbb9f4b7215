"""Proof that an account is the player: a claim code of the board, the proof level of a link, and what an account
linked on its word alone may not see (players.claims, players.permissions.own_sanctions)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from adlg_site import tokens
from players.claims import ClaimError, claim_ask, claim_code_issue, claim_confirm, player_claim_by_code
from players.governance import sanction_give
from players.models import AuditEntry, ClaimToken, Player, PlayerClaim
from players.permissions import player_of
from tests import factories as f
from tests.accounts.helpers import account

pytestmark = pytest.mark.django_db

CHECKED = {"checked_how": "knows", "note": "Seen at the club"}


def _linked_on_words(board, player):
    user = account()
    claim_confirm(claim=claim_ask(user=user, player=player, message="C'est moi"), user=board, **CHECKED)
    return user


def test_an_account_linked_on_words_sees_no_cards_reason(client, board):
    player = f.player("Martin", "Paul")
    sanction_give(player=player, kind="yellow", reason="Insulted the referee", user=board)
    client.force_login(_linked_on_words(board, player))
    page = client.get(reverse("account")).content.decode()
    assert "Insulted the referee" not in page and "yellow card" not in page
    assert "prove the link" in page
    data = json.loads(client.get(reverse("account_data")).content)
    assert "Insulted the referee" not in json.dumps(data)


def test_a_claim_code_proves_a_link_on_words_and_the_reason_shows(client, board):
    player = f.player("Martin", "Paul")
    sanction_give(player=player, kind="yellow", reason="Insulted the referee", user=board)
    user = _linked_on_words(board, player)
    code, _expires = claim_code_issue(player=player, user=board)
    client.force_login(user)
    response = client.post(reverse("account_claim_code"), {"code": code.lower().replace("-", " ")})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.link_proof == Player.PROOF_CODE
    assert "Insulted the referee" in client.get(reverse("account")).content.decode()
    assert AuditEntry.objects.filter(action="claim_proof").count() == 1


def test_a_board_claim_code_links_once(board):
    player = f.player()
    code, expires_at = claim_code_issue(player=player, user=board)
    assert expires_at > timezone.now() + timedelta(days=29)
    row = ClaimToken.objects.get()
    assert row.kind == ClaimToken.CODE and row.digest == tokens.digest(code.replace("-", "")) and code not in str(
        AuditEntry.objects.get(action="claim_code_issue").changes)
    user = account()
    assert player_claim_by_code(user=user, code=code) == player
    player.refresh_from_db()
    assert player.user == user and player.link_proof == Player.PROOF_CODE
    assert PlayerClaim.objects.get().via == PlayerClaim.BY_CODE
    with pytest.raises(ClaimError) as refused:
        player_claim_by_code(user=account(), code=code)
    assert refused.value.code == "code_used"


def test_a_board_claim_code_expires(board):
    player = f.player()
    code, _expires = claim_code_issue(player=player, user=board)
    ClaimToken.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    user = account()
    with pytest.raises(ClaimError) as refused:
        player_claim_by_code(user=user, code=code)
    assert refused.value.code == "code_expired" and player_of(user) is None


def test_a_private_links_claim_token_is_no_claim_code(board):
    from players.claims import claim_token_issue
    secret = claim_token_issue(player=f.player())
    with pytest.raises(ClaimError) as refused:
        player_claim_by_code(user=account(), code=secret)
    assert refused.value.code == "code_invalid"


def test_the_board_makes_a_claim_code_on_a_page_shown_once(client, board):
    player = f.player("Martin", "Paul")
    client.force_login(board)
    url = reverse("board:claim_code", args=[player.pk])
    assert "Make a claim code" in client.get(url).content.decode()
    response = client.post(url)
    page = response.content.decode()
    code = page.split("<code>")[1].split("</code>")[0]
    assert len(code) == 19 and "no-store" in response["Cache-Control"]
    assert ClaimToken.objects.get().digest == tokens.digest(code.replace("-", ""))
    assert code not in client.get(url).content.decode()


def test_the_boards_queue_shows_the_last_tournaments_referees_and_former_accounts(client, board):
    from players.claims import player_unlink
    player = f.player("Martin", "Paul")
    played = f.rated_tournament([player, f.player("Other")], name="Lyon Open", rounds=1)
    type(played.tournament).objects.filter(pk=played.tournament.pk).update(referee_name="Jean Arbitre")
    before = account("old@example.org", player=player)
    PlayerClaim.objects.create(user=before, player=player, status=PlayerClaim.CONFIRMED)
    player_unlink(player=player, user=board, reason="Shared account")
    claim_ask(user=account("new@example.org"), player=player)
    client.force_login(board)
    page = client.get(reverse("board:claims")).content.decode()
    assert "Lyon Open" in page and "Jean Arbitre" in page
    assert "old@example.org" in page and "Shared account" in page
    assert reverse("board:claim_code", args=[player.pk]) in page


def test_guessing_claim_codes_is_throttled(client, settings):
    import uuid
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "claim_token": "3/m"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"
    client.force_login(account())
    statuses = [client.post(reverse("account_claim_code"), {"code": f"AAAA-BBBB-CCCC-DDD{n}"}).status_code
                for n in range(4)]
    assert statuses == [400, 400, 400, 429]
    assert client.get(reverse("account_claim_token", args=["x" * 43])).status_code == 429
