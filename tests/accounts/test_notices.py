"""The emails of claims and sanctions, the one-click opt-out (its page, its List-Unsubscribe POST, the account
page's settings), a failed send retried without losing the action, allauth's emails in the site's own voice, and
the form that writes to the technical board (throttled, queued, emailed)."""

from __future__ import annotations

import smtplib
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from adlg_site.celery import app
from players import mail as mail_module
from players import notices
from players.accounts import account_settings_save
from players.claims import claim_ask, claim_confirm, claim_refuse
from players.governance import sanction_give
from players.models import AccountSettings, BoardMessage, Player, SentEmail
from tests.accounts.helpers import PASSWORD, account
from tests.governance.factories import make_player

pytestmark = pytest.mark.django_db
SITE = "https://adlg.example"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def _stop_link(message) -> str:
    return next(word for word in message.body.split() if "/accounts/emails/stop/" in word)


def test_a_claim_confirmed_and_one_refused_are_told_to_the_account(board, django_capture_on_commit_callbacks):
    ada, zoe = account("ada@example.org"), account("zoe@example.org")
    account_settings_save(user=zoe, rating_emails=True, language="fr")
    mine, theirs = make_player("Lovelace", "Ada"), make_player("Martin", "Zoé")
    with django_capture_on_commit_callbacks(execute=True):
        claim_confirm(claim=claim_ask(user=ada, player=mine), user=board, checked_how="knows", note="Met her")
        claim_refuse(claim=claim_ask(user=zoe, player=theirs), user=board, reason="Not the same person")
    confirmed, refused = mail.outbox
    assert confirmed.to == ["ada@example.org"]
    assert confirmed.subject == f"Your account is linked to federation record {mine.pk}"
    assert f"{SITE}/players/{mine.pk}/" in confirmed.body
    assert refused.to == ["zoe@example.org"]
    assert refused.subject == f"Votre demande pour la fiche de la fédération {theirs.pk} a été refusée"
    assert "Not the same person" in refused.body


def test_a_sanction_is_told_with_how_to_write_to_the_board_and_the_reason_only_on_a_proved_link(
        board, django_capture_on_commit_callbacks):
    proved, unproved = account("proved@example.org"), account("unproved@example.org")
    make_player("Prouvé", "Paul", user=proved)
    Player.objects.filter(pk=make_player("Parole", "Pierre", user=unproved).pk).update(
        link_proof=Player.PROOF_WORDS)
    with django_capture_on_commit_callbacks(execute=True):
        sanction_give(player=proved.player, kind="yellow", reason="Late army list", user=board)
        sanction_give(player=Player.objects.get(user=unproved), kind="yellow", reason="Slow play", user=board)
    to_proved, to_unproved = mail.outbox
    assert to_proved.subject == "The technical board recorded a sanction: yellow card"
    assert "Late army list" in to_proved.body and f"{SITE}/write-to-the-board/" in to_proved.body
    assert "Slow play" not in to_unproved.body and "once your account's link" in to_unproved.body


def test_the_opt_out_link_needs_no_sign_in_and_turns_off_only_its_kind(client, board,
                                                                         django_capture_on_commit_callbacks):
    user = account("ada@example.org")
    make_player("Lovelace", "Ada", user=user)
    with django_capture_on_commit_callbacks(execute=True):
        sanction_give(player=user.player, kind="yellow", reason="Late", user=board)
    link = _stop_link(mail.outbox[0])
    assert link.startswith(f"{SITE}/accounts/emails/stop/")
    path = link.removeprefix(SITE)
    page = client.get(path)  # a link scanner's visit changes nothing
    assert page.status_code == 200 and notices.wants(user, notices.SANCTIONS)
    client.post(path)
    assert not notices.wants(user, notices.SANCTIONS)
    assert notices.wants(user, notices.ENTRIES) and notices.wants(user, notices.TOURNAMENT_RATED)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sanction_give(player=user.player, kind="red", reason="Again", user=board)
    assert mail.outbox == []


