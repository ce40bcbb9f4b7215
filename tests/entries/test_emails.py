"""The emails of the time before the tournament: each kind reaches its recipient in their language, with links on
SITE_URL and a one-click opt-out that is honoured; the reminder and the publication go once per entry, the
checker's digest once per tournament and day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from players import notices
from players.accounts import account_settings_save
from players.models import SentEmail
from tests.entries.conftest import send
from tournaments.before.army_lists import army_list_check
from tournaments.before.entries import entry_refuse, entry_register
from tournaments.before.reminders import (
    before_the_day_emails,
    list_reminders_send,
    lists_published_send,
    lists_waiting_send,
)

pytestmark = pytest.mark.django_db
SITE = "https://adlg.example"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def confirmed(user, address: str, language: str = "en"):
    EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
    account_settings_save(user=user, rating_emails=True, language=language)
    return user


@pytest.fixture
def player_mail(player_user):
    return confirmed(player_user, "joueur@example.org", "fr")


def _only(kind: str):
    found = [m for m in mail.outbox if SentEmail.objects.filter(subject=m.subject, kind=kind).exists()]
    assert len(found) == 1, [m.subject for m in mail.outbox]
    return found[0]


def _links(message) -> list[str]:
    return [word for word in message.body.split() if "://" in word]


def test_an_entry_recorded_is_told_in_the_players_language_with_links_on_the_site(
        announced, player_user, linked_player, player_mail, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry_register(user=player_user, tournament=announced, pool="A")
    message = _only("entry_recorded")
    assert message.to == ["joueur@example.org"]
    assert message.subject == "Votre inscription à Tournoi des Listes est enregistrée"
    assert message.body.startswith("Bonjour Simple,")  # the player's first name, never the username
    assert _links(message) and all(link.startswith(SITE + "/") for link in _links(message))
    assert message.extra_headers["List-Unsubscribe"].startswith(f"<{SITE}/accounts/emails/stop/")
    assert "Fédération AdlG" in message.from_email
    record = SentEmail.objects.get(kind="entry_recorded")
    assert (record.user, record.language, record.sent_at is not None) == (player_user, "fr", True)


def test_an_entry_refused_gives_the_referees_reason(entry, referee, player_mail,
                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry_refuse(user=referee, entry=entry, reason="Pool full")
    message = _only("entry_refused")
    assert "refusée" in message.subject and "Pool full" in message.body


def test_a_list_received_returned_and_accepted_each_tell_the_player(entry, player_user, checker, player_mail,
                                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = send(player_user, entry)
        army_list_check(user=checker, army_list=first, compliant=False, comment="Two generals too many")
        second = send(player_user, entry)
        army_list_check(user=checker, army_list=second, compliant=True)
    assert [m.subject for m in mail.outbox] == [
        "Votre liste d’armée pour Tournoi des Listes est reçue",
        "Votre liste d’armée pour Tournoi des Listes a été renvoyée",
        "Votre liste d’armée pour Tournoi des Listes est reçue",
        "Votre liste d’armée pour Tournoi des Listes est conforme",
    ]
    assert "Two generals too many" in mail.outbox[1].body


def test_an_english_account_reads_english(entry, player_user, checker, django_capture_on_commit_callbacks):
    confirmed(player_user, "joueur@example.org", "en")
    with django_capture_on_commit_callbacks(execute=True):
        send(player_user, entry)
    assert mail.outbox[0].subject == "Your army list for Tournoi des Listes is received"
    assert "AdlG Federation" in mail.outbox[0].from_email


def test_a_kind_turned_off_is_not_sent_and_the_others_still_are(entry, player_user, checker, player_mail,
                                                                 django_capture_on_commit_callbacks):
    notices.kind_mute(user=player_user, kind=notices.LISTS)
    with django_capture_on_commit_callbacks(execute=True):
        army_list = send(player_user, entry)
        army_list_check(user=checker, army_list=army_list, compliant=True)
        entry_refuse(user=checker.__class__.objects.get(username="referee"), entry=entry, reason="Late")
    assert [SentEmail.objects.get(subject=m.subject).kind for m in mail.outbox] == ["entry_refused"]


def test_no_confirmed_address_no_email(entry, player_user, django_capture_on_commit_callbacks):
    EmailAddress.objects.create(user=player_user, email="joueur@example.org", verified=False, primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        send(player_user, entry)
    assert mail.outbox == [] and not SentEmail.objects.exists()


def test_the_reminder_goes_three_days_before_the_deadline_once_per_entry(
        entry, announced, player_user, other_user, other_linked, player_mail, checker,
        django_capture_on_commit_callbacks):
    confirmed(other_user, "autre@example.org")
    other = entry_register(user=other_user, tournament=announced, pool="A")
    army_list_check(user=checker, army_list=send(other_user, other), compliant=True)  # compliant: no reminder
    deadline = announced.announcement.list_deadline
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert list_reminders_send(today=deadline - timedelta(days=4)) == 0  # too early
        assert list_reminders_send(today=deadline - timedelta(days=3)) == 1
        assert list_reminders_send(today=deadline - timedelta(days=2)) == 0  # once per entry
        assert list_reminders_send(today=deadline) == 0
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["joueur@example.org"]
    assert "liste d’armée est attendue" in mail.outbox[0].subject
    assert SentEmail.objects.filter(kind="list_reminder").count() == 1


def test_a_returned_list_is_reminded_but_one_waiting_for_the_check_is_not(
        entry, announced, player_user, checker, player_mail, django_capture_on_commit_callbacks):
    army_list = send(player_user, entry)
    deadline = announced.announcement.list_deadline
    assert list_reminders_send(today=deadline - timedelta(days=1)) == 0  # waiting for the checker
    army_list_check(user=checker, army_list=army_list, compliant=False, comment="Wrong ally")
    assert list_reminders_send(today=deadline - timedelta(days=1)) == 1


def test_the_lists_published_are_told_once_to_each_entrant(entry, announced, player_user, checker, player_mail,
                                                           django_capture_on_commit_callbacks):
    army_list_check(user=checker, army_list=send(player_user, entry), compliant=True)
    deadline = announced.announcement.list_deadline
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert lists_published_send(today=deadline) == 0  # entries still open: not published
        assert lists_published_send(today=deadline + timedelta(days=1)) == 1
        assert lists_published_send(today=deadline + timedelta(days=2)) == 0
    assert mail.outbox[0].subject == "Les listes d’armée de Tournoi des Listes sont publiées"


def test_the_checker_gets_one_digest_per_tournament_and_day_not_one_per_list(
        entry, announced, player_user, other_user, other_linked, checker, django_capture_on_commit_callbacks):
    confirmed(checker, "verif@example.org")
    other = entry_register(user=other_user, tournament=announced, pool="A")
    send(player_user, entry)
    send(other_user, other)
    today = announced.announcement.list_deadline - timedelta(days=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert lists_waiting_send(today=today) == 1
        assert lists_waiting_send(today=today) == 0  # the same day: nothing more
        assert lists_waiting_send(today=today + timedelta(days=1)) == 0  # nothing new since
        send(player_user, entry)  # a new list arrives
        assert lists_waiting_send(today=today + timedelta(days=1)) == 1
    digests = [m for m in mail.outbox if m.to == ["verif@example.org"]]
    assert [m.subject for m in digests] == ["Tournoi des Listes: 2 new army lists to check",
                                            "Tournoi des Listes: 1 new army list to check"]
    assert f"{SITE}/board/lists/" in digests[0].body
    assert "2 army lists" in digests[1].body  # a list sent again replaces its first


def test_the_hourly_task_runs_every_kind_and_is_idempotent(entry, announced, player_mail,
                                                           django_capture_on_commit_callbacks):
    deadline = announced.announcement.list_deadline
    with django_capture_on_commit_callbacks(execute=True):
        first = before_the_day_emails(today=deadline - timedelta(days=1))
        again = before_the_day_emails(today=deadline - timedelta(days=1))
    assert (first, again) == (1, 0)
