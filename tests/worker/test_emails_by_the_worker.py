"""The site's emails on the real stack: the action commits, the message goes through Redis, a Celery worker in its
own process sends it (its console backend: the messages are read back from its log) and stamps its record; the
reminder is composed by the worker itself, from the hourly task. Each: recipient, language, subject, links on
SITE_URL, and an opt-out honoured."""

from __future__ import annotations

import email
import re
import time
from datetime import timedelta
from email.header import decode_header, make_header

import pytest
from allauth.account.models import EmailAddress
from django.template.defaultfilters import date as date_filter
from django.utils import timezone, translation

from players import notices
from players.accounts import account_settings_save
from players.governance import sanction_give
from players.models import SentEmail
from tests.entries.conftest import announce, send
from tests.governance.factories import make_player, make_tournament
from tournaments.before.army_lists import army_list_check
from tournaments.before.entries import entry_register
from tournaments.tasks import send_before_the_day_emails

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
SITE = "https://adlg.example"


def _person(django_user_model, username: str, address: str, language: str, last: str, first: str):
    user = django_user_model.objects.create_user(username, password="a-long-player-pass-42")
    EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
    account_settings_save(user=user, rating_emails=True, language=language)
    make_player(last, first, user=user)
    return user


def _sent_by_the_worker(log, count: int, timeout: float = 90) -> list[email.message.Message]:
    """The messages the worker's console backend wrote, once `count` records are stamped sent."""
    deadline = time.monotonic() + timeout
    while SentEmail.objects.filter(sent_at__isnull=False).count() < count:
        assert time.monotonic() < deadline, list(SentEmail.objects.values_list("kind", "sent_at"))
        time.sleep(0.2)
    # The worker logs what the backend writes on its stdout, each write behind a "[time: WARNING/...] " prefix.
    chunks = re.split(r"\n\[[^\]]*\] -{79}\n", log.read_text(encoding="utf-8", errors="replace"))
    messages = []
    for chunk in chunks:
        start = chunk.rfind("] Content-Type:")
        if start >= 0 and "\nTo: " in chunk[start:]:
            messages.append(email.message_from_bytes(chunk[start + 2:].encode("utf-8")))
    return messages


def _subject(message) -> str:
    return str(make_header(decode_header(message["Subject"])))


def _body(message) -> str:
    return message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")


@pytest.fixture
def site_and_console(monkeypatch, settings):
    """The site's address for this process and the worker's (read from the environment when it starts), and a
    console mail backend on the worker."""
    settings.SITE_URL = SITE
    monkeypatch.setenv("SITE_URL", SITE)
    monkeypatch.setenv("EMAIL_URL", "console://")


def test_the_worker_sends_each_kind_in_the_recipients_language_with_links_on_the_site(
        site_and_console, celery_worker_process, django_user_model, referee, board):
    worker = celery_worker_process()
    today = timezone.localdate()
    deadline = today + timedelta(days=2)
    tournament = make_tournament("Tournoi du Worker", start=today + timedelta(days=20), referees=[referee])
    announce(tournament, referee, list_deadline=deadline, list_checker=referee)
    tournament.refresh_from_db()
    french = _person(django_user_model, "fr_player", "joueuse@example.org", "fr", "Martin", "Zoé")
    english = _person(django_user_model, "en_player", "player@example.org", "en", "Smith", "Ann")
    muted = _person(django_user_model, "muted_player", "muted@example.org", "en", "Quiet", "Sam")
    notices.kind_mute(user=muted, kind=notices.ENTRIES)

    entry_register(user=french, tournament=tournament, pool="A")  # entry recorded (fr)
    english_entry = entry_register(user=english, tournament=tournament, pool="A")  # entry recorded (en)
    entry_register(user=muted, tournament=tournament, pool="A")  # turned off: nothing
    army_list_check(user=referee, army_list=send(english, english_entry), compliant=False,
                    comment="Two generals too many")  # list received, list returned (en)
    sanction_give(player=french.player, kind="yellow", reason="Late army list", user=board)  # sanction (fr)
    send_before_the_day_emails.delay()  # the worker composes the reminders: no list, or one returned
    messages = _sent_by_the_worker(worker.log, count=8)

    by_recipient: dict[str, list[str]] = {}
    for message in messages:
        by_recipient.setdefault(message["To"], []).append(_subject(message))
        links = [word for word in _body(message).split() if "://" in word]
        assert links and all(link.startswith(SITE + "/") for link in links), links
        assert message["List-Unsubscribe"].strip().startswith(f"<{SITE}/accounts/emails/stop/")
    assert sorted(by_recipient["joueuse@example.org"]) == sorted([
        "Votre inscription à Tournoi du Worker est enregistrée",
        "Le bureau technique a enregistré une sanction\u00a0: carton jaune",
        "Tournoi du Worker\u00a0: votre liste d’armée est attendue au plus tard le " + _date(deadline, "fr"),
    ])
    assert by_recipient["player@example.org"] == [
        "Your entry into Tournoi du Worker is recorded",
        "Your army list for Tournoi du Worker is received",
        "Your army list for Tournoi du Worker was returned",
        "Tournoi du Worker: your army list is due by " + _date(deadline, "en"),  # returned, not sent again
    ]
    assert [_subject(m) for m in messages if m["To"] == "muted@example.org"] == [
        "Tournoi du Worker: your army list is due by " + _date(deadline, "en")]
    returned = next(m for m in messages if _subject(m).endswith("was returned"))
    assert "Two generals too many" in _body(returned)
    assert set(SentEmail.objects.values_list("language", flat=True)) == {"fr", "en"}
    assert not SentEmail.objects.filter(sent_at__isnull=True).exists()


def _date(day, language: str) -> str:
    with translation.override(language):
        return date_filter(day)
