"""Every sign-in, the site's and the admin's, is throttled by django-axes: 5 failed attempts of one account from
one client address in 15 minutes, then every attempt of that pair is refused, even with the right password."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

RIGHT, WRONG = "referee-pass-123", "not-the-password"
BOARD_RIGHT = "board-pass-123"


def _attempt(client, password, username="referee", address="203.0.113.5", **headers):
    return client.post(reverse("login"), {"login": username, "password": password, "next": "/board/"},
                       REMOTE_ADDR=address, **headers)


def _admin_attempt(client, password, username="board", address="203.0.113.5"):
    return client.post(reverse("admin:login"), {"username": username, "password": password,
                                                "next": "/admin/"}, REMOTE_ADDR=address)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_it_signs_in_with_the_right_password(client, referee):
    response = _attempt(client, RIGHT)
    assert response.status_code == 302 and response["Location"] == "/board/"
    assert _signed_in(client)


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(client, referee):
    for _ in range(4):
        assert _attempt(client, WRONG).status_code == 200
    assert _attempt(client, WRONG).status_code == 429  # the fifth failure locks the pair out
    response = _attempt(client, RIGHT)
    assert response.status_code == 429
    assert "Too many failed sign-in attempts" in response.content.decode()
    assert not _signed_in(client)


def test_it_throttles_the_admin_login_too(client, board):
    for _ in range(12):
        _admin_attempt(client, WRONG)
    response = _admin_attempt(client, BOARD_RIGHT)
    assert response.status_code == 429
    assert not _signed_in(client)


def test_one_count_serves_both_logins(client, board):
    for _ in range(3):
        _admin_attempt(client, WRONG)
    for _ in range(2):
        _attempt(client, WRONG, username="board")
    assert _admin_attempt(client, BOARD_RIGHT).status_code == 429


def test_it_lets_the_account_in_once_the_cool_off_has_passed(client, referee):
    for _ in range(5):
        _attempt(client, WRONG)
    assert _attempt(client, RIGHT).status_code == 429
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=15, seconds=1)
        attempt.save()
    assert _attempt(client, RIGHT).status_code == 302
    assert _signed_in(client)


def test_it_still_refuses_just_before_the_cool_off_ends(client, referee):
    for _ in range(5):
        _attempt(client, WRONG)
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=14, seconds=50)
        attempt.save()
    assert _attempt(client, RIGHT).status_code == 429


def test_it_counts_per_address(client, referee):
    for _ in range(5):
        _attempt(client, WRONG, address="203.0.113.5")
    assert _attempt(client, RIGHT, address="198.51.100.7").status_code == 302


def test_it_counts_per_account(client, referee, other_referee):
    for _ in range(5):
        _attempt(client, WRONG, username="referee")
    assert _attempt(client, "other-pass-123", username="other_referee").status_code == 302


def test_it_ignores_the_case_and_spaces_of_the_username_when_counting(client, referee):
    for name in ["referee", "REFEREE", "Referee", " referee ", "rEferee"]:
        _attempt(client, WRONG, username=name)
    assert _attempt(client, RIGHT).status_code == 429


def test_a_success_clears_the_count(client, referee):
    for _ in range(4):
        _attempt(client, WRONG)
    assert _attempt(client, RIGHT).status_code == 302
    client.post(reverse("logout"))
    for _ in range(4):
        _attempt(client, WRONG)
    assert _attempt(client, RIGHT).status_code == 302


def test_a_forwarded_address_is_ignored_without_a_trusted_proxy(client, referee):
    # Without TRUSTED_PROXY_HEADER, X-Forwarded-For is the client's own writing: changing it changes nothing.
    for number in range(5):
        _attempt(client, WRONG, HTTP_X_FORWARDED_FOR=f"192.0.2.{number}")
    assert _attempt(client, RIGHT, HTTP_X_FORWARDED_FOR="192.0.2.200").status_code == 429


@override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For", TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_an_attacker_does_not_lock_the_board_out(client, board):
    proxy = "10.0.0.2"  # every request reaches the site from the proxy
    for _ in range(12):
        _attempt(client, WRONG, username="board", address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.66")
    assert _attempt(client, BOARD_RIGHT, username="board", address=proxy,
                    HTTP_X_FORWARDED_FOR="198.51.100.66").status_code == 429
    # The board member, at home, behind the same proxy.
    response = _attempt(client, BOARD_RIGHT, username="board", address=proxy,
                        HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert response.status_code == 302


@override_settings(TRUSTED_PROXY_HEADER="X-Forwarded-For", TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_a_client_cannot_spoof_its_address(client, referee):
    # The client writes addresses of its own; the proxy appends the one it saw, the last, which alone counts.
    for number in range(5):
        _attempt(client, WRONG, address="10.0.0.2", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}, 198.51.100.66")
    response = _attempt(client, RIGHT, address="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.66")
    assert response.status_code == 429


def test_it_signs_out_by_post_only(client, referee):
    client.force_login(referee)
    assert client.get(reverse("logout")).status_code == 405
    assert _signed_in(client)
    assert client.post(reverse("logout")).status_code == 302
    assert not _signed_in(client)


def test_it_refuses_a_login_without_csrf_token(referee):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    assert _attempt(client, RIGHT).status_code == 403


def test_it_does_not_redirect_to_another_site(client, referee):
    response = client.post(reverse("login"), {"login": "referee", "password": RIGHT,
                                              "next": "https://evil.example/"})
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]
