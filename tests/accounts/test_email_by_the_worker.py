"""Email leaves through the worker, never inside the request: the confirmation of an address, the password reset.
With a broker the request only hands the rendered message over (after its transaction commits); the worker's
task sends it. Without one (the embedded default) the task runs in-process, and the message is in the outbox when
the request ends."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.urls import reverse

from adlg_site.celery import app
from players import tasks
from players.mail import message_as_data, message_from_data
from tests.accounts.helpers import PASSWORD, account

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "another-long-pass-77"


@pytest.fixture
def broker(monkeypatch):
    """A broker is configured: tasks are sent, not run. The task's delay is recorded instead of reaching Redis."""
    handed = []
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    monkeypatch.setattr(tasks.send_email, "delay", lambda data: handed.append(data))
    yield handed
    app.conf.task_always_eager = previous


def _sign_up(client, email="ada@example.org"):
    return client.post(reverse("account_signup"), {"email": email, "password1": PASSWORD, "password2": PASSWORD})


def _link(body: str) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/\S+)", body).group(1)


def test_with_a_broker_the_signup_request_only_enqueues_and_the_worker_sends(client, broker,
                                                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = _sign_up(client)
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    assert len(callbacks) >= 1  # handed over after the commit, not before
    assert mail.outbox == []  # nothing was sent in the request
    assert len(broker) == 1 and broker[0]["to"] == ["ada@example.org"]
    # The worker runs the task: now the message is sent.
    tasks.send_email.apply(args=[broker[0]]).get()
    assert len(mail.outbox) == 1
    assert "/accounts/confirm-email/" in mail.outbox[0].body


def test_with_a_broker_the_password_reset_request_only_enqueues(client, broker, django_capture_on_commit_callbacks):
    account("ada@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_reset_password"), {"email": "ada@example.org"})
    assert response.status_code == 302
    assert mail.outbox == [] and len(broker) == 1
    tasks.send_email.apply(args=[broker[0]]).get()
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


def test_nothing_is_handed_over_before_the_commit(broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        tasks.email_later(mail.EmailMessage("subject", "body", "from@example.org", ["to@example.org"]))
    assert broker == [] and len(callbacks) == 1  # waits for the commit


def test_without_a_broker_the_task_runs_in_process(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _sign_up(client)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.org"]


def test_a_message_survives_the_trip_to_the_worker_whole():
    message = mail.EmailMultiAlternatives("Sujet é", "corps", "AdlG <noreply@example.org>", ["a@example.org"],
                                          reply_to=["board@example.org"], headers={"X-Kind": "test"})
    message.attach_alternative("<p>corps</p>", "text/html")
    again = message_from_data(message_as_data(message))
    assert (again.subject, again.body, again.from_email, again.to, again.reply_to) == (
        "Sujet é", "corps", "AdlG <noreply@example.org>", ["a@example.org"], ["board@example.org"])
    assert again.alternatives[0][:2] == ("<p>corps</p>", "text/html")
    assert again.extra_headers == {"X-Kind": "test"}


# --- the whole flows, in-process ---------------------------------------------------------------------------------


def test_sign_up_confirm_and_sign_in_with_the_address(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _sign_up(client)
    user = get_user_model().objects.get(email="ada@example.org")
    # Not confirmed yet: signing in sends a new link instead of letting in.
    client.post(reverse("logout"))
    response = client.post(reverse("login"), {"login": "ada@example.org", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    link = _link(mail.outbox[0].body)
    assert client.get(link).status_code == 200
    response = client.post(link)
    assert response.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    client.post(reverse("logout"))
    response = client.post(reverse("login"), {"login": "ADA@example.org", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)


def test_the_emails_speak_the_language_of_the_page(client, django_capture_on_commit_callbacks):
    client.cookies["django_language"] = "fr"
    with django_capture_on_commit_callbacks(execute=True):
        _sign_up(client, "zoe@example.org")
    assert "Confirmez votre adresse" in mail.outbox[0].subject


def test_reset_a_forgotten_password(client, django_capture_on_commit_callbacks):
    user = account("ada@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_reset_password"), {"email": "ada@example.org"})
    link = _link(mail.outbox[0].body)
    form_page = client.get(link, follow=True)
    action = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    response = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_the_board_still_signs_in_with_a_username_and_no_address(client, board):
    response = client.post(reverse("login"), {"login": "board", "password": "board-pass-123"})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    assert mail.outbox == []


def test_failed_sign_ins_by_address_and_by_username_count_for_one_account(client):
    account("ada@example.org")
    username = get_user_model().objects.get(email="ada@example.org").username
    for login in ["ada@example.org", "ADA@example.org", username, "ada@example.org", username.upper()]:
        client.post(reverse("login"), {"login": login, "password": "wrong"}, REMOTE_ADDR="203.0.113.5")
    response = client.post(reverse("login"), {"login": "ada@example.org", "password": PASSWORD},
                           REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 429
    assert "Too many failed sign-in attempts" in response.content.decode()


def test_the_worker_loads_the_adapter_without_any_allauth_page_loaded_before():
    """The worker loads no URL configuration: the adapter must import on its own (allauth's stages, imported
    before its internals, are a circular import)."""
    code = ("import django; django.setup(); import players.account_adapter, players.tasks, ratings.tasks; "
            "print('loaded')")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin",
                                                      "DJANGO_SETTINGS_MODULE": "adlg_site.settings.local"})
    assert done.stdout.strip() == "loaded", done.stderr[-2000:]
