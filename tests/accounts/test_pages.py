"""The player's pages (/accounts/): the account page, finding and asking for a record, a tournament day's private
link, closing the account; the board's queue (/board/claims/) with confirm, refuse and undo; the header's menu."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from players.audit import audit_trail
from players.claims import claim_ask, claim_token_issue
from players.governance import sanction_give
from players.models import AccountSettings, AuditEntry, Player, PlayerClaim
from players.permissions import player_of
from tests import factories as f
from tests.accounts.helpers import PASSWORD, account

pytestmark = pytest.mark.django_db


def _page(client, name, *args, **params):
    response = client.get(reverse(name, args=args), params)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


# --- the account page --------------------------------------------------------------------------------------------


def test_every_account_page_asks_to_sign_in_first(client):
    for name, args in [("account", ()), ("account_data", ()), ("account_claim", ()), ("account_close", ()),
                       ("account_claim_ask", (1234,)), ("account_claim_token", ("abc",))]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name


def test_the_sign_in_page_no_longer_tells_players_they_need_no_account(client):
    page = _page(client, "login")
    assert "Players need none" not in page
    assert reverse("account_signup") in page and reverse("account_reset_password") in page
    assert 'name="login"' in page


def test_a_signed_in_player_has_my_page_and_my_account_in_the_menu(client):
    player = f.player("Martin", "Paul")
    client.force_login(account(player=player))
    page = _page(client, "home")
    assert f'href="{reverse("player_detail", args=[player.pk])}"' in page and ">My page<" in page
    assert f'href="{reverse("account")}"' in page and "Paul Martin" in page
    assert reverse("referee:home") not in page  # a player is no referee: no links that would answer 403


def test_an_account_without_a_record_is_offered_to_find_it(client):
    client.force_login(account())
    page = _page(client, "account")
    assert "not linked to a federation record yet" in page and reverse("account_claim") in page
    assert ">My page<" not in page


def test_the_account_page_saves_the_email_settings(client):
    user = account()
    client.force_login(user)
    response = client.post(reverse("account"), {"language": "fr"})  # the box unticked
    assert response.status_code == 302
    settings = AccountSettings.objects.get(user=user)
    assert (settings.rating_emails, settings.language) == (False, "fr")


def test_the_account_page_shows_the_players_own_sanctions_and_never_anothers(client, board):
    mine, theirs = f.player("Martin"), f.player("Bernard")
    sanction_give(player=mine, kind="yellow", reason="Late army list", user=board)
    sanction_give(player=theirs, kind="red", reason="Loaded dice", user=board)
    client.force_login(account(player=mine))
    page = _page(client, "account")
    assert "Late army list" in page and "yellow card" in page
    assert "Loaded dice" not in page and "red card" not in page
    assert "board" not in page.split('id="sanctions-heading"')[1].split("</section>")[0].lower().replace(
        "technical board", "")  # never who recorded it


def test_an_expired_yellow_card_is_gone_for_the_player_too(client, board):
    player = f.player()
    sanction_give(player=player, kind="yellow", reason="Late army list", user=board,
                  decided_on=date.today() - timedelta(days=400))
    client.force_login(account(player=player))
    assert "Late army list" not in _page(client, "account")


# --- finding and asking for a record -----------------------------------------------------------------------------


def test_find_a_record_by_name_and_ask_for_it(client):
    player = f.player("Martin", "Paul")
    f.player("Bernard", "Luc")
    user = account()
    client.force_login(user)
    page = _page(client, "account_claim", q="martin")
    assert "Paul" in page and "Bernard" not in page
    assert reverse("account_claim_ask", args=[player.pk]) in page
    assert "Is Paul Martin" in _page(client, "account_claim_ask", player.pk)
    response = client.post(reverse("account_claim_ask", args=[player.pk]), {"message": "Club Alpha, Paris 2024"})
    assert response.status_code == 302 and response["Location"] == reverse("account")
    claim = PlayerClaim.objects.get(user=user)
    assert (claim.player, claim.message, claim.status) == (player, "Club Alpha, Paris 2024", PlayerClaim.PENDING)
    assert "The technical board checks it" in _page(client, "account")
    client.post(reverse("account_claim_cancel"))
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.CANCELLED


@pytest.mark.parametrize("query", ["²", "٣", "9" * 40])
def test_the_search_takes_what_is_not_an_id_as_a_name(client, query):
    """"²" passed str.isdigit and failed int(): a server error."""
    f.player("Martin", id=5100)
    client.force_login(account())
    assert "5100" not in _page(client, "account_claim", q=query).split("<main")[1]


def test_the_boards_linked_accounts_are_found_by_an_id_never_by_what_is_not_one(client, board):
    linked = f.player("Martin", "Paul", id=5100)
    linked.user = account()
    linked.save(update_fields=["user"])
    client.force_login(board)
    assert "Paul" in _page(client, "board:claims", q="5100")
    for query in ("²", "9" * 40):
        assert "Paul" not in _page(client, "board:claims", q=query)


def test_the_search_says_why_a_merged_or_excluded_id_cannot_be_asked_for(client):
    kept = f.player("Martin", id=5100)
    f.player("Martin", id=5101, merged_into=kept)
    f.player("Bernard", id=5102, excluded=True)
    client.force_login(account())
    assert "merged into record 5100" in _page(client, "account_claim", q="5101")
    assert "closed by a decision of the technical board" in _page(client, "account_claim", q="5102")
    page = _page(client, "account_claim_ask", 5101)
    assert "ask for 5100 instead" in page and "<button" not in page.split("<main")[1].split("</main>")[0].replace(
        'class="menu-toggle"', "")
    assert client.post(reverse("account_claim_ask", args=[5101])).status_code == 200
    assert not PlayerClaim.objects.exists()


def test_a_record_linked_to_another_account_cannot_be_asked_for(client):
    player = f.player()
    account(player=player)
    client.force_login(account())
    assert "already linked to another account" in _page(client, "account_claim_ask", player.pk)
    client.post(reverse("account_claim_ask", args=[player.pk]))
    assert not PlayerClaim.objects.exists()


def test_a_tournament_days_private_link_links_on_post_only(client):
    player = f.player()
    secret = claim_token_issue(player=player)
    user = account()
    client.force_login(user)
    assert "Link my account" in _page(client, "account_claim_token", secret)
    assert player_of(user) is None  # a GET (a prefetch) spends nothing
    response = client.post(reverse("account_claim_token", args=[secret]))
    assert response.status_code == 302 and player_of(user) == player
    other = account()
    client.force_login(other)
    response = client.post(reverse("account_claim_token", args=[secret]))
    assert response.status_code == 400 and "already used" in response.content.decode()


# --- the board's queue -------------------------------------------------------------------------------------------


def test_the_board_confirms_a_request_in_its_queue(client, board):
    player = f.player("Martin", "Paul")
    user = account("paul@example.org")
    claim = claim_ask(user=user, player=player, message="Club Alpha")
    client.force_login(board)
    page = _page(client, "board:claims")
    assert "paul@example.org asks for record" in page and "Club Alpha" in page
    response = client.post(reverse("board:claim_decide", args=[claim.pk]), {
        "decision": "confirm", f"claim{claim.pk}-checked_how": "knows",
        f"claim{claim.pk}-note": "Played him in Lyon last spring"})
    assert response.status_code == 302
    assert player_of(user) == player
    assert "No request waits." in _page(client, "board:claims")


def test_the_boards_confirmation_on_words_requires_how_it_checked_and_a_note(client, board):
    player = f.player("Martin", "Paul")
    user = account("paul@example.org")
    claim = claim_ask(user=user, player=player, message="C'est moi")
    client.force_login(board)
    for missing in ({}, {f"claim{claim.pk}-checked_how": "club"}, {f"claim{claim.pk}-note": "Trust me"}):
        client.post(reverse("board:claim_decide", args=[claim.pk]), {"decision": "confirm", **missing})
        assert player_of(user) is None
    client.post(reverse("board:claim_decide", args=[claim.pk]), {
        "decision": "confirm", f"claim{claim.pk}-checked_how": "referee",
        f"claim{claim.pk}-note": "The referee of Lyon Open knows him"})
    assert player_of(user) == player
    player.refresh_from_db()
    assert player.link_proof == Player.PROOF_WORDS
    entry = AuditEntry.objects.get(action="claim_confirm")
    assert entry.changes["checked_how"] == "referee" and entry.changes["note"] == "The referee of Lyon Open knows him"
    assert "The referee of Lyon Open knows him" in _page(client, "board:claims")


def test_the_board_refuses_with_a_reason_and_the_player_reads_it(client, board):
    user = account()
    claim = claim_ask(user=user, player=f.player())
    client.force_login(board)
    client.post(reverse("board:claim_decide", args=[claim.pk]), {"decision": "refuse"})
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.PENDING  # no reason: refused nothing
    client.post(reverse("board:claim_decide", args=[claim.pk]),
                {"decision": "refuse", f"claim{claim.pk}-reason": "Not the same person: wrong club"})
    claim.refresh_from_db()
    assert claim.status == PlayerClaim.REFUSED
    client.force_login(user)
    assert "Not the same person: wrong club" in _page(client, "account")


def test_the_board_undoes_a_link(client, board):
    player = f.player("Martin")
    user = account(player=player)
    client.force_login(board)
    assert player.full_name in _page(client, "board:claims", q="martin")
    assert "Undo the link of" in _page(client, "board:player_unlink", player.pk)
    client.post(reverse("board:player_unlink", args=[player.pk]), {"reason": "Mistaken confirmation"})
    assert player_of(user) is None
    assert audit_trail(action="player_unlink").get().changes["reason"] == "Mistaken confirmation"


def test_the_queue_is_the_boards_alone(client, referee):
    claim = claim_ask(user=account(), player=f.player())
    client.force_login(referee)
    assert client.get(reverse("board:claims")).status_code == 403
    assert client.post(reverse("board:claim_decide", args=[claim.pk]), {"decision": "confirm"}).status_code == 403
    player = f.player()
    client.force_login(account(player=player))  # a player neither
    assert client.get(reverse("board:claims")).status_code == 403
    assert client.post(reverse("board:player_unlink", args=[player.pk]), {"reason": "x"}).status_code == 403


# --- closing the account -----------------------------------------------------------------------------------------


def test_closing_the_account_keeps_the_record_unlinked_and_audits_it(client):
    player = f.player()
    user = account("ada@example.org", player=player)
    pk = user.pk
    client.force_login(user)
    response = client.post(reverse("account_close"), {"password": "wrong", "confirm": "on"})
    assert response.status_code == 200 and "This is not your password" in response.content.decode()
    response = client.post(reverse("account_close"), {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=pk).exists()
    assert not EmailAddress.objects.filter(email="ada@example.org").exists()
    player.refresh_from_db()
    assert player.user is None and Player.objects.filter(pk=player.pk).exists()
    entry = audit_trail(action="account_close").get()
    assert entry.object_id == str(pk) and entry.changes == {"player": player.pk}
    assert "ada@example.org" not in entry.summary
    assert "_auth_user_id" not in client.session
    # A new account may ask for the record.
    assert claim_ask(user=account(), player=player).status == PlayerClaim.PENDING


def test_the_board_and_referees_do_not_close_their_accounts_here(client, board, referee):
    f_tournament = f.tournament()
    f_tournament.referees.add(referee)
    for user in (board, referee):
        client.force_login(user)
        page = _page(client, "account_close")
        assert "<form method=\"post\">" not in page
        client.post(reverse("account_close"), {"password": "board-pass-123", "confirm": "on"})
        assert get_user_model().objects.filter(pk=user.pk).exists()
