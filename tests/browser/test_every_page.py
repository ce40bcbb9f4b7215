"""Every page, in both languages, on a screen (1366 px) and a phone (390 px), in Debian's Chromium.

Each page must answer with its status, never scroll sideways, pass axe-core with no violation of serious or
critical impact, and, in French, show no English sentence of the site's catalogue nor an English word of the
site's vocabulary (names of people, clubs, places and tournaments aside).

Each page, language and width is a test of its own, named after them (`…[home-fr-phone]`), so a failure names
its page. The demo federation they show is seeded once for the module (the slow part) and served by a live
server of the module's own; the pages only read it (an `action` may fill a form up to its confirmation page).

To crawl more pages (the tournament day's live pages, say), add a function to PAGE_SOURCES: it receives the demo
federation's `Data` and returns `Page`s, computed from `Data` alone, without the database (what a page needs from
the federation goes into `Data`, filled by `demo_federation`): the crawl lists the pages' names when pytest collects
the tests, from a placeholder `Data`, and builds their paths from the real one. A `Page` may carry an `action`
that reaches it by filling a form. The screenshots of the four pages a report named are kept:
test-artifacts/screenshots/crawl-<page>-<lang>-<width>.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import get_origin, get_type_hints

import pytest

from tests.browser.checks import axe_in_every_page, axe_problems
from tests.built_once import built_once

SCREENSHOT_PREFIX = "crawl"  # see tests/browser/conftest.py
# Each test reads the database, through the live server; what a page writes (a session, say) is its own.
pytestmark = pytest.mark.django_db
WIDTHS = {"screen": (1366, 900), "phone": (390, 844)}
LANGUAGES = ("en", "fr")
WORKBOOK_SHEETS = ("Tournament", "Players", "Games")
REASONS = ["threw the dice", "late list", "loaded dice", "Loaded dice at two tournaments"]  # what the board typed

# English words of the site's vocabulary that a French page must not show (names are removed first).
ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|from|this|that|which|player|players|rating|ratings|tournament|tournaments|games|rounds|"
    r"search|previous|next|sign in|sign out|yes|none|points earned|counted|dropped|won|lost|drawn|pool|"
    r"standings|worlds|referee|referees|board|sheet|sheets|results)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    role: str = "visitor"  # visitor, referee or board: who is signed in
    status: int = 200
    shot: bool = False  # keep its screenshots
    action: Callable | None = field(default=None, compare=False)  # page -> None, run after loading `path`
    names: tuple[str, ...] = ()  # words of its data a French page may show as they are (the workbook's sheets…)
    french_checked: bool = True  # False only for a page whose text is stored data (the audit log's summaries)


@dataclass
class Data:
    """What the pages are about: picked from the demo federation."""

    player: int
    migrated: int
    other: int
    adlg_tournament: int
    be_tournament: int
    upcoming: int
    year: int
    country: str
    sheet: int
    yellow: int
    exclusion: int
    search: str  # a last name several players share
    live: int  # the tournament running live today (seed_demo)
    live_last_name: str  # of its first entrant
    live_entrant: str  # that entrant's name as the live pages write it
    live_link: str  # that entrant's private link (its path)
    names: list[str]


def public_pages(d: Data) -> list[Page]:
    return [
        Page("home", "/", shot=True),
        Page("search", f"/search/?q={d.search}"),
        Page("search-nothing", "/search/?q=Zzyzx"),
        Page("player", f"/players/{d.migrated}/", shot=True),
        Page("player-h2h", f"/players/{d.player}/?opponent={d.other}#h2h"),
        Page("player-what-if", f"/players/{d.player}/?against={d.other}#what-if"),
        Page("ratings", "/ratings/adlg/", shot=True),
        Page("ratings-filtered", "/ratings/adlg/?country=FR&sort=name&active=on"),
        Page("ratings-be", "/ratings/battle-empire/"),
        Page("rules", "/rules/"),
        Page("rules-calculator", "/rules/?system=adlg&rating_a=1000&games_a=0&rating_b=1200&games_b=10&result=A"),
        Page("calibration", "/calibration/"),
        Page("armies", "/armies/"),
        Page("notices", "/notices/"),
        Page("tournaments", "/tournaments/"),
        Page("tournament", f"/tournaments/{d.adlg_tournament}/"),
        Page("tournament-be", f"/tournaments/{d.be_tournament}/"),
        Page("tournament-upcoming", f"/tournaments/{d.upcoming}/"),
        Page("championship", f"/championship/{d.year}/"),
        Page("championship-international", f"/championship/{d.year}/international/"),
        Page("championship-country", f"/championship/{d.year}/countries/{d.country}/"),
        Page("api-docs", "/api/docs/"),
        Page("login", "/accounts/login/"),
        Page("signup", "/accounts/signup/"),
        Page("password-reset", "/accounts/password/reset/"),
        Page("not-found", "/no-such-page/", status=404),
    ]


def referee_pages(d: Data) -> list[Page]:
    return [
        # The official workbook's sheets are named Tournament, Players and Games in every language.
        Page("referee-home", "/referee/", role="referee", names=WORKBOOK_SHEETS),
        Page("referee-sheets", f"/referee/tournaments/{d.adlg_tournament}/sheets/", role="referee"),
        Page("referee-sheet", f"/referee/sheets/{d.sheet}/", role="referee", names=WORKBOOK_SHEETS),
        Page("referee-sheet-status", f"/referee/sheets/{d.sheet}/status/", role="referee", names=WORKBOOK_SHEETS),
        Page("board-start-referee", "/board/", role="referee"),
        Page("my-tournaments", "/board/tournaments/mine/", role="referee"),
        Page("register", "/board/tournaments/register/", role="referee"),
        Page("cards", f"/board/tournaments/{d.upcoming}/cards/", role="referee"),
        Page("forbidden", "/board/sanctions/", role="referee", status=403),
    ]


def _fill_sanction(page) -> None:
    page.select_option("#id_kind", "exclusion")
    page.fill("#id_reason", "Loaded dice at two tournaments")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_selector(".confirm")


def board_pages(d: Data) -> list[Page]:
    return [
        Page("board", "/board/", role="board"),
        Page("sanctions", "/board/sanctions/", role="board", shot=True),
        Page("sanction-confirm", f"/board/sanctions/?player={d.player}", role="board", action=_fill_sanction),
        Page("sanction-withdraw", f"/board/sanctions/{d.exclusion}/withdraw/", role="board"),
        Page("card-withdraw", f"/board/sanctions/{d.yellow}/withdraw/", role="board"),
        Page("merge", "/board/merge/", role="board"),
        Page("merge-confirm", f"/board/merge/?keep={d.player}&duplicate={d.other}", role="board"),
        Page("ids", "/board/ids/", role="board"),
        Page("claims", "/board/claims/", role="board"),
        Page("board-tournaments", "/board/tournaments/", role="board"),
        Page("override", f"/board/tournaments/{d.adlg_tournament}/override/", role="board"),
        Page("withdraw-results", f"/board/tournaments/{d.adlg_tournament}/withdraw/", role="board"),
        Page("exception", f"/board/tournaments/{d.upcoming}/exception/", role="board"),
        Page("army-names", "/board/army-names/", role="board", shot=True),
        # Its entries' summaries are records the services wrote (in English), not the page's own words.
        Page("audit", "/board/audit/", role="board", french_checked=False),
    ]


def admin_pages(d: Data) -> list[Page]:
    return [
        Page("admin", "/admin/", role="board"),
        Page("admin-players", "/admin/players/player/", role="board"),
        Page("admin-player", f"/admin/players/player/{d.player}/change/", role="board"),
        Page("admin-player-add", "/admin/players/player/add/", role="board"),
        Page("admin-tournaments", "/admin/tournaments/tournament/", role="board"),
        Page("admin-sanctions", "/admin/players/sanction/", role="board"),
    ]


def live_pages(d: Data) -> list[Page]:
    """The tournament day: the demo federation's tournament running live today (seed_demo), its public
    page and the referee's pages; the start page of a calendar tournament not yet run live."""
    pk = d.live
    return [
        Page("live", f"/tournaments/{pk}/live/", shot=True),
        Page("live-find", f"/tournaments/{pk}/live/?q={d.live_last_name}", names=(d.live_entrant,)),
        Page("live-link", d.live_link, shot=True, names=(d.live_entrant,)),
        Page("live-link-gone", f"/tournaments/{pk}/live/me/{'x' * 43}/", status=404),
        Page("live-home", "/referee/live/", role="referee"),
        Page("live-start", f"/referee/live/{d.upcoming}/start/", role="referee"),
        Page("live-run", f"/referee/live/{pk}/", role="referee", shot=True),
        Page("live-players", f"/referee/live/{pk}/players/?q={d.search}", role="referee"),
        Page("live-results", f"/referee/live/{pk}/rounds/2/", role="referee", shot=True),
        Page("live-results-done", f"/referee/live/{pk}/rounds/1/", role="referee"),
        Page("live-grid", f"/referee/live/{pk}/rounds/2/grid/", role="referee"),
        Page("live-screen", f"/tournaments/{pk}/live/screen/", shot=True),
    ]


