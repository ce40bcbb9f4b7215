"""No secret of a URL (a private link's token, a claim token) reaches any log line: Django's request log (a 4xx
logs its path), the development server's and gunicorn's access log (adlg_site.log_filters). The test captures every
record of a run of requests to token URLs and reads them all."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.urls import reverse

from adlg_site.log_filters import PrivateLinkFilter, hide_secrets
from players.claims import claim_token_issue
from tests import factories as f
from tests.accounts.helpers import account
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.links import entrant_link_path, link_reissue

pytestmark = pytest.mark.django_db


class _Everything(logging.Handler):
    """Every record of every logger, formatted as a handler would write it."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


@pytest.fixture
def captured():
    handler = _Everything()
    loggers = [logging.getLogger(), logging.getLogger("django.request"), logging.getLogger("django.server")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    yield handler.lines
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_no_token_in_any_log_line_of_requests_to_token_urls(client, captured):
    live = live_tournament(federation_players(2, first_id=5001), name="Logged open")
    entrant = live.entrants.first()
    revoked = entrant_link_path(entrant)
    link_reissue(live, entrant)
    claim = claim_token_issue(player=f.player())
    wrong = "w" * 43
    client.force_login(account())
    client.get(revoked)  # 404
    client.post(reverse("account_claim_token", args=[wrong]))  # 400
    client.post(reverse("account_claim_token", args=[claim]))  # linked: 302
    client.post(reverse("account_claim_token", args=[claim]))  # used: 400
    secrets = [revoked.rstrip("/").rsplit("/", 1)[1], wrong, claim]
    assert any("/claim/token/…/" in line for line in captured) and any("/live/me/…/" in line for line in captured)
    assert not [line for line in captured for secret in secrets if secret in line]


def test_gunicorns_access_log_writes_no_token():
    pytest.importorskip("gunicorn")
    from gunicorn.config import Config

    from adlg_site.log_filters import GunicornLogger
    logger = GunicornLogger(Config())
    assert any(isinstance(f, PrivateLinkFilter) for f in logger.access_log.filters)
    record = logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1, '%(h)s "%(r)s" %(s)s', None, None)
    record.args = {"h": "10.0.0.1", "r": "GET /accounts/claim/token/SeCrEt-123_abc/ HTTP/1.1", "s": "400"}
    for log_filter in logger.access_log.filters:
        log_filter.filter(record)
    assert record.getMessage() == '10.0.0.1 "GET /accounts/claim/token/…/ HTTP/1.1" 400'


def test_gunicorns_access_log_keeps_the_line_of_a_request_without_a_header_its_format_names(tmp_path):
    """The format may name a header (a proxy's, a referrer) that a request does not send: gunicorn writes "-" for
    it, and the filter must not lose the line (it did, replacing gunicorn's mapping of the request by a dict)."""
    pytest.importorskip("gunicorn")
    from types import SimpleNamespace

    from gunicorn.config import Config

    from adlg_site.log_filters import GunicornLogger
    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    config.set("access_log_format", '%(U)s %(s)s %({x-forwarded-for}i)s %({referer}i)s')
    logger = GunicornLogger(config)
    request = SimpleNamespace(headers=[("X-FORWARDED-FOR", "203.0.113.5")], uri="/accounts/claim/token/SeCrEt/",
                              path="/accounts/claim/token/SeCrEt/", query="", method="GET", version=(1, 1))
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])
    environ = {"REMOTE_ADDR": "127.0.0.1", "RAW_URI": request.uri, "SERVER_PROTOCOL": "HTTP/1.1",
               "REQUEST_METHOD": "GET", "PATH_INFO": request.path}
    logger.access(response, request, environ, datetime.timedelta(milliseconds=3))
    for handler in logger.access_log.handlers:
        handler.flush()
    assert (tmp_path / "access.log").read_text() == "/accounts/claim/token/…/ 200 203.0.113.5 -\n"


@pytest.mark.parametrize(("line", "written"), [
    ("Not Found: /tournaments/12/live/me/abcDEF_-123/", "Not Found: /tournaments/12/live/me/…/"),
    ("Bad Request: /accounts/claim/token/xyz/", "Bad Request: /accounts/claim/token/…/"),
    ("GET /accounts/login/?next=%2Ftournaments%2F3%2Flive%2Fme%2Fsecret%2F",
     "GET /accounts/login/?next=%2Ftournaments%2F3%2Flive%2Fme%2F…%2F"),
])
def test_the_filter_hides_the_token_of_every_secret_path(line, written):
    assert hide_secrets(line) == written