def test_the_list_unsubscribe_header_posts_without_a_csrf_token(board, django_capture_on_commit_callbacks):
    from django.test import Client

    user = account("ada@example.org")
    make_player("Lovelace", "Ada", user=user)
    with django_capture_on_commit_callbacks(execute=True):
        sanction_give(player=user.player, kind="yellow", reason="Late", user=board)
    message = mail.outbox[0]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header_link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert header_link == _stop_link(message)
    response = Client(enforce_csrf_checks=True).post(header_link.removeprefix(SITE),
                                                     {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and not notices.wants(user, notices.SANCTIONS)


def test_a_forged_or_altered_token_is_refused(client):
    user = account("ada@example.org")
    token = notices.opt_out_token(user.pk, notices.SANCTIONS)
    forged = notices.opt_out_token(user.pk, notices.SANCTIONS).replace(":", ":x", 1)
    for bad in (forged, token[:-2] + "zz", "nothing"):
        assert client.post(reverse("email_stop", args=[bad])).status_code == 404
    assert notices.wants(user, notices.SANCTIONS)


def test_the_rating_emails_opt_out_is_the_same_scheme_and_keeps_its_setting(client):
    user = account("ada@example.org")
    client.post(reverse("email_stop", args=[notices.opt_out_token(user.pk, notices.TOURNAMENT_RATED)]))
    assert AccountSettings.objects.get(user=user).rating_emails is False


def test_the_account_page_chooses_each_kind(client):
    user = account("ada@example.org")
    client.force_login(user)
    page = client.get(reverse("account")).content.decode()
    assert all(f'value="{kind}"' in page for kind in notices.KINDS)
    assert user.get_username() not in page  # an account with an address never sees a made-up username
    response = client.post(reverse("account"), {"kinds": [notices.ENTRIES, notices.LISTS], "language": "fr"})
    assert response.status_code == 302
    assert notices.kinds_wanted(user) == {notices.ENTRIES, notices.LISTS}
    assert AccountSettings.objects.get(user=user).rating_emails is False


@pytest.fixture
def as_a_worker():
    """As on a worker: a task's retry runs it again (eagerly here) instead of raising to whoever enqueued it."""
    previous = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = previous


def test_a_failed_send_is_retried_and_never_loses_the_action(board, monkeypatch, as_a_worker,
                                                           django_capture_on_commit_callbacks):
    user = account("ada@example.org")
    make_player("Lovelace", "Ada", user=user)
    real = mail_module.messages_send
    attempts = []

    def flaky(messages):
        attempts.append(1)
        if len(attempts) == 1:
            raise smtplib.SMTPServerDisconnected("the mail server went away")
        return real(messages)

    monkeypatch.setattr(mail_module, "messages_send", flaky)
    with django_capture_on_commit_callbacks(execute=True):
        sanction = sanction_give(player=user.player, kind="yellow", reason="Late", user=board)
    assert len(attempts) == 2 and len(mail.outbox) == 1  # retried, then sent
    assert user.player.sanctions.filter(pk=sanction.pk).exists()  # the action stands
    assert SentEmail.objects.get(kind="sanction_recorded").sent_at is not None


def test_a_send_that_keeps_failing_leaves_the_action_and_an_unsent_record(board, monkeypatch, as_a_worker,
                                                                       django_capture_on_commit_callbacks):
    user = account("ada@example.org")
    make_player("Lovelace", "Ada", user=user)

    def down(messages):
        raise smtplib.SMTPServerDisconnected("down")

    monkeypatch.setattr(mail_module, "messages_send", down)
    with django_capture_on_commit_callbacks(execute=True):
        sanction_give(player=user.player, kind="yellow", reason="Late", user=board)
    assert user.player.sanctions.count() == 1
    assert SentEmail.objects.get(kind="sanction_recorded").sent_at is None


# --- allauth's emails ----------------------------------------------------------------------------------------------


def test_the_confirmation_speaks_in_the_sites_name_and_never_a_made_up_username(client,
                                                                              django_capture_on_commit_callbacks):
    client.cookies["django_language"] = "fr"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_signup"), {"email": "preux.nouveau@example.org", "password1": PASSWORD,
                                                "password2": PASSWORD})
    message = mail.outbox[0]
    username = get_user_model().objects.get(email="preux.nouveau@example.org").username
    assert "Fédération AdlG" in message.body and "Fédération AdlG" in message.from_email
    assert username not in message.body and "127.0.0.1" not in message.body and "example.com" not in message.body
    assert f"{SITE}/accounts/confirm-email/" in message.body
    assert SentEmail.objects.get(address="preux.nouveau@example.org").kind == "account"


