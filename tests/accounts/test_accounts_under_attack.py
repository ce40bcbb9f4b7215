"""What a red team tried on the accounts, held: a sign-up tells nobody whether an address has an account, allauth's
limits answer with the site's 429 page (with Redis up and down), a wrong password costs the same work for a known
address as for an unknown one, and every link in an email is on SITE_URL whatever Host the request named."""

from __future__ import annotations

import os
import re
import uuid
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import get_hasher
from django.core import mail
from django.test import Client
from django.urls import reverse

from adlg_site.settings import base as base_settings
from tests.accounts.helpers import PASSWORD, account

pytestmark = pytest.mark.django_db
CLOSED = "redis://127.0.0.1:6390/14"
FORGED_HOST = "127.0.0.1:1337"


@pytest.fixture
def sent(django_capture_on_commit_callbacks):
    """Emails leave once the request's transaction commits: `with sent(execute=True):` around the request."""
    return django_capture_on_commit_callbacks


def _sign_up(client, email, **extra):
    return client.post(reverse("account_signup"), {"email": email, "password1": PASSWORD, "password2": PASSWORD},
                       **extra)


# --- a sign-up with an address the site knows --------------------------------------------------------------------


def _without_csrf_token(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def test_a_sign_up_gives_the_same_page_and_status_for_a_known_an_unconfirmed_and_a_new_address(client):
    account("known@example.org")
    account("unconfirmed@example.org", verified=False)
    answers = {}
    for email in ("known@example.org", "unconfirmed@example.org", "new@example.org"):
        client.logout()
        response = _sign_up(client, email)
        followed = client.get(response["Location"])
        answers[email] = (response.status_code, response["Location"], followed.status_code,
                          _without_csrf_token(followed.content.decode().replace(email, "ADDRESS")))
    assert answers["known@example.org"] == answers["new@example.org"] == answers["unconfirmed@example.org"]
    assert answers["new@example.org"][:2] == (302, reverse("account_email_verification_sent"))


def test_the_owner_of_a_known_address_gets_the_account_already_exists_email(client, sent):
    account("known@example.org")
    with sent(execute=True):
        _sign_up(client, "known@example.org")
    assert [message.to for message in mail.outbox] == [["known@example.org"]]
    assert "/accounts/password/reset/" in mail.outbox[0].body  # how to get back in: a reset, not a second account
    assert "/accounts/confirm-email/" not in mail.outbox[0].body
    assert get_user_model().objects.filter(email__iexact="known@example.org").count() == 1


def test_a_sign_up_with_a_new_address_still_makes_the_account_and_mails_its_confirmation(client, sent):
    with sent(execute=True):
        _sign_up(client, "new@example.org")
    assert EmailAddress.objects.filter(email="new@example.org", verified=False).exists()
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in mail.outbox[0].body


# --- allauth's limits --------------------------------------------------------------------------------------------


def _redis_cache(location: str) -> dict:
    return {"default": {"BACKEND": "adlg_site.cache.BreakerRedisCache", "LOCATION": location, "KEY_PREFIX": "adlg",
                        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.25,
                                    "SOCKET_TIMEOUT": 0.25}}}


@pytest.fixture
def redis_down(settings):
    settings.CACHES = _redis_cache(CLOSED)
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False


@pytest.fixture(params=["local memory", pytest.param("redis", marks=pytest.mark.services)])
def limits_cache(request, settings):
    """The limits counted in the tests' local memory cache (tests/accounts/conftest.py), or in the real Redis."""
    if request.param == "redis":
        settings.CACHES = _redis_cache(os.environ["REDIS_URL"])


def _is_the_sites_429_page(response) -> bool:
    page = response.content.decode()
    return response.status_code == 429 and "Too many requests from your connection" in page and (
        "Wait a few minutes, then try again." in page)


def test_the_sixth_reset_to_one_address_answers_the_sites_429_page(client, limits_cache):
    email = f"reset-{uuid.uuid4().hex[:8]}@example.org"
    account(email)
    statuses = [client.post(reverse("account_reset_password"), {"email": email}).status_code for _ in range(5)]
    assert statuses == [302] * 5
    assert _is_the_sites_429_page(client.post(reverse("account_reset_password"), {"email": email}))


