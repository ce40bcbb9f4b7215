"""The error pages under DEBUG=false: the site's layout and navigation, in the visitor's language."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import path

from tests.public.conftest import text


def _crash(request):
    raise RuntimeError("boom")


def _bad(request):
    from django.core.exceptions import SuspiciousOperation

    raise SuspiciousOperation("malformed")


def _denied(request):
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied


urlpatterns = [
    path("crash/", _crash),
    path("bad/", _bad),
    path("denied/", _denied),
]


@pytest.fixture
def errors_urlconf(settings):
    """The site's own URLs, plus three views that fail on purpose; the site's handlers stay in force."""
    import adlg_site.urls as site

    module = type(site)("tests_error_urls")
    module.urlpatterns = [*urlpatterns, *site.urlpatterns]
    module.handler400, module.handler500 = site.handler400, site.handler500
    import sys

    sys.modules["tests_error_urls"] = module
    settings.ROOT_URLCONF = "tests_error_urls"
    settings.DEBUG = False
    yield
    del sys.modules["tests_error_urls"]


def client_in(language: str) -> Client:
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)


EXPECTED = {
    # status: (path, English heading, French heading)
    404: ("/no-such-page/", "This page does not exist", "Cette page n’existe pas"),
    403: ("/denied/", "This page is not for your account", "Cette page n’est pas pour votre compte"),
    400: ("/bad/", "The site could not understand this request", "Le site n’a pas compris cette demande"),
    500: ("/crash/", "Something went wrong on the site", "Un problème est survenu sur le site"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("status", sorted(EXPECTED))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_error_page_has_the_sites_layout_in_the_visitors_language(errors_urlconf, status, language):
    url, english, french = EXPECTED[status]
    response = client_in(language).get(url)
    assert response.status_code == status
    page = text(response)
    assert f'<html lang="{language}">' in page
    assert (english if language == "en" else french) in page
    # the site's navigation and footer, so a lost visitor can go on
    assert 'class="site-nav"' in page and 'href="/ratings/"' in page and 'href="/rules/"' in page
    assert 'class="site-footer"' in page and 'href="/notices/"' in page
    assert "Traceback" not in page and "boom" not in page


@pytest.mark.django_db
def test_the_500_page_needs_no_database(errors_urlconf, monkeypatch):
    """A crash of the database must not crash its error page: it renders without session or context processors."""
    from django.db.backends.base.base import BaseDatabaseWrapper

    def no_database(*args, **kwargs):
        raise AssertionError("the 500 page touched the database")

    client = client_in("en")
    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", no_database)
    response = client.get("/crash/")
    assert response.status_code == 500 and "Something went wrong on the site" in text(response)


@pytest.mark.django_db
def test_the_404_page_keeps_a_signed_in_referees_account(errors_urlconf, referee):
    client = client_in("en")
    client.force_login(referee)
    page = text(client.get("/no-such-page/"))
    assert "Signed in as <strong>referee</strong>" in page and 'action="/accounts/logout/"' in page


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_missing_player_is_the_styled_404(client):
    response = client.get("/players/987654/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and "This page does not exist" in text(response)


@pytest.mark.django_db
def test_the_csrf_refusal_is_the_styled_page_in_french(errors_urlconf):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fr")
    response = client.post("/i18n/setlang/", {"language": "en"})
    assert response.status_code == 403
    page = text(response)
    assert "Le formulaire n’a pas pu être envoyé" in page and 'class="site-nav"' in page


def test_the_favicon_is_linked_and_served(client, db):
    page = text(client.get("/"))
    assert 'rel="icon" href="/static/favicon.svg"' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
