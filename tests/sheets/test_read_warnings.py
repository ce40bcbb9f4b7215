"""One test per warning the sheet alone shows: the import goes on, the report says what to look at."""

from __future__ import annotations

from tests.sheets.builders import SheetBuilder, assert_issue, issues_of


def _pair_same_club_in_round_one(builder: SheetBuilder) -> SheetBuilder:
    # Games 0 and 1 of round 1 are 101-104 and 102-107; they become 101-102 (both Alpha) and 104-107.
    return builder.set_game(0, "Player B", 102).set_game(1, "Player A", 104)


def test_it_warns_of_players_of_one_club_paired_in_the_first_round():
    report = _pair_same_club_in_round_one(SheetBuilder.valid()).read().report
    assert report.ok
    assert_issue(
        report,
        code="same_club_pairing",
        sheet="Games",
        cell="D2",
        severity="warning",
        en="Paul Martin (101) and Luc Bernard (102), both of club Alpha, are paired in round 1; the charter asks "
        "to avoid this in the first round, and the first two from 4 rounds up (App. 2 §2.a.ii). Check the "
        "pairing; the import goes on.",
    )


def test_it_matches_clubs_whatever_their_case_and_spaces():
    builder = _pair_same_club_in_round_one(SheetBuilder.valid()).set_player(102, "Club", " ALPHA ")
    assert len(issues_of(builder.read().report, "same_club_pairing")) == 1


def _pair_same_club_in_round_two(builder: SheetBuilder) -> SheetBuilder:
    # Games 5 and 6 of round 2 are 101-107 and 102-104; they become 101-102 and 107-104.
    return builder.set_game(5, "Player B", 102).set_game(6, "Player A", 107)


def test_it_lets_one_club_meet_in_round_two_of_a_three_round_tournament():
    report = _pair_same_club_in_round_two(SheetBuilder.valid()).read().report
    assert report.errors == [] and report.warnings == []


def test_it_warns_of_one_club_in_round_two_from_four_rounds_up():
    report = _pair_same_club_in_round_two(SheetBuilder.valid().set("Rounds", 4)).read().report
    assert [(i.code, i.cell, i.params["round"]) for i in report.warnings] == [("same_club_pairing", "D7", 2)]


def test_it_never_pairs_independents_into_one_club():
    builder = SheetBuilder.valid().set_player("N2", "Club", None)
    # Round 1 games 2 and 4 are 103-N1 and 106-N2; they become 103-106 and N1-N2, both without a club.
    builder.set_game(2, "Player B", 106).set_game(4, "Player A", "N1")
    report = builder.read().report
    assert report.errors == [] and report.warnings == []


def test_it_never_pairs_the_spare_into_a_club():
    builder = SheetBuilder.valid(two_pools=True).set_player(99, "Club", "Gamma")
    report = builder.read().report  # 203 (Gamma) plays the spare in round 1
    assert report.errors == [] and report.warnings == []


def test_it_warns_of_a_registered_player_without_a_game():
    builder = SheetBuilder.valid()
    builder.add_player([109, "Late", "Lou", "Beta", "FR"])
    report = builder.read().report
    assert report.ok
    assert_issue(
        report,
        code="player_without_game",
        sheet="Players",
        cell="A12",
        severity="warning",
        en="Lou Late (109) is registered but plays no game. Add the player's games or remove the row; the import "
        "goes on.",
    )


def test_it_does_not_warn_of_a_spare_without_a_game():
    builder = SheetBuilder.valid()
    builder.add_player([99, "Spare", "The"])
    report = builder.read().report
    assert report.errors == [] and report.warnings == []
