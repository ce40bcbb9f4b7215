"""On a phone (390 px), a referee sends a tournament as a JSON file of the exchange format: the report names each
value by its path, the corrected file leads to the preview and the import, and the published tournament's page
offers its results as that file again."""

from __future__ import annotations

import json
from pathlib import Path

from tests.browser.checks import axe_problems, fits

SCREENSHOT_PREFIX = "exchange"  # see tests/browser/conftest.py
PHONE = {"width": 390, "height": 844}


def test_a_referee_sends_a_json_tournament_from_a_phone(live_server, new_context, shot, referee, tmp_path):
    from playwright.sync_api import expect

    from rules.exchange import exchange_document
    from tests.referee.helpers import create_known_players, make_tournament, valid_sheet
    from tournaments.models import Sheet

    players = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[players[101], players[102], players[104]])
    parsed = valid_sheet(tournament).read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    faulty = json.loads(json.dumps(document))
    faulty["games"][0]["a_losses"] = 150
    page = new_context(viewport=PHONE, locale="en-GB", accept_downloads=True).new_page()

    page.goto(f"{live_server.url}/accounts/login/?next=/referee/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    expect(page.get_by_text("or a tournament in JSON in the exchange format (.json)")).to_be_visible()

    # A value out of range: the report names its path in the file, and offers no annotated copy.
    faulty_path = tmp_path / "spring.json"
    faulty_path.write_text(json.dumps(faulty))
    page.set_input_files("input[type=file]", str(faulty_path))
    page.get_by_role("button", name="Send the sheet").first.click()
    expect(page.get_by_role("heading", name="The sheet has errors to fix")).to_be_visible()
    row = page.locator("tr", has_text="$.games[0].a_losses")
    expect(row.locator("code.cell")).to_have_text("$.games[0].a_losses")
    expect(row).to_contain_text("150")
    expect(page.get_by_text("each problem below names the value’s path in the file")).to_be_visible()
    expect(page.get_by_role("link", name="Download the annotated sheet")).to_have_count(0)
    assert fits(page) and axe_problems(page) == []
    shot(page, "1-report")

    # The corrected file: the preview, then the import.
    fixed_path = tmp_path / "spring-fixed.json"
    fixed_path.write_text(json.dumps(document))
    page.set_input_files("input[type=file]", str(fixed_path))
    page.get_by_role("button", name="Send the sheet").first.click()
    expect(page.get_by_role("heading", name="Preview: Spring Clash")).to_be_visible()
    assert fits(page) and axe_problems(page) == []
    shot(page, "2-preview")
    acknowledge = page.get_by_label("I have read the warnings above; import the sheet anyway.")
    if acknowledge.count():
        acknowledge.check()
    page.get_by_role("button", name="Confirm and import").click()
    expect(page.get_by_text("Published: the tournament and the new ratings are on the site.")).to_be_visible(
        timeout=30_000)
    assert Sheet.objects.get(file_name="spring-fixed.json").status == Sheet.REPLAYED

    # The tournament's page offers its results in the same format.
    page.get_by_role("link", name="See the tournament and its standings").click()
    link = page.get_by_role("link", name="The results as a file (JSON, the tournament exchange format)")
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
    assert fits(page) and axe_problems(page) == []
    shot(page, "3-tournament", full_page=False)
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == f"tournament-{tournament.pk}.json"
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["tournament"]["id"] == tournament.pk
    assert [g["result"] for g in exported["games"]] == [g["result"] for g in document["games"]]
