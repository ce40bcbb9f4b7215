"""One test per error of spec/RESULT_SHEET.md that the sheet alone shows: its code, place and sentence.

Each test starts from the valid sheet of builders.py and makes one fault. Cells are written out (`B7`, not a
helper's answer) so that a test also pins where the report points. Tournament rows: 1 Format, 2 Tournament ID,
3 Name, 4 Rating system, 5 Start date, 6 End date, 7 City, 8 Country, 9 Organising club, 10 Referee,
11 Army points, 12 Rounds, 13 Worlds, 14 Official. Players: A ID ... I Penalty reason, player 101 in row 2.
Games: A Round, B Table, C Player A, D Player B, E Result, F/G losses, H Free game; game i in row i + 2.
"""

from __future__ import annotations

from datetime import date

from adlg_site.words import words_in
from tests.sheets.builders import SheetBuilder, assert_issue, issues_of

# -- structure


def test_it_reports_a_missing_sheet():
    builder = SheetBuilder.valid()
    builder.titles["Games"] = None
    report = builder.read().report
    assert_issue(
        report,
        code="missing_sheet",
        sheet="Games",
        cell="",
        en="The workbook has no sheet named Games. Add it (the name is not case-sensitive) or copy your "
        "results into the official result sheet.",
    )
    assert [issue.code for issue in report.errors] == ["missing_sheet"]


def test_it_reports_a_missing_label_where_the_template_has_it():
    report = SheetBuilder.valid().drop_label("Referee").read().report
    assert_issue(
        report,
        code="missing_label",
        sheet="Tournament",
        cell="A10",
        en='The Tournament sheet has no row labelled "Referee". Add the label in column A and its value in '
        "column B.",
    )
    assert len(report.errors) == 1


def test_it_reports_a_label_given_twice():
    builder = SheetBuilder.valid()
    builder.tournament.append(["city", "Paris"])
    assert_issue(
        builder.read().report,
        code="duplicate_label",
        sheet="Tournament",
        cell="A15",
        en='The label "City" appears twice in the Tournament sheet (first at A7). Keep one of the two rows.',
    )


def test_it_reports_a_missing_column_where_the_template_has_it():
    report = SheetBuilder.valid().drop_column("Players", "Club").read().report
    assert_issue(
        report,
        code="missing_column",
        sheet="Players",
        cell="D1",
        en='The Players sheet has no column headed "Club". Add this header in row 1 and fill the column.',
    )
    assert len(report.errors) == 1


def test_it_requires_the_losses_columns_in_adlg():
    report = SheetBuilder.valid().drop_column("Games", "B losses %").read().report
    assert_issue(
        report,
        code="missing_column",
        sheet="Games",
        cell="G1",
        en='The Games sheet has no column headed "B losses %". Add this header in row 1 and fill the column.',
    )


def test_it_reports_a_column_given_twice():
    builder = SheetBuilder.valid().rename_column("Games", "Table", "round")
    assert_issue(
        builder.read().report,
        code="duplicate_column",
        sheet="Games",
        cell="B1",
        en='The Games sheet has two columns headed "Round" (the first at A1). Keep one and rename or delete '
        "the other.",
    )


def test_it_reports_a_missing_required_tournament_value():
    report = SheetBuilder.valid().set("City", "  ").read().report
    assert_issue(
        report,
        code="missing_value",
        sheet="Tournament",
        cell="B7",
        en='"City" is required and is blank. Fill it in.',
    )
    assert len(report.errors) == 1


def test_it_reports_a_missing_result():
    builder = SheetBuilder.valid().set_game(4, "Result", None)
    assert_issue(
        builder.read().report,
        code="missing_value",
        sheet="Games",
        cell="E6",
        en='"Result" is required and is blank. Fill it in.',
    )


def test_it_reports_a_player_row_without_id():
    builder = SheetBuilder.valid()
    builder.add_player([None, "Ghost", "Gus", "Alpha"])
    assert_issue(
        builder.read().report,
        code="missing_value",
        sheet="Players",
        cell="A12",
        en='"ID" is required and is blank. Fill it in.',
    )