PAGE_SOURCES: list[Callable[[Data], list[Page]]] = [public_pages, referee_pages, board_pages, admin_pages, live_pages]


def placeholder_data() -> Data:
    """Zeros and empty strings: enough for the sources to list their pages' names."""
    hints = get_type_hints(Data)
    return Data(**{f.name: (get_origin(hints[f.name]) or hints[f.name])() for f in fields(Data)})


def crawled_pages(data: Data) -> dict[str, Page]:
    pages: dict[str, Page] = {}
    for source in PAGE_SOURCES:
        for page in source(data):
            assert page.name not in pages, f"two pages named {page.name!r}: each names its tests"
            pages[page.name] = page
    return pages


CRAWL = [pytest.param(name, language, width, id=f"{name}-{language}-{width}")
         for width in WIDTHS for language in LANGUAGES for name in crawled_pages(placeholder_data())]


# --- the federation ----------------------------------------------------------------------------------------


def demo_federation() -> Data:
    """Seeds the demo federation, adds sanctions to it, and picks what the pages are about."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from players.governance import player_exclude, sanction_give
    from players.models import Club, OpeningBalance, Player
    from ratings.models import PlayerRating
    from tournaments.live.links import entrant_link_path
    from tournaments.live.selectors import entrant_name
    from tournaments.models import LiveEntrant, LiveTournament, Sheet, Standing, Tournament

    call_command("seed_demo", players=60, years=1, seed=7, verbosity=0)
    board = get_user_model().objects.get(username="board")
    rated = Tournament.objects.filter(status=Tournament.RATED)
    adlg = rated.filter(system_id="adlg").order_by("-end_date").first()
    standings = list(Standing.objects.filter(tournament=adlg).order_by("rank")[:2])
    player, other = Player.objects.get(pk=standings[0].player_id), Player.objects.get(pk=standings[1].player_id)
    migrated = (OpeningBalance.objects.filter(player__ratings__isnull=False).values_list("player_id", flat=True)
                .first())
    sanction_give(player=other, kind="red", reason="threw the dice", user=board, tournament=adlg)
    yellow = sanction_give(player=player, kind="yellow", reason="late list", user=board)
    cheat = Player.objects.public().exclude(pk__in=[player.pk, other.pk]).order_by("-id").first()
    exclusion = player_exclude(player=cheat, reason="loaded dice", user=board)
    upcoming = Tournament.objects.filter(status=Tournament.REGISTERED).order_by("start_date").first()
    names = [p.full_name for p in Player.objects.all()]
    names += [p.last_name for p in Player.objects.all()] + [p.first_name for p in Player.objects.all()]
    names += list(Club.objects.values_list("name", flat=True))
    for name, city in Tournament.objects.values_list("name", "city"):
        names += [name, city]
    names += list(get_user_model().objects.exclude(email="").values_list("email", flat=True))  # the board's claims
    names += ["L'Art de la Guerre", "L’Art de la Guerre", "Battle Empire", "referee", "board", "Ada Arbitre", *REASONS]
    live = LiveTournament.objects.filter(published_at__isnull=True).order_by("pk").first()
    first = LiveEntrant.objects.filter(live=live).order_by("pk").first()
    return Data(
        player=player.pk, migrated=migrated, other=other.pk, adlg_tournament=adlg.pk,
        be_tournament=rated.filter(system_id="battle-empire").first().pk, upcoming=upcoming.pk,
        year=adlg.end_date.year, country=PlayerRating.objects.filter(country__isnull=False).values_list(
            "country_id", flat=True).first(),
        sheet=Sheet.objects.filter(tournament=adlg).first().pk, yellow=yellow.pk, exclusion=exclusion.pk,
        search=player.last_name, live=live.pk, live_last_name=first.last_name, live_entrant=entrant_name(first),
        live_link=entrant_link_path(first),
        names=sorted(set(filter(None, names)), key=len, reverse=True),
    )


# --- the checks --------------------------------------------------------------------------------------------


def english_phrases() -> list[str]:
    """Sentences and phrases of the site's catalogue whose French differs: none may appear on a French page."""
    import gettext
    from pathlib import Path

    mo = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.mo"
    with open(mo, "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    phrases = set()
    for key, french in catalogue.items():
        english = key[1] if isinstance(key, tuple) else key
        if not isinstance(english, str) or "\x04" in english or english == french:
            continue
        for part in re.split(r"%\(\w+\)[sdr]|%[sd]|<[^>]+>|\{\{[^}]*\}\}", english):
            part = part.strip(" .,:;()—–-")
            if len(part) >= 14 and len(part.split()) >= 3:
                phrases.add(part)
    return sorted(phrases, key=len, reverse=True)


# The page's words as a reader meets them: its text, title and every tooltip, label and placeholder; minus what is
# marked as another language (lang="en": the API's generated reference, the language switch's "English").
READ_TEXT = """() => {
  const own = document.documentElement.lang;
  const foreign = el => { const marked = el.closest('[lang]'); return marked && marked.lang !== own; };
  let text = document.body.innerText;
  for (const el of document.body.querySelectorAll('[lang]')) {
    if (el.lang !== own && el.innerText) text = text.split(el.innerText).join(' ');
  }
  const parts = [text, document.title];
  for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt]')) {
    if (foreign(el)) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
    }
  }
  return parts.join('\\n');
}"""


def untranslated(text: str, names: list[str], phrases: list[str]) -> list[str]:
    for name in names:
        text = text.replace(name, " ")
    found = [phrase for phrase in phrases if phrase in text]
    found += sorted({m.group(0) for m in ENGLISH_WORDS.finditer(text)})
    return found


# Tables wider than the phone scroll inside their frame (.table-wrap); the cell that names the row (a .key cell, or
# else the first) must stay in view while the figures scroll, or a rating change is read against the wrong player.
# A note spanning the row (a penalty's reason) has no figures to read across.
CUT_TABLES = """() => Array.from(document.querySelectorAll('.table-wrap'))
    .filter(w => w.scrollWidth > w.clientWidth + 1)
    .filter(w => Array.from(w.querySelectorAll('tbody tr')).filter(row => !row.querySelector('[colspan]')).some(row => {
        const head = row.querySelector('.key') || row.firstElementChild;
        return head && getComputedStyle(head).position !== 'sticky';
    }))
    .map(w => ((w.querySelector('caption') || {}).textContent || w.querySelector('th')?.textContent || 'table')
        .trim().slice(0, 40))"""


def check(page, target: Page, *, language: str, width: str, names, phrases) -> list[str]:
    problems = []
    if page.evaluate("document.documentElement.scrollWidth") > page.evaluate("window.innerWidth") + 1:
        wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap'))
            .slice(0, 3).map(e => e.tagName + '.' + e.className)""")
        problems.append(f"scrolls sideways ({page.evaluate('document.documentElement.scrollWidth')} px): {wide}")
    if width == "phone" and page.locator(".header-grid").count():  # the site's header (not the admin's)
        height = page.evaluate("document.querySelector('.header-grid').getBoundingClientRect().height")
        if height > 72:
            problems.append(f"the header takes {height:.0f} px on a phone, more than a line")
    if width == "phone":
        cut = page.evaluate(CUT_TABLES)
        if cut:
            problems.append(f"a table cut off at 390 px scrolls its row header out of view: {cut[:3]}")
    problems += [f"axe {problem}" for problem in axe_problems(page)]
    if language == "fr" and target.french_checked:
        english = untranslated(page.evaluate(READ_TEXT), [*target.names, *names], phrases)
        if english:
            problems.append(f"English on a French page: {english[:8]}")
    return problems


# --- the crawl ---------------------------------------------------------------------------------------------


@dataclass
class Site:
    url: str
    data: Data
    pages: dict[str, Page]
    sessions: dict[str, str | None]  # role -> session cookie (None: a visitor)
    phrases: list[str]


def _sessions() -> dict[str, str | None]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    sessions: dict[str, str | None] = {"visitor": None}
    for role in ("referee", "board"):
        client = Client()
        client.force_login(get_user_model().objects.get(username=role))
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return sessions


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker) -> Site:
    """One federation for the whole crawl (seeding it is the slow part), signed-in sessions for the referee and
    the board, and a live server of the module's own: pytest-django's `live_server` would make each test
    transactional, and the flush after each would empty the federation."""
    from pytest_django.live_server_helper import LiveServer

    with built_once(django_db_blocker) as build:
        data = build(demo_federation)
        sessions = build(_sessions)
        pages = crawled_pages(data)
        assert list(pages) == list(crawled_pages(placeholder_data())), "a page source must depend on Data alone"
        with django_db_blocker.unblock():  # the server reads the federation while the module's tests run
            server = LiveServer("localhost")
            try:
                yield Site(url=server.url, data=data, pages=pages, sessions=sessions, phrases=english_phrases())
            finally:
                server.stop()


@pytest.fixture(scope="module")
def tab(site, browser, _playwright):
    """tab(role, language, width): the page of a browser context for that persona, language and width, opened on
    first use and kept for the module. A context for each test would start a renderer process for each page, which
    took most of the crawl's time on this machine's two cores. axe-core is in every document the tab opens."""
    from django.conf import settings

    tabs = {}

    def open_tab(role: str, language: str, width: str):
        if (role, language, width) not in tabs:
            viewport_width, viewport_height = WIDTHS[width]
            context = browser.new_context(viewport={"width": viewport_width, "height": viewport_height},
                                          locale=language, extra_http_headers={"Accept-Language": language})
            jar = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site.url}]
            if site.sessions[role]:
                jar.append({"name": settings.SESSION_COOKIE_NAME, "value": site.sessions[role], "url": site.url})
            context.add_cookies(jar)
            axe_in_every_page(context)
            tabs[role, language, width] = context.new_page()
        return tabs[role, language, width]

    yield open_tab
    _playwright.resume()  # Playwright is called outside a test here (tests/browser/conftest.py)
    try:
        for page in tabs.values():
            page.context.close()
    finally:
        _playwright.pause()


@pytest.mark.parametrize(("name", "language", "width"), CRAWL)
def test_every_page_fits_passes_axe_and_speaks_the_visitors_language(site, tab, shot, name, language, width):
    """The page for the persona it is meant for, at its width, in its language; every problem of the page is
    listed before the test fails."""
    target = site.pages[name]
    page = tab(target.role, language, width)
    response = page.goto(f"{site.url}{target.path}")
    where = f"{target.name} ({target.path}) in {language} at {WIDTHS[width][0]} px"
    assert response.status == target.status, f"{where}: status {response.status}, expected {target.status}"
    if target.action is not None:
        target.action(page)
    problems = []
    if page.evaluate("document.documentElement.lang") != language:
        problems.append(f"<html lang> is not {language}")
    problems += check(page, target, language=language, width=width, names=site.data.names, phrases=site.phrases)
    if target.shot:
        shot(page, f"{target.name}-{language}-{WIDTHS[width][0]}")
    assert not problems, "\n".join(f"{where}: {problem}" for problem in problems)