def test_a_sign_up_with_a_known_address_mails_you_already_have_an_account(client,
                                                                         django_capture_on_commit_callbacks):
    account("ada@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_signup"), {"email": "ada@example.org", "password1": PASSWORD,
                                                           "password2": PASSWORD})
    assert response.status_code == 302
    assert mail.outbox[0].subject.endswith("You already have an account")
    assert f"{SITE}/accounts/password/reset/" in mail.outbox[0].body


def test_a_password_reset_never_names_the_username(client, django_capture_on_commit_callbacks):
    user = account("ada@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_reset_password"), {"email": "ada@example.org"})
    assert user.get_username() not in mail.outbox[0].body
    assert mail.outbox[0].subject.endswith("Reset your password")


# --- writing to the board ------------------------------------------------------------------------------------


@pytest.fixture
def board_inbox(settings):
    settings.BOARD_EMAILS = ["bureau@example.org"]
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "board_write": "2/h"}
    settings.RATELIMIT_CACHE_PREFIX = f"rl-{uuid.uuid4().hex}:"


def test_anyone_writes_to_the_board_and_it_lands_in_the_queue_and_the_boards_mailbox(
        client, board, board_inbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("board_write"), {"reply_to": "visitor@example.org", "name": "Vis Itor",
                                                        "subject": "My rating", "body": "It looks wrong."})
    assert response.status_code == 302
    message = BoardMessage.objects.get()
    assert (message.reply_to, message.user, message.handled_at) == ("visitor@example.org", None, None)
    sent = mail.outbox[0]
    assert sent.to == ["bureau@example.org"] and sent.reply_to == ["visitor@example.org"]
    assert "It looks wrong." in sent.body and f"{SITE}/board/messages/" in sent.body
    client.force_login(board)
    queue = client.get(reverse("board:messages")).content.decode()
    assert "My rating" in queue and "It looks wrong." in queue
    client.post(reverse("board:message_handle", args=[message.pk]))
    message.refresh_from_db()
    assert message.handled_at is not None and message.handled_by == board
    assert "My rating" not in client.get(reverse("board:messages")).content.decode()
    assert "My rating" in client.get(reverse("board:messages") + "?show=handled").content.decode()


def test_a_visitor_must_give_a_reply_address_and_a_signed_in_player_need_not(client, board_inbox):
    response = client.post(reverse("board_write"), {"subject": "Hello", "body": "Question"})
    assert response.status_code == 400 and not BoardMessage.objects.exists()
    user = account("ada@example.org")
    client.force_login(user)
    assert client.post(reverse("board_write"), {"subject": "Hello", "body": "Question"}).status_code == 302
    assert BoardMessage.objects.get().reply_to == "ada@example.org"


def test_the_board_form_is_throttled(client, board_inbox):
    data = {"reply_to": "visitor@example.org", "subject": "Hi", "body": "Again"}
    assert [client.post(reverse("board_write"), data).status_code for _ in range(3)] == [302, 302, 429]
    assert BoardMessage.objects.count() == 2
    assert client.get(reverse("board_write")).status_code == 200  # reading the form is never counted


def test_the_board_queue_is_the_boards_only(client, board_inbox):
    client.force_login(account("ada@example.org"))
    assert client.get(reverse("board:messages")).status_code == 403


def test_a_page_that_sends_people_to_the_board_links_to_its_form(client):
    client.force_login(account("ada@example.org"))
    page = client.post(reverse("account_claim_token", args=["not-a-token"])).content.decode()
    assert f'href="{reverse("board_write")}?from=' in page
