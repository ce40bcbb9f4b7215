"""The tournament day's printouts on paper: each printed to PDF by Debian's Chromium as the referee's
print dialog would (print media, A4), then read back with pypdf: the names and tables are there, the page count
is what the layout promises (three slips to a page, a pool a page), and nothing of the site's navigation or of
the screen's bar is printed.

The PDFs are kept in test-artifacts/printouts/<printout>.pdf; screenshots of the print-emulated pages at A4's width
in test-artifacts/screenshots/printouts-<printout>.png (tests/browser/conftest.py).
"""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from pypdf import PdfReader

from tests import factories
from tests.browser.checks import axe_problems
from tests.live.helpers import play_round
from tournaments.live.entrants import NewEntrant
from tournaments.live.start import live_begin
from tournaments.models import LiveEntrant, LiveTable, Tournament

SCREENSHOT_PREFIX = "printouts"  # see tests/browser/conftest.py
PDFS = Path(__file__).resolve().parents[2] / "test-artifacts" / "printouts"
A4_WIDTH_PX, A4_HEIGHT_PX = 794, 1123  # 210 x 297 mm at 96 px an inch: the screenshots show the paper's width
PLAYERS = 26  # 13 tables: five pages of slips, the last one with a single slip
LAST_NAMES = ["Dupont", "Émery", "Martin", "Bernard", "Ébert", "Peeters", "Rossi", "Leroy", "Janssens", "Bianchi",
              "Moreau", "Ferrari", "Zola", "Lefèvre", "Østergaard", "Durand", "Garnier", "Fontaine", "Chevalier",
              "Robin", "Gauthier", "Perrin", "Morel", "Girard", "Mercier", "Blanc"]
# What a printout must never show: the site's header and footer, the screen's bar.
SCREEN_ONLY = ("AdlG Federation", "Ratings & championship", "Sign out", "Back to the tournament day",
               "In the print dialog", "Public notices", "Skip to content")



@pytest.fixture
def day(referee):
    """A finished two-round day of 26 players, their results entered; the players enter their own results."""
    players = []
    for n, last in enumerate(LAST_NAMES[:PLAYERS]):
        player = factories.player(last, f"Joueur{n + 1}", id=4001 + n, club=factories.club(f"Club {n % 9 + 1}"))
        factories.rating(player, value=1400 - 11 * n, games=20)
        players.append(player)
    tournament = factories.tournament("Open de Lyon", start=date(2026, 11, 21), end=date(2026, 11, 21), rounds=2,
                                      status=Tournament.REGISTERED)
    tournament.referees.add(referee)
    live = live_begin(tournament, entrants=[NewEntrant(player=p.pk) for p in players], players_enter_results=True)
    play_round(live, 1, random.Random(1))
    play_round(live, 2, random.Random(2))
    return live


def _print(page, live_server, path: str, name: str, shot) -> tuple[PdfReader, str]:
    page.goto(f"{live_server.url}{path}")
    page.emulate_media(media="print")
    shot(page, name)
    # The first sheet's worth, at twice the pixels, to look at the type and the codes closely.
    shot(page, f"{name}-first-page", clip={"x": 0, "y": 0, "width": A4_WIDTH_PX, "height": A4_HEIGHT_PX})
    PDFS.mkdir(parents=True, exist_ok=True)
    target = PDFS / f"{name}.pdf"
    page.pdf(path=str(target), format="A4", print_background=True, prefer_css_page_size=True)
    reader = PdfReader(str(target))
    text = "\n".join(p.extract_text() or "" for p in reader.pages)
    return reader, " ".join(text.split())


def _portrait_a4(reader: PdfReader) -> bool:
    box = reader.pages[0].mediabox
    return abs(float(box.width) - 595.3) < 2 and abs(float(box.height) - 841.9) < 2  # points


