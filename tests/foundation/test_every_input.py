"""No user-supplied value gives a server error: every URL pattern of the site (public pages, referee and board
pages, the admin's lists, the API, the tournament day's pages), as an anonymous visitor, a referee and the board,
with hostile values in its query string and its forms.

The values: `²` (a digit to str.isdigit, not to int), a NUL byte (which PostgreSQL refuses in text), huge and
negative numbers, lone surrogates, other scripts' digits, long strings, dates that do not exist, and whatever
hypothesis makes of them. The parameter names are every name the site reads: the fields of its forms, its API
filters, and the names its views read from request.GET; the URL patterns are walked from the resolver, so new
pages and parameters are picked up as they appear.

The test runs on SQLite and, on CI's second pass (DATABASE_URL=postgres://…), on PostgreSQL; the NUL byte fails
only there, and `test_the_nul_byte_is_refused_on_postgresql` (marked `services`) makes sure that pass happened.
"""

from __future__ import annotations

import itertools
import random
import re
from urllib.parse import quote

import pytest
from django import forms
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from players.governance import sanction_give
from players.models import Sanction
from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tests.referee.helpers import create_known_players, make_tournament, upload, valid_sheet
from tournaments.live.links import entrant_link_token
from tournaments.live.rounds import round_pair
from tournaments.models import LiveRound, LiveTable, Sheet

pytestmark = pytest.mark.django_db

# Not pages: the language switch (POST only, answers a redirect to anything) and signing out. The pre-filled
# workbook of a tournament reads no parameter and takes a second to build.
SKIPPED = ("i18n/", "accounts/logout/", "referee/tournaments/<int:tournament_id>/template.xlsx")
HUGE = "9" * 40
HOSTILE = ["²", "\x00", "a\x00b", "٣", "１", HUGE, "-" + HUGE, "-1", "0", "1e308", "nan", "\ud800", "x" * 5000,
           "%", "'\"<>", "2024-02-30", "99999-12-31", "true", " ", "🀄"]
# The names the views read straight from request.GET (the forms' fields and the API's filters are found below).
READ_NAMES = {"q", "page", "page_size", "opponent", "tournament", "player", "keep", "next", "format", "system",
              "country", "international", "search", "ordering", "year"}
_CONVERTER = re.compile(r"<(?:(?P<type>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(resolver: URLResolver | None = None, prefix: str = ""):
    for entry in (resolver or get_resolver()).url_patterns:
        text = str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            yield from _routes(entry, prefix + text)
        elif isinstance(entry, URLPattern):
            yield prefix + text


def _fill(route: str, values: dict[str, list]) -> list[str]:
    """The URLs of a route with its converters filled (by name, else by type); none for a regex with groups or an
    admin page that needs an object."""
    if route.startswith(SKIPPED) or re.search(r"[()\[\]*+?|\\]", route.replace("\\Z", "")):
        return []
    slots = list(_CONVERTER.finditer(route))
    if route.startswith("admin/") and (slots or route.endswith("/add/")):  # the admin: its lists
        return []
    choices = [values.get(m.group("name")) or values[m.group("type") or "str"] for m in slots]
    urls = []
    for combo in itertools.islice(itertools.product(*choices), 3):
        url, last = "", 0
        for match, value in zip(slots, combo, strict=True):
            url += route[last:match.start()] + str(value)
            last = match.end()
        urls.append("/" + url + route[last:])
    return urls


def _project_forms() -> list[type[forms.Form]]:
    found, stack = [], [forms.Form]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in {"players", "tournaments", "ratings", "championship", "adlg_site"}:
            found.append(cls)
    return found


def parameter_names() -> set[str]:
    names = set(READ_NAMES)
    for form in _project_forms():
        names.update(form.base_fields)
    return names


def api_names(url: str) -> set[str] | None:
    """The query parameters an API view accepts (it refuses any other), or None for a page."""
    view_class = getattr(resolve(url.split("?")[0]).func, "view_class", None)
    if view_class is None or not hasattr(view_class, "allowed_query_params"):
        return None
    return view_class().allowed_query_params()


def query(params: dict[str, str]) -> str:
    """A query string as a browser would send it, lone surrogates included (as their UTF-8 bytes would be)."""
    return "&".join(f"{quote(name)}={quote(value.encode('utf-8', 'surrogatepass'))}" for name, value in params.items())


@pytest.fixture
def world(db, board, referee):
    """Something behind every URL: a rated tournament, a tournament run live (one round played, the next
    proposed) and an uploaded sheet, both the referee's; a card to withdraw."""
    federation = factories.federation(6)
    live = live_tournament(federation_players(7))
    play_round(live, 1, random.Random(4))
    round_pair(live)
    live.tournament.referees.add(referee)
    known = create_known_players()
    sheet_tournament = make_tournament(referees=[referee], registered=[known[pid] for pid in (101, 102, 104)])
    client = Client()
    client.force_login(referee)
    upload(client, valid_sheet(sheet_tournament).build())
    card = sanction_give(player=federation.players[0], kind=Sanction.YELLOW, reason="late", user=board)
    # One value a converter (by name, else by type), the one that shows the most: the tournament run live, the
    # round proposed; `pk` names a tournament, a sheet or a card, whichever the page shows.
    values = {
        "int": [live.pk], "str": ["adlg"], "slug": ["adlg"], "path": ["adlg"],
        "player_id": [federation.players[0].pk], "tournament_id": [live.pk], "year": [2024], "number": [2],
        "table": [1], "table_id": [LiveTable.objects.filter(round__number=1).first().pk],
        "round_id": [LiveRound.objects.get(number=2).pk], "country": ["FR"], "system": ["adlg"], "code": ["adlg"],
        "token": [entrant_link_token(live.entrants.first())],
        "pk": sorted({live.pk, federation.tournament.pk, Sheet.objects.get().pk, card.pk}),
    }
    urls = sorted({url for route in _routes() for url in _fill(route, values)})
    return {"urls": urls, "names": sorted(parameter_names()), "player": federation.players[0].pk}


@pytest.fixture
def clients(board, referee):
    made = {"anonymous": Client(raise_request_exception=False)}
    for name, user in (("referee", referee), ("board", board)):
        made[name] = Client(raise_request_exception=False)
        made[name].force_login(user)
    return made


def _failure(method: str, url: str, response) -> str | None:
    if response.status_code < 500:
        return None
    error = getattr(response, "exc_info", None)
    return f"{method} {url[:200]} -> {response.status_code} {error[1]!r}"[:400] if error else f"{method} {url[:200]}"


def test_the_walk_reaches_the_site(world):
    urls = world["urls"]
    for expected in ("/search/", "/api/players/", "/referee/template.xlsx", "/board/tournaments/", "/ratings/adlg/",
                     "/admin/players/player/"):
        assert expected in urls
    assert any(re.fullmatch(r"/players/\d+/", url) for url in urls)
    assert any("/live/" in url for url in urls)
    assert {"q", "opponent", "tournament", "search", "club", "player_id"} <= set(world["names"])


@pytest.mark.slow
def test_no_hostile_value_of_any_parameter_gives_a_server_error(world, clients):
    """Every parameter at once with one hostile value: as the board with several, as the others with the reported
    two (the pages mostly answer them a redirect to the sign-in); then, for the API, which refuses a parameter it
    does not know, each of its own parameters alone."""
    failures = []
    for url in world["urls"]:
        names = api_names(url)
        for role, client in clients.items():
            for value in (["²", "\x00", HUGE, "-1", "\ud800", "x" * 300] if role == "board" else ["²", "\x00"]):
                params = dict.fromkeys(sorted(names if names is not None else world["names"]), value)
                target = f"{url}?{query(params)}"
                failures.append(_failure("GET", target, client.get(target)))
        if names is not None:  # an API view reads one parameter at a time: one at a time, each
            for name, value in itertools.product(sorted(names), ["²", "\x00", HUGE, "-1"]):
                target = f"{url}?{query({name: value})}"
                failures.append(_failure("GET", target, clients["anonymous"].get(target)))
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures[:40])


