"""A referee sends a tournament's results with a real browser, from sign-in to the published standings.

The browser and the screenshots (test-artifacts/screenshots/referee-*.png) come from tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path

SCREENSHOT_PREFIX = "referee"  # see tests/browser/conftest.py


def sheet_file(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_a_referee_sends_corrects_confirms_and_sees_the_standings(live_server, browser_page, shot, referee, tmp_path):
    from playwright.sync_api import expect

    from tests.referee.helpers import create_known_players, make_tournament, valid_sheet
    from tournaments.models import Sheet

    players = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[players[101], players[102], players[104]])
    faulty = valid_sheet(tournament).set_game(0, "A losses %", 150)
    fixed = valid_sheet(tournament).set_player(105, "Last name", "Jonas")  # a warning to acknowledge
    page = browser_page

    # Sign in, and land on the result-sheet page.
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Send a tournament's results")).to_be_visible()
    expect(page.get_by_role("link", name="Spring Clash")).to_be_visible()  # its pre-filled sheet
    shot(page, "1-home")

    # A sheet with an error: the report names the cell and says what to fix.
    page.set_input_files("input[type=file]", sheet_file(tmp_path, "spring.xlsx", faulty.build()))
    page.get_by_role("button", name="Send the sheet").first.click()
    expect(page.get_by_role("heading", name="The sheet has errors to fix")).to_be_visible()
    cell = f"Games!{faulty.game_cell(0, 'A losses %')}"
    row = page.locator("tr", has_text=cell)
    expect(row).to_contain_text("150")
    shot(page, "2-report")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the annotated sheet").click()
    assert download.value.suggested_filename == "spring-annotated.xlsx"

    # The corrected sheet: the preview of what will change.
    page.set_input_files("input[type=file]", sheet_file(tmp_path, "spring-fixed.xlsx", fixed.build()))
    page.get_by_role("button", name="Send the sheet").click()
    expect(page.get_by_role("heading", name="Preview: Spring Clash")).to_be_visible()
    expect(page.get_by_role("heading", name="Players added to the federation")).to_be_visible()
    expect(page.locator("td", has_text="Nouveau").first).to_be_visible()
    martin = page.locator("tr", has_text="Martin Paul")
    expect(martin).to_contain_text("1000")
    expect(martin).to_contain_text("+72")
    shot(page, "3-preview")

    # The warnings must be acknowledged (the browser itself refuses the form until the box is ticked).
    acknowledge = page.get_by_label("I have read the warnings above; import the sheet anyway.")
    expect(acknowledge).to_have_attribute("required", "")
    acknowledge.check()
    page.get_by_role("button", name="Confirm and import").click()

    # The status page follows the job (it refreshes itself) until the ratings are published.
    expect(page.get_by_role("heading", name=re.compile("Import of spring-fixed.xlsx"))).to_be_visible()
    expect(page.get_by_text("Published: the tournament and the new ratings are on the site.")).to_be_visible(
        timeout=30_000)
    sheet = Sheet.objects.get(file_name="spring-fixed.xlsx")
    assert sheet.status == Sheet.REPLAYED
    expect(page.locator("tr", has_text="N1")).to_contain_text(str(sheet.new_players["N1"]))
    shot(page, "4-status")

    # The published tournament and its standings.
    page.get_by_role("link", name="See the tournament and its standings").click()
    expect(page.get_by_role("heading", name=re.compile("Spring Clash"))).to_be_visible()
    expect(page.locator("main")).to_contain_text("Martin")
    shot(page, "5-standings")