def test_it_reports_an_unknown_format():
    builder = SheetBuilder.valid().set("Format", "adlg-result-sheet/2")
    assert_issue(
        builder.read().report,
        code="unknown_format",
        sheet="Tournament",
        cell="B1",
        en='The Format is "adlg-result-sheet/2", but the site reads only "adlg-result-sheet/1". Write '
        "adlg-result-sheet/1 here; if the sheet comes from another template, copy your results into the "
        "official result sheet.",
    )


# -- values of the wrong kind or out of range


def test_it_reports_a_number_with_decimals():
    builder = SheetBuilder.valid().set_game(0, "Round", 1.5)
    report = builder.read().report
    assert_issue(
        report,
        code="not_whole_number",
        sheet="Games",
        cell="A2",
        en='"Round" must be a whole number, not "1.5". Write a number without decimals.',
    )
    assert len(report.errors) == 1


def test_it_reports_text_where_a_number_is_expected():
    builder = SheetBuilder.valid().set("Rounds", "three")
    assert_issue(
        builder.read().report,
        code="not_whole_number",
        sheet="Tournament",
        cell="B12",
        en='"Rounds" must be a whole number, not "three". Write a number without decimals.',
    )


def test_it_reports_army_points_out_of_range():
    assert_issue(
        SheetBuilder.valid().set("Army points", 350).read().report,
        code="out_of_range",
        sheet="Tournament",
        cell="B11",
        en='"Army points" is 350, outside the allowed range 100 to 300. Correct it.',
    )


def test_it_reports_rounds_out_of_range():
    assert_issue(
        SheetBuilder.valid().set("Rounds", 13).read().report,
        code="out_of_range",
        sheet="Tournament",
        cell="B12",
        en='"Rounds" is 13, outside the allowed range 1 to 12. Correct it.',
    )


def test_it_reports_losses_out_of_range():
    assert_issue(
        SheetBuilder.valid().set_game(0, "A losses %", 120).read().report,
        code="out_of_range",
        sheet="Games",
        cell="F2",
        en='"A losses %" is 120, outside the allowed range 0 to 100. Correct it.',
    )


def test_it_reports_losses_with_decimals():
    assert_issue(
        SheetBuilder.valid().set_game(0, "B losses %", "62.5").read().report,
        code="not_whole_number",
        sheet="Games",
        cell="G2",
        en='"B losses %" must be a whole number, not "62.5". Write a number without decimals.',
    )


def test_it_reports_a_table_below_one():
    assert_issue(
        SheetBuilder.valid().set_game(0, "Table", 0).read().report,
        code="below_minimum",
        sheet="Games",
        cell="B2",
        en='"Table" is 0, but it must be at least 1. Correct it.',
    )


def test_it_reports_a_negative_penalty():
    assert_issue(
        SheetBuilder.valid().set_player(101, "Penalty", -5).read().report,
        code="below_minimum",
        sheet="Players",
        cell="H2",
        en='"Penalty" is -5, but it must be at least 0. Correct it.',
    )


def test_it_reports_a_tournament_id_below_one():
    assert_issue(
        SheetBuilder.valid().set("Tournament ID", 0).read().report,
        code="below_minimum",
        sheet="Tournament",
        cell="B2",
        en='"Tournament ID" is 0, but it must be at least 1. Correct it.',
    )


def test_it_reports_a_round_past_the_tournaments_rounds():
    report = SheetBuilder.valid().set_game(0, "Round", 4).read().report
    assert_issue(
        report,
        code="round_out_of_range",
        sheet="Games",
        cell="A2",
        en="Round 4 is not between 1 and 3, the number of Rounds given in the Tournament sheet. Correct the "
        "round, or the Rounds value.",
    )


def test_it_holds_rounds_to_twelve_when_the_rounds_value_is_unreadable():
    report = SheetBuilder.valid().set("Rounds", "x").set_game(0, "Round", 13).read().report
    assert_issue(
        report,
        code="out_of_range",
        sheet="Games",
        cell="A2",
        en='"Round" is 13, outside the allowed range 1 to 12. Correct it.',
    )


def test_it_reports_a_value_that_is_not_a_boolean():
    assert_issue(
        SheetBuilder.valid().set("Worlds", "maybe").read().report,
        code="not_boolean",
        sheet="Tournament",
        cell="B13",
        en='"Worlds" must be yes or no, not "maybe". Write yes or no.',
    )