def test_the_twenty_first_sign_up_from_one_address_answers_the_sites_429_page(client, limits_cache):
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"
    for number in range(20):
        assert _sign_up(client, f"n{number}-{uuid.uuid4().hex[:6]}@example.org", REMOTE_ADDR=address).status_code \
            in (200, 302)
        client.logout()
    assert _is_the_sites_429_page(_sign_up(client, "one-more@example.org", REMOTE_ADDR=address))


def _signed_in(client):
    user = account()
    client.force_login(user)
    return user


# Each of allauth's pages behind one of its limits, as a client posts to it.
LIMITED_PAGES = {
    "sign-up": lambda client: _sign_up(client, "down@example.org"),
    "password reset": lambda client: client.post(reverse("account_reset_password"), {"email": "x@example.org"}),
    "password reset from its link": lambda client: client.post(
        reverse("account_reset_password_from_key", kwargs={"uidb36": "1", "key": "set-password"}),
        {"password1": "n3w-long-pass-99", "password2": "n3w-long-pass-99"}),
    "addresses and their confirmation emails": lambda client: _signed_in(client) and client.post(
        reverse("account_email"), {"action_add": "", "email": "second@example.org"}),
}


@pytest.mark.parametrize("page", LIMITED_PAGES)
def test_with_redis_down_every_allauth_limit_answers_the_sites_429_page(client, redis_down, page):
    assert _is_the_sites_429_page(LIMITED_PAGES[page](client))


# --- a wrong password --------------------------------------------------------------------------------------------


def _hashings_of_a_sign_in(client, login: str) -> int:
    """Each hashing of a password is one call of the hasher's encode: checking a password (verify encodes what was
    typed with the stored salt) and the decoy hashing for an unknown account alike."""
    hasher = type(get_hasher())
    with mock.patch.object(hasher, "encode", autospec=True, side_effect=hasher.encode) as encode:
        response = client.post(reverse("login"), {"login": login, "password": "not-the-password"})
    assert response.status_code == 200  # refused, the form again
    return encode.call_count


def test_a_wrong_password_costs_the_same_hashing_for_a_known_address_as_for_an_unknown_one(client):
    user = account("known@example.org")
    assert _hashings_of_a_sign_in(client, "known@example.org") == 1
    assert _hashings_of_a_sign_in(client, "nobody@example.org") == 1
    assert _hashings_of_a_sign_in(client, user.username) == 1