def test_each_printout_prints_on_a4_with_its_names_and_tables_and_no_navigation(new_context, live_server, day,
                                                                                shot):
    page = new_context(viewport={"width": A4_WIDTH_PX, "height": A4_HEIGHT_PX}, device_scale_factor=2,
                       locale="en-GB").new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{day.pk}/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/referee/live/{day.pk}/**")

    # The round's page offers every printout.
    page.goto(f"{live_server.url}/referee/live/{day.pk}/rounds/2/")
    page.get_by_text("Print", exact=True).click()  # folded, so that on a phone the tables come first
    for label in ("Pairings by name (for the wall)", "Pairings by table", "Result slips, one per table",
                  "Standings after round 2", "Final standings with the cross-table"):
        assert page.get_by_role("link", name=label).count() == 1, label
    shot(page, "round-page")

    entrants = list(LiveEntrant.objects.filter(live=day))
    tables = list(LiveTable.objects.filter(round__live=day, round__number=2).select_related("a", "b")
                  .order_by("table"))
    assert len(tables) == PLAYERS // 2

    base = f"/referee/live/{day.pk}/print"
    reader, text = _print(page, live_server, f"{base}/rounds/2/by-name/", "by-name", shot)
    assert _portrait_a4(reader)
    assert "Round 2: pairings by name" in text and "Open de Lyon" in text
    for entrant in entrants:
        assert entrant.last_name.upper() in text, entrant.last_name
    # Alphabetical, accents aside: Ébert and Émery among the E's, Østergaard read as an O.
    order = [text.index(last.upper()) for last in ("Durand", "Ébert", "Émery", "Fontaine", "Østergaard", "Peeters")]
    assert order == sorted(order)
    assert len(reader.pages) == 2  # 26 lines in 16 pt
    # The second sheet on the wall still says what it is (the running title) and which page it is.
    second = " ".join((reader.pages[1].extract_text() or "").split())
    assert "Open de Lyon · Round 2: pairings by name" in second and "2 / 2" in second

    reader, text = _print(page, live_server, f"{base}/rounds/2/by-table/", "by-table", shot)
    for table in tables:
        assert f"{table.a.first_name} {table.a.last_name} ({table.a.player_id})" in text
        assert f"{table.b.first_name} {table.b.last_name} ({table.b.player_id})" in text
    assert len(reader.pages) <= 2

    reader, text = _print(page, live_server, f"{base}/rounds/2/slips/", "slips", shot)
    assert len(reader.pages) == 5  # three slips to a page: 13 tables
    assert text.count("Round 2 · Table") == len(tables)
    for table in tables:
        assert f"Table {table.table}" in text
        assert f"{table.a.first_name} {table.a.last_name} ({table.a.player_id})" in text
    assert text.count("one month") == len(tables)
    page.goto(f"{live_server.url}{base}/rounds/2/slips/")
    page.emulate_media(media="print")
    overflowing = page.evaluate("""[...document.querySelectorAll('.slip')].filter(slip =>
        slip.querySelector('.slip-small').getBoundingClientRect().bottom > slip.getBoundingClientRect().bottom)
        .map(slip => slip.getAttribute('aria-labelledby'))""")
    assert overflowing == [], "slips whose small print runs past their cut line"
    # A phone reads each code as the printed page shows it: the first slips' codes, as Chromium draws them at a
    # print's resolution, decoded by a QR reader (zxing-cpp), are their players' private links.
    import io

    import zxingcpp
    from PIL import Image

    page.set_viewport_size({"width": 1200, "height": 1600})
    cells = page.locator(".qr-cell svg")
    printed = page.evaluate("[...document.querySelectorAll('.slip-link')].map(e => e.textContent.trim())")
    assert cells.count() == len(printed) >= 4
    for index in range(4):
        picture = Image.open(io.BytesIO(cells.nth(index).screenshot(scale="device")))
        decoded = [found.text for found in zxingcpp.read_barcodes(picture)]
        assert decoded == [printed[index]], (decoded, printed[index])
        assert decoded[0].startswith(f"{live_server.url}/tournaments/{day.pk}/live/me/")
    # Each page carries its slips' QR codes as vector paths: none is an image, none a missing file.
    first = reader.pages[0]
    assert "/XObject" not in (first.get("/Resources") or {}) or not first["/Resources"]["/XObject"]

    reader, text = _print(page, live_server, f"{base}/rounds/2/standings/", "standings", shot)
    assert "Standings after round 2" in text and "R1" not in text
    assert text.count("Standings after round 2") == 1  # the heading, and no running title on the first page
    for entrant in entrants:
        assert f"{entrant.first_name} {entrant.last_name}" in text
    assert len(reader.pages) == 1

    reader, text = _print(page, live_server, f"{base}/final/", "final", shot)
    assert "Final standings" in text and "R1" in text and "R2" in text
    for entrant in entrants:
        assert f"{entrant.first_name} {entrant.last_name}" in text
    assert len(reader.pages) <= 2

    # On screen, before printing, each page passes axe-core (no serious or critical violation).
    for path in ("rounds/2/by-name/", "rounds/2/slips/", "final/"):
        page.goto(f"{live_server.url}{base}/{path}")
        page.emulate_media(media="screen")
        problems = axe_problems(page)
        assert problems == [], (path, problems)

    for name in ("by-name", "by-table", "slips", "standings", "final"):
        printed = " ".join(p.extract_text() or "" for p in PdfReader(str(PDFS / f"{name}.pdf")).pages)
        for words in SCREEN_ONLY:
            assert words not in printed, (name, words)


def test_in_french_the_slips_and_the_wall_list_print_in_french_and_the_slips_still_fit(new_context, live_server,
                                                                                       day, shot):
    context = new_context(viewport={"width": A4_WIDTH_PX, "height": A4_HEIGHT_PX}, device_scale_factor=2,
                          locale="fr-FR")
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/live/{day.pk}/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/referee/live/{day.pk}/**")

    base = f"/referee/live/{day.pk}/print"
    reader, text = _print(page, live_server, f"{base}/rounds/2/slips/", "slips-fr", shot)
    assert len(reader.pages) == 5
    assert text.count("Ronde 2 · Table") == PLAYERS // 2
    assert "un mois" in text and "annexe 3 § 8" in text and "Pertes A" in text and "Initiales B" in text
    overflowing = page.evaluate("""[...document.querySelectorAll('.slip')].filter(slip =>
        slip.querySelector('.slip-small').getBoundingClientRect().bottom > slip.getBoundingClientRect().bottom)
        .map(slip => slip.getAttribute('aria-labelledby'))""")
    assert overflowing == [], "slips whose small print runs past their cut line"

    reader, text = _print(page, live_server, f"{base}/rounds/2/by-name/", "by-name-fr", shot)
    assert "Ronde 2 : appariements par nom" in text and "Adversaire" in text
    for words in ("Round", "Opponent", "Printed at", "Retour à la journée du tournoi"):
        assert words not in text, words