def test_it_reports_a_free_game_flag_that_is_not_a_boolean():
    assert_issue(
        SheetBuilder.valid().set_game(0, "Free game", "x").read().report,
        code="not_boolean",
        sheet="Games",
        cell="H2",
        en='"Free game" must be yes or no, not "x". Write yes or no.',
    )


def test_it_reports_a_date_it_cannot_read():
    assert_issue(
        SheetBuilder.valid().set("Start date", "16/03/2024").read().report,
        code="not_date",
        sheet="Tournament",
        cell="B5",
        en='"Start date" must be a date, not "16/03/2024". Enter a date, or text in the form YYYY-MM-DD (for '
        "example 2024-03-16).",
    )


def test_it_reports_a_start_after_the_end():
    assert_issue(
        SheetBuilder.valid().set("End date", date(2024, 3, 15)).read().report,
        code="start_after_end",
        sheet="Tournament",
        cell="B6",
        en="The End date 2024-03-15 is before the Start date 2024-03-16. Correct one of the two dates.",
    )


def test_it_reports_a_date_in_the_future():
    report = SheetBuilder.valid().read(today=date(2024, 3, 16)).report
    assert_issue(
        report,
        code="date_in_future",
        sheet="Tournament",
        cell="B6",
        en='"End date" is 2024-03-17, which is in the future (today is 2024-03-16). Send the results after '
        "the tournament, with its real dates.",
    )
    assert len(report.errors) == 1


def test_it_reports_a_country_that_is_not_an_iso_code():
    assert_issue(
        SheetBuilder.valid().set("Country", "UK").read().report,
        code="unknown_country",
        sheet="Tournament",
        cell="B8",
        en='"UK" is not an ISO 3166-1 alpha-2 country code. Write the two-letter code, for example FR, GB, '
        "ES or IT (the United Kingdom is GB).",
    )


def test_it_reports_a_players_country_that_is_not_an_iso_code():
    assert_issue(
        SheetBuilder.valid().set_player(104, "Country", "England").read().report,
        code="unknown_country",
        sheet="Players",
        cell="E5",
        en='"England" is not an ISO 3166-1 alpha-2 country code. Write the two-letter code, for example FR, '
        "GB, ES or IT (the United Kingdom is GB).",
    )


def test_it_reports_an_unknown_rating_system():
    report = SheetBuilder.valid().set("Rating system", "chess").read().report
    assert_issue(
        report,
        code="unknown_rating_system",
        sheet="Tournament",
        cell="B4",
        en='The Rating system "chess" is unknown. Write adlg or battle-empire (blank means adlg).',
    )
    assert len(report.errors) == 1


def test_it_reports_a_result_of_the_other_system():
    assert_issue(
        SheetBuilder.valid().set_game(0, "Result", "A+").read().report,
        code="unknown_result",
        sheet="Games",
        cell="E2",
        en='"A+" is not a valid AdlG result. Write one of: A, B, D, DD, FA, FB.',
    )


def test_it_reports_an_adlg_result_in_battle_empire():
    builder = SheetBuilder.valid().set("Rating system", "battle-empire").set_game(3, "Result", "DD")
    builder.set_game(8, "Result", "A").set_game(14, "Result", "B")  # the valid sheet's forfeits
    assert_issue(
        builder.read().report,
        code="unknown_result",
        sheet="Games",
        cell="E5",
        en='"DD" is not a valid Battle Empire result. Write one of: A, A+, A++, B, B+, B++, D.',
    )


def test_it_requires_the_losses_of_a_win_a_defeat_or_a_draw_in_adlg():
    report = SheetBuilder.valid().set_game(0, "A losses %", None).read().report
    assert_issue(
        report,
        code="losses_required",
        sheet="Games",
        cell="F2",
        en='"A losses %" is required for the result A in AdlG, since it sets the scores. Enter the army\'s '
        "losses as a whole percentage from 0 to 100.",
    )
    assert len(report.errors) == 1


def test_it_requires_a_reason_for_penalty_points():
    assert_issue(
        SheetBuilder.valid().set_player(101, "Penalty", 20).read().report,
        code="penalty_reason_required",
        sheet="Players",
        cell="I2",
        en="Paul Martin (101) has 20 penalty points but no Penalty reason. Write the reason (late list, changed "
        "list, disruptive play...) in the Penalty reason column.",
    )


