"""Sign-in is throttled: 5 failed attempts per username and address in 15 minutes, then every attempt is refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from players import account_views

pytestmark = pytest.mark.django_db

RIGHT, WRONG = "referee-pass-123", "not-the-password"


def _attempt(client, password, username="referee", address="203.0.113.5"):
    return client.post(reverse("login"), {"username": username, "password": password, "next": "/board/"},
                       REMOTE_ADDR=address)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_it_signs_in_with_the_right_password(client, referee):
    response = _attempt(client, RIGHT)
    assert response.status_code == 302 and response["Location"] == "/board/"
    assert _signed_in(client)


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(client, referee):
    for _ in range(5):
        assert _attempt(client, WRONG).status_code == 200
    response = _attempt(client, RIGHT)
    assert response.status_code == 429
    assert "Too many failed sign-in attempts" in response.content.decode()
    assert not _signed_in(client)


def test_it_lets_the_player_in_once_the_window_has_passed(client, referee, monkeypatch):
    for _ in range(5):
        _attempt(client, WRONG)
    assert _attempt(client, RIGHT).status_code == 429
    later = account_views._clock() + account_views.WINDOW_SECONDS + 1
    monkeypatch.setattr(account_views, "_clock", lambda: later)
    assert _attempt(client, RIGHT).status_code == 302
    assert _signed_in(client)


def test_it_still_refuses_just_before_the_window_ends(client, referee, monkeypatch):
    for _ in range(5):
        _attempt(client, WRONG)
    almost = account_views._clock() + account_views.WINDOW_SECONDS - 5
    monkeypatch.setattr(account_views, "_clock", lambda: almost)
    assert _attempt(client, RIGHT).status_code == 429


def test_it_counts_per_address(client, referee):
    for _ in range(5):
        _attempt(client, WRONG, address="203.0.113.5")
    assert _attempt(client, RIGHT, address="198.51.100.7").status_code == 302


def test_it_counts_per_username(client, referee, other_referee):
    for _ in range(5):
        _attempt(client, WRONG, username="referee")
    assert _attempt(client, "other-pass-123", username="OTHER_REFEREE".lower()).status_code == 302


def test_it_ignores_the_case_of_the_username_when_counting(client, referee):
    for name in ["referee", "REFEREE", "Referee", "referee ", "rEferee"]:
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


def test_it_limits_one_address_spraying_many_usernames(client, referee):
    for number in range(account_views.MAX_FAILURES_PER_ADDRESS):
        _attempt(client, WRONG, username=f"guess{number}")
    assert _attempt(client, RIGHT).status_code == 429


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
    response = client.post(reverse("login"), {"username": "referee", "password": RIGHT,
                                              "next": "https://evil.example/"})
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]