def test_the_right_password_still_signs_in_by_address(client):
    account("known@example.org")
    response = client.post(reverse("login"), {"login": "known@example.org", "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session


# --- links in an email -------------------------------------------------------------------------------------------


def _hosts_of_the_links(message) -> set[str]:
    return set(re.findall(r"(https?://[^/\s]+)/", message.body))


def test_a_password_reset_mailed_under_a_forged_host_links_to_the_site_url(client, settings, sent):
    settings.SITE_URL = "https://adlg.example"
    account("known@example.org")
    with sent(execute=True):
        client.post(reverse("account_reset_password"), {"email": "known@example.org"}, HTTP_HOST=FORGED_HOST)
    assert len(mail.outbox) == 1
    assert _hosts_of_the_links(mail.outbox[0]) == {"https://adlg.example"}
    assert FORGED_HOST not in mail.outbox[0].body


def test_a_confirmation_mailed_under_a_forged_host_links_to_the_site_url(client, settings, sent):
    settings.SITE_URL = "https://adlg.example"
    with sent(execute=True):
        _sign_up(client, "new@example.org", HTTP_HOST=FORGED_HOST)
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in mail.outbox[0].body
    assert _hosts_of_the_links(mail.outbox[0]) == {"https://adlg.example"}
    assert FORGED_HOST not in mail.outbox[0].body


@pytest.mark.parametrize("known", [True, False], ids=["account already exists", "unknown account"])
def test_the_emails_about_an_address_without_a_new_account_link_to_the_site_url(client, settings, sent, known):
    settings.SITE_URL = "https://adlg.example"
    if known:
        account("known@example.org")
    with sent(execute=True):
        if known:
            _sign_up(client, "known@example.org", HTTP_HOST=FORGED_HOST)
        else:
            client.post(reverse("account_reset_password"), {"email": "nobody@example.org"}, HTTP_HOST=FORGED_HOST)
    assert len(mail.outbox) == 1
    assert _hosts_of_the_links(mail.outbox[0]) == {"https://adlg.example"}
    assert FORGED_HOST not in mail.outbox[0].body


# --- a sign-in name longer than any account's --------------------------------------------------------------------


@pytest.mark.parametrize(("url", "field"), [("/accounts/login/", "login"), ("/admin/login/", "username")],
                         ids=["site", "admin"])
def test_a_sign_in_name_over_255_characters_is_refused_by_the_form_and_nothing_is_stored(client, url, field):
    response = client.post(url, {field: "x" * 300, "password": "whatever-it-is"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert "254" in response.content.decode()  # the form says how long a name may be
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()


def test_a_sign_in_name_of_an_addresses_full_length_is_still_counted(client):
    login = "x" * 242 + "@example.org"  # 254 characters, the longest address
    client.post("/accounts/login/", {"login": login, "password": "whatever-it-is"})
    assert AccessAttempt.objects.get().username == login


# --- wrong current passwords on the signed-in account's forms ----------------------------------------------------


@pytest.fixture
def current_password_limit(settings):
    """The real limit (the test settings raise every limit far above what the suite sends)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "current_password": base_settings.RATE_LIMITS["current_password"]}
    assert settings.RATE_LIMITS["current_password"] == "5/15m"


def _change_password(client, current: str):
    return client.post(reverse("account_change_password"),
                       {"oldpassword": current, "password1": "n3w-long-pass-99", "password2": "n3w-long-pass-99"})


def _close_account(client, current: str):
    return client.post(reverse("account_close"), {"password": current, "confirm": "on"})


@pytest.mark.parametrize("form", [_change_password, _close_account], ids=["password change", "closing the account"])
def test_wrong_current_passwords_are_throttled_per_account_with_the_sites_429_page(client, current_password_limit,
                                                                                  form):
    user = account()
    client.force_login(user)
    assert [form(client, f"guess-{number}").status_code for number in range(5)] == [200] * 5
    refused = form(client, PASSWORD)  # even the right one, until the window ends
    assert refused.status_code == 429 and "Too many requests from your connection" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    user.refresh_from_db()
    assert user.is_active and user.check_password(PASSWORD)


def test_both_forms_share_the_count_and_another_account_is_not_affected(client, current_password_limit):
    user = account()
    client.force_login(user)
    for number in range(3):
        _change_password(client, f"guess-{number}")
    for number in range(2):
        _close_account(client, f"guess-{number}")
    assert _change_password(client, PASSWORD).status_code == 429
    client.force_login(account())
    assert _change_password(client, PASSWORD).status_code == 302


def test_the_right_current_password_is_not_counted(client, current_password_limit):
    user = account()
    client.force_login(user)
    for number in range(6):
        new = f"n3w-long-pass-{number}"
        old = PASSWORD if number == 0 else f"n3w-long-pass-{number - 1}"
        response = client.post(reverse("account_change_password"),
                               {"oldpassword": old, "password1": new, "password2": new})
        assert response.status_code == 302


# --- a closed account's sign-in records --------------------------------------------------------------------------


def test_closing_an_account_deletes_its_sign_in_records_and_keeps_the_others(client):
    user = account("leaving@example.org")
    other = account("staying@example.org")
    assert client.post(reverse("login"), {"login": "leaving@example.org", "password": PASSWORD}).status_code == 302
    prober = Client()
    for login in ("leaving@example.org", user.username, "staying@example.org"):
        prober.post(reverse("login"), {"login": login, "password": "not-the-password"}, HTTP_USER_AGENT="Probe/1.0")
    names = {user.username.casefold()}
    assert AccessLog.objects.filter(username__in=names).exists()
    assert AccessAttempt.objects.filter(username__in=names).exists()
    response = client.post(reverse("account_close"), {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == 302
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        assert set(model.objects.values_list("username", flat=True)) <= {other.username.casefold()}
    assert AccessAttempt.objects.filter(username=other.username.casefold()).exists()