# -- players


def test_it_reports_an_id_that_is_neither_a_number_nor_a_tag():
    builder = SheetBuilder.valid()
    builder.add_player(["P12", "Xu", "Yan", "Alpha"])
    assert_issue(
        builder.read().report,
        code="bad_player_id",
        sheet="Players",
        cell="A12",
        en='"P12" is not a player ID. Write the player\'s federation ID (a whole number), 99 for the spare, '
        "or a tag N1, N2... for a player new to the federation.",
    )


def test_it_reports_a_game_player_that_is_not_an_id():
    assert_issue(
        SheetBuilder.valid().set_game(0, "Player B", "12.5").read().report,
        code="bad_player_id",
        sheet="Games",
        cell="D2",
        en='"12.5" is not a player ID. Write the player\'s federation ID (a whole number), 99 for the spare, '
        "or a tag N1, N2... for a player new to the federation.",
    )


def test_it_reports_a_player_listed_twice():
    builder = SheetBuilder.valid()
    builder.add_player([101, "Martin", "Paul", "Alpha"])
    report = builder.read().report
    assert_issue(
        report,
        code="duplicate_player",
        sheet="Players",
        cell="A12",
        en="Paul Martin (101) is listed twice (first in row 2). Keep one of the two rows, and give each new player "
        "a different tag.",
    )
    assert len(report.errors) == 1


def test_it_reports_a_tag_given_twice_whatever_its_case():
    builder = SheetBuilder.valid()
    builder.add_player(["n1", "Autre", "Anne", "Beta"])
    params = issues_of(builder.read().report, "duplicate_player")[0].params
    assert params == {"key": "N1", "first_row": 10, "name": "Nina Nouveau"}


def test_it_requires_the_name_of_a_new_player():
    report = SheetBuilder.valid().set_player("N2", "First name", None).read().report
    assert_issue(
        report,
        code="new_player_name_required",
        sheet="Players",
        cell="C11",
        en="New player N2 has no First name. Write it: the site creates the player from this name.",
    )
    assert len(report.errors) == 1


def test_it_reports_a_tag_used_in_games_but_not_in_players():
    assert_issue(
        SheetBuilder.valid().set_game(4, "Player B", "N9").read().report,
        code="not_in_players",
        sheet="Games",
        cell="D6",
        en="Player N9 plays in this game but is not in the Players sheet. Add a row for N9 in Players, or "
        "correct the ID here.",
    )


def test_it_reports_an_id_used_in_games_but_not_in_players():
    assert_issue(
        SheetBuilder.valid().set_game(0, "Player A", 999).read().report,
        code="not_in_players",
        sheet="Games",
        cell="C2",
        en="Player 999 plays in this game but is not in the Players sheet. Add a row for 999 in Players, or "
        "correct the ID here.",
    )


def test_it_wants_the_spare_in_players_too():
    report = SheetBuilder.valid(two_pools=True).remove_player(99).read().report
    assert [(i.code, i.cell) for i in report.errors] == [
        ("not_in_players", "D18"),
        ("not_in_players", "D20"),
        ("not_in_players", "D21"),
    ]


# -- games


def test_it_reports_a_player_in_two_games_of_one_round():
    report = SheetBuilder.valid().set_game(1, "Player B", 108).read().report
    assert_issue(
        report,
        code="player_twice_in_round",
        sheet="Games",
        cell="D5",
        en="Juan Lopez (108) plays two games in round 1 (the other in row 3). Correct one of the two pairings.",
    )
    assert len(report.errors) == 1


def test_it_lets_the_spare_play_once_a_round_in_each_pool():
    builder = SheetBuilder.valid(two_pools=True)
    # Pool A gets an odd player who plays the spare too: 99 is then in two games of round 1, one per pool.
    builder.add_player([109, "Odd", "Otto", "Beta", "FR", "A"])
    builder.add_game([1, None, 109, 99, "A", 10, 30])
    report = builder.read().report
    assert report.errors == []
    builder.add_game([1, None, 99, 203, "A", 10, 30])  # a second spare game in pool B's round 1
    assert [(i.code, i.cell) for i in builder.read().report.errors] == [
        ("player_twice_in_round", "C24"),
        ("player_twice_in_round", "D24"),
    ]