@pytest.mark.slow
def test_no_hostile_value_posted_to_any_form_gives_a_server_error(world, clients):
    """Every field of every form at once, with one hostile value, posted to every page as the board."""
    failures = []
    fields = [name for name in world["names"] if name not in READ_NAMES]
    for url in world["urls"]:
        if url.startswith(("/api/", "/admin/")):  # the API's writes are the upload's (tests/referee); the admin's
            continue
        for value in ["²", "\x00", HUGE]:
            body = query(dict.fromkeys(fields, value))
            response = clients["board"].post(url, body, content_type="application/x-www-form-urlencoded")
            failures.append(_failure("POST", f"{url} ({value[:10]!r})", response))
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures[:40])


# Hypothesis: anything at all, in one to three parameters of a URL, as any of the three.
values = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=40),
    st.text(st.characters(codec=None, categories=["Nd", "No", "Cs", "Cc", "Zs"]), max_size=12),
    st.integers(min_value=-10**30, max_value=10**30).map(str),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_generated_query_string_gives_a_server_error(world, clients, data):
    url = data.draw(st.sampled_from(world["urls"]), label="url")
    names = api_names(url)
    pool = sorted(names) if names is not None else world["names"]
    params = data.draw(st.dictionaries(st.sampled_from(pool), values, min_size=1, max_size=3), label="params")
    role = data.draw(st.sampled_from(sorted(clients)), label="role")
    target = f"{url}?{query(params)}"
    failure = _failure("GET", target, clients[role].get(target))
    assert failure is None, failure


@pytest.mark.services
def test_the_nul_byte_is_refused_on_postgresql(world, clients):
    """The reported cases, on the database that refuses NUL in text."""
    assert connection.vendor == "postgresql"
    for url in ["/search/?q=a%00b", "/api/players/?search=a%00b", "/board/tournaments/?q=a%00b",
                f"/players/{world['player']}/?opponent=%00", "/ratings/adlg/?q=%00",
                "/referee/template.xlsx?tournament=%00"]:
        for client in clients.values():
            response = client.get(url)
            assert response.status_code < 500, (url, getattr(response, "exc_info", None))


@pytest.mark.parametrize("pairs", ["2001 ²", "N² 2001", "2001 ٣", "N 2001", f"2001 {HUGE}"])
def test_the_tournament_days_pairs_by_hand_refuse_what_is_not_an_id_without_a_server_error(world, clients, pairs):
    live = LiveRound.objects.get(number=2).live
    response = clients["board"].post(f"/referee/live/{live.pk}/pair/by-hand/", query({"pairs": pairs}),
                                     content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400, _failure("POST", "pair/by-hand", response)
