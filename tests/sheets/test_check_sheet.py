"""The checks that need the federation's data, given to check_sheet as plain values (no database)."""

from __future__ import annotations

from datetime import date

from rules.sheet.checks import check_sheet
from rules.sheet.parsed import KnownPlayer, KnownTournament, ParsedSheet, SheetContext
from rules.sheet.reader import read_sheet
from rules.sheet.values import name_club_key
from tests.sheets.builders import PLAYERS, POOL_B, SheetBuilder, assert_issue


def known_players(*, excluded: frozenset[int] = frozenset(), renamed: dict[int, str] | None = None):
    renamed = renamed or {}
    return {
        int(pid): KnownPlayer(
            id=int(pid),
            last_name=renamed.get(int(pid), last),
            first_name=first,
            club=club,
            excluded=int(pid) in excluded,
        )
        for pid, last, first, club, _, _ in PLAYERS + POOL_B
        if isinstance(pid, int) and pid != 99
    }


def context(**changes) -> SheetContext:
    values = {
        "players": known_players(),
        "name_club_index": {},
        "tournament": None,
        "same_name_and_start": None,
        "retired_ids": frozenset(),
    }
    values.update(changes)
    return SheetContext(**values)


SPRING_CLASH = KnownTournament(id=42, name="Spring Clash", start=date(2024, 3, 16), rating_system="adlg")


def test_it_adds_nothing_to_a_sheet_whose_ids_the_federation_knows():
    parsed = SheetBuilder.valid(two_pools=True).read()
    report = check_sheet(parsed, context())
    assert report.errors == [] and report.warnings == []


def test_it_reports_an_id_the_federation_does_not_know():
    players = known_players()
    del players[105]
    report = check_sheet(SheetBuilder.valid().read(), context(players=players))
    assert_issue(
        report,
        code="unknown_player_id",
        sheet="Players",
        cell="A6",
        en="The federation has no player with ID 105. Check the ID in the site's player list, or give a tag "
        "N1, N2... to a player new to the federation.",
    )
    assert len(report.errors) == 1


def test_it_reports_an_excluded_player():
    report = check_sheet(
        SheetBuilder.valid().read(), context(players=known_players(excluded=frozenset({106})))
    )
    assert_issue(
        report,
        code="excluded_player",
        sheet="Players",
        cell="A7",
        en="Ian Brown (106) is excluded from the federation's rankings, and none of their games can count "
        "(charter App. 7 §3). Remove the player's row and games, or contact the technical board.",
    )


def test_it_reports_a_retired_id_as_an_excluded_player():
    players = known_players()
    del players[107]
    report = check_sheet(SheetBuilder.valid().read(), context(players=players, retired_ids=frozenset({107})))
    assert [(i.code, i.cell) for i in report.errors] == [("excluded_player", "A8")]


def test_it_reports_a_tournament_id_the_site_does_not_know():
    parsed = SheetBuilder.valid().set("Tournament ID", 42).read()
    assert_issue(
        check_sheet(parsed, context()),
        code="unknown_tournament_id",
        sheet="Tournament",
        cell="B2",
        en="The site has no tournament with ID 42. Leave Tournament ID blank for a tournament new to the "
        "site, or correct it.",
    )


def test_it_accepts_the_tournament_id_of_a_tournament_on_the_site():
    parsed = SheetBuilder.valid().set("Tournament ID", 42).read()
    report = check_sheet(parsed, context(tournament=SPRING_CLASH, same_name_and_start=SPRING_CLASH))
    assert report.errors == [] and report.warnings == []


def test_it_reports_a_tournament_id_of_another_rating_system():
    parsed = SheetBuilder.valid().set("Tournament ID", 42).read()
    battle_empire = KnownTournament(
        id=42, name="Spring Clash", start=date(2024, 3, 16), rating_system="battle-empire"
    )
    assert_issue(
        check_sheet(parsed, context(tournament=battle_empire)),
        code="rating_system_mismatch",
        sheet="Tournament",
        cell="B4",
        en="Tournament 42 is rated with Battle Empire on the site, but this sheet says AdlG. Correct the "
        "Rating system or the Tournament ID.",
    )


def test_it_names_the_tournament_on_the_site_that_a_sheet_without_id_repeats():
    parsed = SheetBuilder.valid().read()
    assert_issue(
        check_sheet(parsed, context(same_name_and_start=SPRING_CLASH)),
        code="tournament_already_on_site",
        sheet="Tournament",
        cell="B2",
        en='The site already has the tournament "Spring Clash" starting 2024-03-16, with ID 42. To correct '
        "it, give its ID 42 in Tournament ID; if this is another tournament, give it another name.",
    )


def test_it_does_not_call_an_unreadable_tournament_id_a_repeat():
    parsed = SheetBuilder.valid().set("Tournament ID", "forty-two").read()
    report = check_sheet(parsed, context(same_name_and_start=SPRING_CLASH))
    assert [i.code for i in report.errors] == ["not_whole_number"]


def test_it_warns_of_a_new_player_whose_name_and_club_match_a_known_one():
    index = {name_club_key(last_name="NOUVEAU", first_name="nina", club=None): 150}
    report = check_sheet(SheetBuilder.valid().read(), context(name_club_index=index))
    assert report.ok
    assert_issue(
        report,
        code="new_player_matches_known",
        sheet="Players",
        cell="A10",
        severity="warning",
        en="Nina Nouveau (N1), new to the federation, has the same name and club as the known player Nina "
        "Nouveau (150). If it is the same person, write 150 instead of N1; the import goes on.",
    )


def test_it_warns_of_a_known_id_whose_name_differs_from_the_sites():
    report = check_sheet(SheetBuilder.valid().read(), context(players=known_players(renamed={104: "Smyth"})))
    assert report.ok
    assert_issue(
        report,
        code="name_differs",
        sheet="Players",
        cell="B5",
        severity="warning",
        en="Player 104 is John Smyth on the site but John Smith in the sheet; the site's name stands. Check "
        "that the ID is right; the import goes on.",
    )


def test_it_compares_names_whatever_their_case_and_spaces_and_ignores_blank_ones():
    builder = SheetBuilder.valid().set_player(104, "Last name", "  SMITH ").set_player(105, "Last name", None)
    builder.set_player(105, "First name", None)
    report = check_sheet(builder.read(), context())
    assert report.errors == [] and report.warnings == []


def test_it_leaves_the_parsed_report_alone_and_gives_the_same_answer_twice():
    parsed = SheetBuilder.valid().set("Tournament ID", 42).read()
    first = check_sheet(parsed, context())
    second = check_sheet(parsed, context())
    assert parsed.report.errors == []
    assert first == second and len(first.errors) == 1


def test_it_adds_nothing_to_a_refused_file():
    parsed: ParsedSheet = read_sheet(b"not a workbook", today=date(2024, 6, 1))
    report = check_sheet(parsed, context(same_name_and_start=SPRING_CLASH))
    assert [i.code for i in report.errors] == ["not_xlsx"]


def test_it_reports_sheet_and_federation_errors_together():
    builder = SheetBuilder.valid().set("Country", "UK").set_game(0, "Player B", 101)
    players = known_players()
    del players[108]
    report = check_sheet(builder.read(), context(players=players))
    assert [(i.code, i.cell) for i in report.errors] == [
        ("unknown_country", "B8"),
        ("unknown_player_id", "A9"),
        ("player_against_himself", "D2"),
    ]
