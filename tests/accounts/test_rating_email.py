""""Your tournament was rated: your rating went from 1180 to 1204": sent by the worker after the replay that first
rates a tournament, once per tournament whatever replays follow, only to players with an account, a confirmed
address and the emails on (the default), in the account's language."""

from __future__ import annotations

from datetime import date

import pytest
from django.core import mail

from adlg_site.celery import app
from players.accounts import account_settings_save
from players.models import Player, RatingNotice
from ratings import tasks
from ratings.models import RatingEvent, RatingSystem
from ratings.notifications import rating_changes
from ratings.services import replay_from_scratch
from tests.accounts.helpers import account
from tests.ratings.helpers import imported, roster, sheet
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _spring(**kwargs):
    return imported(sheet(name="Spring Clash", start=date(2024, 3, 16), **kwargs))


def test_a_player_with_an_account_hears_their_new_rating_once():
    roster()
    user = account("paul@example.org", player=Player.objects.get(pk=101))
    outcome = _spring()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    before, after = rating_changes(Tournament.objects.get(pk=outcome.tournament_id))[101]
    assert (before, after) == (1350, RatingEvent.objects.filter(player_id=101).order_by("-seq").first().rating_after)
    assert message.to == ["paul@example.org"]
    assert "Spring Clash" in message.subject and str(after) in message.subject
    assert f"went from {before} to {after}" in message.body
    assert "/players/101/" in message.body and "/accounts/" in message.body
    assert RatingNotice.objects.get(tournament_id=outcome.tournament_id).recipients == 1
    assert user.pk  # the account is untouched
    # Replayed again (from scratch, a correction, a later tournament): never a second email for it.
    replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    tasks.send_rating_emails()
    imported(sheet(name="Spring Clash", start=date(2024, 3, 16), tournament_id=outcome.tournament_id,
                   new_players=outcome.new_players))
    assert len(mail.outbox) == 1


def test_only_accounts_with_a_confirmed_address_and_the_emails_on_hear_of_it():
    roster()
    account("unconfirmed@example.org", verified=False, player=Player.objects.get(pk=101))
    off = account("off@example.org", player=Player.objects.get(pk=102))
    account_settings_save(user=off, rating_emails=False, language="en")
    closed = account("inactive@example.org", player=Player.objects.get(pk=103))
    closed.is_active = False
    closed.save()
    account("on@example.org", player=Player.objects.get(pk=104))
    _spring()
    assert [message.to for message in mail.outbox] == [["on@example.org"]]


def test_the_email_speaks_the_accounts_language():
    roster()
    user = account("luc@example.org", player=Player.objects.get(pk=102))
    account_settings_save(user=user, rating_emails=True, language="fr")
    _spring()
    assert "est intégré à l’Elo" in mail.outbox[0].subject and "Votre cote" in mail.outbox[0].body
    assert "Bonjour" in mail.outbox[0].body


def test_with_a_broker_the_replay_enqueues_the_emails_and_the_worker_sends_them(monkeypatch):
    roster()
    account("paul@example.org", player=Player.objects.get(pk=101))
    enqueued = []
    monkeypatch.setattr(tasks.send_rating_emails, "delay", lambda: enqueued.append(True))
    _spring()  # the replay runs (in-process here), and only enqueues the emails
    assert enqueued == [True] and mail.outbox == []
    assert RatingNotice.objects.filter(sent_at__isnull=True).count() == 1
    previous = app.conf.task_always_eager
    tasks.send_rating_emails.apply().get()  # the worker
    app.conf.task_always_eager = previous
    assert len(mail.outbox) == 1
    assert RatingNotice.objects.filter(sent_at__isnull=True).count() == 0


def test_a_mail_server_down_fails_neither_the_replay_nor_a_second_sending(monkeypatch):
    roster()
    account("paul@example.org", player=Player.objects.get(pk=101))

    def refuse(messages):
        raise OSError("connection refused")

    monkeypatch.setattr("ratings.notifications.messages_send", refuse)
    outcome = _spring()
    assert RatingEvent.objects.filter(tournament_id=outcome.tournament_id).exists()  # rated all the same
    assert RatingNotice.objects.get().sent_at is not None  # stamped before sending: never twice
    assert mail.outbox == []
