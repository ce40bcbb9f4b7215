"""The board at its desk reads people by name: the audit log says who did what to whom, when, in words."""

from __future__ import annotations

import re
from datetime import date

from playwright.sync_api import expect

from players.governance import player_merge, sanction_give, sanction_withdraw
from tests.governance.factories import make_player
from tests.live.helpers import federation_players, live_tournament
from tournaments.live.results import Result, results_record
from tournaments.live.rounds import round_pair, round_publish

SCREENSHOT_PREFIX = "board-names"


def _sign_in(page, live_server, path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("input[name=login]", "board")
    page.fill("input[name=password]", "board-pass-123")
    page.click("main button[type=submit]")
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))


def test_the_audit_log_reads_as_sentences(live_server, browser_page, shot, board, transactional_db):
    board.first_name, board.last_name = "Claire", "Dubois"
    board.save()
    keep, duplicate = make_player("Moreau", "Benoît", pk=229), make_player("Moreau", "Benoit", pk=363)
    player_merge(duplicate=duplicate, keep=keep, user=board)
    sanction_give(player=make_player("Martin", "Paul", pk=501), kind="yellow", reason="late list", user=board,
                  decided_on=date(2026, 3, 12))
    live = live_tournament(federation_players(6, clubs=6))
    round_publish(round_pair(live, seed=1))
    results_record(live, 1, [Result(1, "A", 10, 40, confirmed=True)], user=board)
    _sign_in(browser_page, live_server, "/board/audit/")
    main = browser_page.locator("main")
    expect(main).to_contain_text("merged player Benoit Moreau (363) into Benoît Moreau (229)")
    expect(main).to_contain_text("recorded the yellow card of 12 March 2026 for Paul Martin (501)")
    expect(main).to_contain_text("round 1, table 1:")
    expect(main).to_contain_text("Claire Dubois")
    shot(browser_page, "audit")


def test_the_sanction_form_finds_the_player_by_name(live_server, browser_page, shot, board, transactional_db):
    make_player("Moreau", "Benoît", pk=229)
    make_player("Moreau", "Luc", pk=301)
    withdrawn = sanction_give(player=make_player("Martin", "Paul", pk=501), kind="yellow", reason="x", user=board,
                              decided_on=date(2026, 3, 12))
    sanction_withdraw(sanction=withdrawn, reason="given to the wrong player", user=board)
    _sign_in(browser_page, live_server, "/board/sanctions/")
    page = browser_page
    page.fill("#id_player", "moreau")
    page.fill("#id_reason", "Late list twice")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("main")).to_contain_text("Several players match “moreau”: Benoît Moreau (229), Luc Moreau")
    shot(page, "sanction-form")
    page.fill("#id_player", "benoit moreau")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator(".confirm")).to_contain_text("A yellow card for Benoît Moreau (229)?")
    shot(page, "sanction-confirm")
    page.locator("button[name=confirm]").click()
    expect(page.locator(".messages")).to_contain_text("Recorded: the yellow card of")
    expect(page.locator("main")).to_contain_text("yellow card of 12 March 2026 for Paul Martin (501)")
    shot(page, "sanctions")


def test_a_sheet_report_names_the_players_in_french(live_server, new_context, shot, referee, tmp_path,
                                                     transactional_db):
    from tests.referee.helpers import create_known_players, make_tournament, valid_sheet

    players = create_known_players()
    tournament = make_tournament(referees=[referee], registered=[players[101], players[102], players[104]])
    faulty = valid_sheet(tournament).set_game(1, "Player B", 108).set_player(101, "Penalty", 20)
    path = tmp_path / "printemps.xlsx"
    path.write_bytes(faulty.build())
    page = new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR").new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/referee/")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", "referee-pass-123")
    page.click("main button[type=submit]")
    page.set_input_files("input[type=file]", str(path))
    page.locator("main form button[type=submit]").first.click()
    main = page.locator("main")
    expect(main).to_contain_text("Juan Lopez (108) joue deux parties à la ronde 1")
    expect(main).to_contain_text("ronde 1, table 4")
    expect(main).to_contain_text("Paul Martin (101) a 20 points de pénalité")
    shot(page, "sheet-report-fr")
