"""No page tells anyone but the board and the player's referee who has a card, or why (charter App. 7 §3).

The crawl walks every URL pattern of the project (django.urls.get_resolver(), so new pages are picked up as they
appear), fills each converter with the IDs, years, systems and countries of the data below (by the converter's name
where the name says what it is: a tournament_id gets the tournaments' IDs, a year the years; else by its type), and
reads every answer as an anonymous visitor, a player, and a referee of an unrelated tournament.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from players.governance import player_exclude, sanction_give
from players.models import Sanction
from tests import factories
from tests.governance.factories import make_tournament, register

pytestmark = pytest.mark.django_db

YELLOW_REASON = "YELLOWSECRET insulted the referee at table 4"
RED_REASON = "REDSECRET threw dice at his opponent"
EXCLUSION_REASON = "EXCLUSIONSECRET organised fixed results"
CARD_WORDS = ["yellow card", "carton jaune", "red card", "carton rouge", "yellow", "jaune"]
SKIPPED_PREFIXES = ("admin/", "i18n/")
# A sanction serialised in JSON: a list of them, or a kind that only a sanction has.
SANCTION_JSON = r'"(sanctions|cards)"\s*:|"(kind|sanction|card)"\s*:\s*"(yellow|red|exclusion)"'
MAX_URLS_PER_PATTERN = 40
OWN_DATA = "/accounts/my-data.json"  # a signed-in account's own data: its own sanctions, and only those
WINDOW = 120


def _walk(resolver: URLResolver, prefix: str = ""):
    """(route text, pattern) for every endpoint; converters stay as <type:name>, regex patterns as their text."""
    for entry in resolver.url_patterns:
        text = str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            yield from _walk(entry, prefix + text)
        elif isinstance(entry, URLPattern):
            yield prefix + text


_CONVERTER = re.compile(r"<(?:(?P<type>[^>:]+):)?(?P<name>[^>]+)>")


def _urls(route: str, values: dict[str, list]):
    """Every URL of a route with its converters filled from `values` (by converter type); None when it cannot."""
    if route.startswith(SKIPPED_PREFIXES):
        return
    if re.search(r"[()\[\]*+?|\\]", route):  # a regex pattern with groups: not one we can fill
        return
    slots = list(_CONVERTER.finditer(route))
    choices = [values.get(m.group("name")) or values.get(m.group("type") or "str", values["str"]) for m in slots]
    for combo in itertools.islice(itertools.product(*choices), MAX_URLS_PER_PATTERN):
        url, last = "", 0
        for match, value in zip(slots, combo, strict=True):
            url += route[last:match.start()] + str(value)
            last = match.end()
        yield "/" + url + route[last:]


def _text(response) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if body[:2] == b"PK" and "spreadsheet" in response.get("Content-Type", ""):
        return _workbook_text(body)
    return body.decode("utf-8", errors="replace")


def _workbook_text(body: bytes) -> str:
    """An exported workbook's cells, one row a line, so it is checked like a page."""
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(body), read_only=True)
    return "\n".join(" ".join("" if cell is None else str(cell) for cell in row)
                     for sheet in book.worksheets for row in sheet.iter_rows(values_only=True))


def _visible(text: str) -> str:
    without_tags = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", text, flags=re.S | re.I)
    return re.sub(r"\s+", " ", html.unescape(without_tags)).casefold()


def _near(text: str, names: list[str], words: list[str]) -> str | None:
    """The first place where a card word is within WINDOW characters of one of the names, or None."""
    for name in names:
        for match in re.finditer(re.escape(name.casefold()), text):
            around = text[max(0, match.start() - WINDOW):match.end() + WINDOW]
            for word in words:
                if word in around:
                    return around
    return None


@pytest.fixture
def world(personas, board, referee, other_referee, tournament):
    """Players with cards who appear everywhere publicly: ratings, a rated tournament, a running tournament."""
    yellow = factories.player("Quillardeau", "Zébulon")
    red = factories.player("Vercoutrain", "Aristide")
    excluded = factories.player("Malfratier", "Octave")
    others = [factories.player(f"Honnête{i}", f"Joueur{i}") for i in range(3)]
    played = factories.rated_tournament([yellow, red, excluded, *others], name="Open des Cartes",
                                        start=date(2024, 3, 9))
    factories.championship_totals(2024)
    register(tournament, yellow, red)  # the referee's tournament, registered before it starts
    today = timezone.localdate()
    tournament.start_date = today  # and now running: its referee sees the cards (players.permissions)
    tournament.save(update_fields=["start_date"])
    tournament.registrations.update(registered_at=timezone.now() - timedelta(days=10))
    sanction_give(player=yellow, kind=Sanction.YELLOW, reason=YELLOW_REASON, user=board, decided_on=today)
    sanction_give(player=red, kind=Sanction.RED, reason=RED_REASON, user=board, decided_on=today)
    player_exclude(player=excluded, reason=EXCLUSION_REASON, user=board)
    # The unrelated referee runs a coming tournament without the carded players.
    register(make_tournament("Tournoi sans cartes", start=today + timedelta(days=40), referees=[other_referee]),
             *others)
    return {"yellow": yellow, "red": red, "excluded": excluded, "played": played.tournament}