def test_it_reports_a_player_against_himself():
    report = SheetBuilder.valid().set_game(0, "Player B", 101).read().report
    assert_issue(
        report,
        code="player_against_himself",
        sheet="Games",
        cell="D2",
        en="Paul Martin (101) is paired against himself. Correct Player A or Player B.",
    )
    assert len(report.errors) == 1


def test_it_reports_the_spare_against_the_spare():
    report = SheetBuilder.valid(two_pools=True).set_game(16, "Player A", 99).read().report
    assert_issue(
        report,
        code="spare_against_spare",
        sheet="Games",
        cell="D18",
        en="The spare (99) is paired against the spare. Correct Player A or Player B.",
    )
    assert len(report.errors) == 1


def test_it_reports_players_of_different_pools_in_one_game():
    builder = SheetBuilder.valid()
    builder.add_player([301, "Cole", "Cy", "Alpha", "FR", "C"])
    builder.add_player([302, "Dane", "Dee", "Beta", "FR", "D"])
    builder.add_game([1, None, 301, 302, "A", 10, 20])
    report = builder.read().report
    assert_issue(
        report,
        code="different_pools",
        sheet="Games",
        cell="D17",
        en="Cy Cole (301) is in pool C and Dee Dane (302) in pool D: players of different pools cannot play each "
        "other. Correct the pairing, or the Pool column of the Players sheet.",
    )
    assert len(report.errors) == 1


def test_it_reports_two_players_meeting_twice():
    builder = SheetBuilder.valid().set_game(11, "Player B", 104).set_game(12, "Player B", 106)
    report = builder.read().report
    assert_issue(
        report,
        code="players_met_twice",
        sheet="Games",
        cell="C13",
        en="Luc Bernard (102) and John Smith (104) already met (row 8), and players can never meet twice in a "
        "tournament (charter App. 2 §2.a.i). Correct one of the two pairings.",
    )
    assert len(report.errors) == 1


def test_it_lets_the_spare_meet_a_player_twice():
    builder = SheetBuilder.valid(two_pools=True)
    builder.set_game(19, "Player A", 203)  # round 3: 203 against the spare again (it met it in round 1)
    builder.set_game(20, "Player B", 201)  # and 202 against 201 again: that one is an error
    report = builder.read().report
    assert [(i.code, i.cell) for i in report.errors] == [("players_met_twice", "C22")]


def test_it_reports_a_free_game_outside_the_last_round():
    report = SheetBuilder.valid().set_game(0, "Free game", "yes").read().report
    assert_issue(
        report,
        code="free_game_not_last_round",
        sheet="Games",
        cell="H2",
        en="This free game is in round 1, but free games are allowed only in the last round, 3 (charter App. "
        "2 §5). Write no in Free game, or correct the round.",
    )
    assert len(report.errors) == 1


# -- everything at once


def test_it_reports_every_error_of_a_sheet_together_in_reading_order():
    builder = SheetBuilder.valid()
    builder.set("City", None).set("Country", "UK").set("Army points", 50)
    builder.set_player(101, "Penalty", 30).set_player("N2", "Last name", None)
    builder.add_player([101, "Martin", "Paul", "Alpha"])
    builder.set_game(0, "Round", 9).set_game(2, "Result", "X").set_game(4, "Player B", 106)
    builder.set_game(5, "A losses %", 101).set_game(7, "Free game", "yes").set_game(10, "Player B", "N7")
    report = builder.read().report
    assert [(i.code, i.sheet, i.cell) for i in report.errors] == [
        ("missing_value", "Tournament", "B7"),
        ("unknown_country", "Tournament", "B8"),
        ("out_of_range", "Tournament", "B11"),
        ("penalty_reason_required", "Players", "I2"),
        ("new_player_name_required", "Players", "B11"),
        ("duplicate_player", "Players", "A12"),
        ("round_out_of_range", "Games", "A2"),
        ("unknown_result", "Games", "E4"),
        ("player_against_himself", "Games", "D6"),
        ("out_of_range", "Games", "F7"),
        ("free_game_not_last_round", "Games", "H9"),
        ("not_in_players", "Games", "D12"),
    ]
    assert all(issue.message() and issue.message(words_in("fr")) for issue in report.errors)