@pytest.fixture
def values(world, tournament, other_tournament):
    players = sorted({world["yellow"].pk, world["red"].pk, world["excluded"].pk})
    tournaments = sorted({world["played"].pk, tournament.pk, other_tournament.pk})
    years = sorted({2024, timezone.localdate().year})
    ints = sorted({*players, *tournaments, *years, 1})
    strings = ["adlg", "battle-empire", "FR", "fr", "Quillardeau"]
    # The world has no tournament day (entrants, rounds, tables, draws) nor entries: any ID of theirs answers alike.
    absent = {name: [1] for name in ("entrant_id", "round_id", "table_id", "draw_id", "entry_id", "list_id")}
    return {"int": ints, "str": strings, "slug": strings[:4], "path": strings[:4], "tournament_id": tournaments,
            "player_id": players, "year": years, "number": [1, 2], "table": [1, 2], **absent}


def _pages(client: Client, values: dict, extra_queries: list[str]):
    seen = set()
    for route in _walk(get_resolver()):
        for url in _urls(route, values):
            # Query variants (search terms, ?format=json) only for the pages without parameters, not for files.
            plain = "<" not in route and not re.search(r"\.(xlsx|csv|json)$", route)
            for query in ["", *extra_queries] if plain else [""]:
                target = url + query
                if target in seen:
                    continue
                seen.add(target)
                response = client.get(target)
                yield target, response


@pytest.mark.slow
@pytest.mark.parametrize("role", ["anonymous", "player", "other_referee"])
def test_no_page_tells_who_has_a_card_or_why(personas, world, values, role):
    client = Client(raise_request_exception=False)
    if role != "anonymous":
        client.force_login(personas[role])
    names = [world["yellow"].last_name, world["red"].last_name, world["yellow"].full_name, world["red"].full_name]
    queries = ["?q=Quillardeau", "?search=Quillardeau", "?q=Vercoutrain", "?format=json"]
    checked = 0
    for url, response in _pages(client, values, queries):
        text = _text(response)
        for secret in (YELLOW_REASON, RED_REASON, EXCLUSION_REASON, "YELLOWSECRET", "REDSECRET", "EXCLUSIONSECRET"):
            assert secret not in text, f"{url} shows a sanction's reason to {role}"
        context = _near(_visible(text), names, CARD_WORDS)
        assert context is None, f"{url} names a carded player next to a card for {role}: …{context}…"
        if url == OWN_DATA and response.status_code == 200:
            # The account's own data holds its player's own sanctions (none for these personas), never another's.
            record = json.loads(text)["player"]
            assert record is None or record["sanctions"] == [], f"{url} exposes sanctions to {role}"
        else:
            assert not re.search(SANCTION_JSON, text), f"{url} exposes sanctions"
        checked += response.status_code == 200
    assert checked >= 1


def test_the_crawl_reaches_the_pages_it_protects(personas, world, values):
    """The crawl has teeth: the carded players are shown on public pages, and the login page is crawled."""
    client = Client(raise_request_exception=False)
    crawled, shown = set(), []
    for url, response in _pages(client, values, ["?q=Quillardeau"]):
        crawled.add(url)
        if response.status_code == 200 and "Quillardeau" in _text(response):
            shown.append(url)
    # The crawl without query variants asks for these same URLs less the "?q=" ones: one crawl, not two.
    assert "/accounts/login/" in crawled
    if any(route.startswith("players/") for route in _walk(get_resolver())):
        assert shown, "no public page shows the carded player: the crawl proves nothing"


def test_an_excluded_player_appears_on_no_public_page(personas, world, values):
    client = Client(raise_request_exception=False)
    for url, response in _pages(client, values, ["?q=Malfratier"]):
        if response.status_code == 200:
            # The search box echoes the query, so a searched page is checked for the first name only.
            name = "Octave" if "?q=" in url else "Malfratier"
            assert name not in _text(response), f"{url} still shows an excluded player"


def test_the_checks_catch_a_leak():
    page = _visible("<tr><td>Zébulon <b>Quillardeau</b></td><td>carton&nbsp;jaune</td></tr>")
    assert _near(page, ["Quillardeau"], CARD_WORDS)
    assert _near(_visible("<p>Quillardeau</p>" + "x" * 300 + "<p>A red card was given</p>"), ["Quillardeau"],
                 CARD_WORDS) is None
    assert list(_urls("players/<int:pk>/games/<slug:system>/", {"int": [1, 2], "str": ["a"], "slug": ["s"]})) == [
        "/players/1/games/s/", "/players/2/games/s/"]
    assert list(_urls("admin/<int:pk>/", {"int": [1], "str": []})) == []


def test_the_referee_of_the_players_tournament_does_see_the_cards(client, referee, world, tournament):
    """The counterpart: the crawl's assertions are not vacuous, the referee's page does name the players."""
    client.force_login(referee)
    page = _visible(_text(client.get(f"/board/tournaments/{tournament.pk}/cards/")))
    assert "quillardeau" in page and "yellow card" in page
    assert "yellowsecret" not in page
