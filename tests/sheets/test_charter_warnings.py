"""The charter's conditions (App. 1 §3-4) as warnings of the report, through rules.charter.

Ranked players are the players of the sheet other than the spare who play at least one game; a pool's rounds
are the distinct rounds with a game of that pool that is not a free game.
"""

from __future__ import annotations

from adlg_site.words import words_in
from tests.sheets.builders import SheetBuilder, assert_issue, issues_of

CHARTER_CODES = {"not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds", "too_few_rounds"}


def small_tournament() -> SheetBuilder:
    """Four players of four clubs, a round robin of 3 rounds."""
    builder = SheetBuilder.valid()
    keep = {101, 104, 107, "N2"}
    builder.players = [row for row in builder.players if row[0] in keep]
    builder.games = [
        [1, None, 101, 104, "A", 10, 50, "no"],
        [1, None, 107, "N2", "B", 40, 20, "no"],
        [2, None, 101, 107, "D", 30, 30, "no"],
        [2, None, 104, "N2", "A", 5, 60, "no"],
        [3, None, 101, "N2", "B", 70, 10, "no"],
        [3, None, 104, 107, "DD", 50, 50, "no"],
    ]
    return builder


def test_it_has_no_charter_warning_for_a_tournament_that_meets_the_charter():
    for builder in (SheetBuilder.valid(), SheetBuilder.valid(two_pools=True)):
        report = builder.read().report
        assert not {issue.code for issue in report.warnings} & CHARTER_CODES


def test_it_warns_of_a_tournament_that_is_not_official():
    report = SheetBuilder.valid().set("Official", "no").read().report
    assert report.ok
    assert_issue(
        report,
        code="not_official",
        sheet="Tournament",
        cell="B14",
        severity="warning",
        en="The tournament is not official.",
    )


def test_it_warns_of_fewer_than_eight_ranked_players():
    report = small_tournament().read().report
    assert report.ok
    assert_issue(
        report,
        code="too_few_players",
        sheet="Tournament",
        cell="",
        severity="warning",
        en="The tournament ranks 4 players; at least 8 are needed.",
    )
    assert [issue.code for issue in report.warnings] == ["too_few_players"]


def test_it_counts_only_players_who_play_and_never_the_spare():
    builder = small_tournament()
    builder.add_player([99, "Spare", "The"])
    for key in (201, 202, 203, 204, 205):
        builder.add_player([key, f"Idle{key}", "Ian", "Epsilon", "FR"])  # registered, no game
    report = builder.read().report
    assert issues_of(report, "too_few_players")[0].params == {"players": 4, "minimum": 8}


def test_it_warns_of_fewer_than_three_clubs():
    builder = SheetBuilder.valid()
    for key in (107, 108, "N2"):
        builder.set_player(key, "Club", "Alpha")
    builder.set_player("N1", "Club", "beta ")  # the club Beta, however it is written
    report = builder.read().report
    assert_issue(
        report,
        code="too_few_clubs",
        sheet="Tournament",
        cell="",
        severity="warning",
        en="The players come from 2 clubs (an independent player counts as a club of one); at least 3 are "
        "needed.",
    )


def test_it_counts_each_independent_player_as_a_club_of_one():
    builder = SheetBuilder.valid()
    for key in (104, 105, 106, 107, 108, "N1", "N2"):
        builder.set_player(key, "Club", None)
    report = builder.read().report
    assert not issues_of(report, "too_few_clubs")
    assert not issues_of(report, "club_over_two_thirds")


def test_it_warns_of_a_club_over_two_thirds_of_the_players():
    builder = SheetBuilder.valid()
    for key in (104, 105, 106, 107):
        builder.set_player(key, "Club", "Alpha")
    report = builder.read().report
    assert_issue(
        report,
        code="club_over_two_thirds",
        sheet="Tournament",
        cell="",
        severity="warning",
        en="The club Alpha has 7 of the 10 players: more than two thirds.",
    )


def test_it_warns_of_a_pool_with_too_few_rounds_for_its_size():
    builder = SheetBuilder.valid()
    builder.games = [row for row in builder.games if row[0] != 3]
    report = builder.read().report
    assert_issue(
        report,
        code="too_few_rounds",
        sheet="Tournament",
        cell="B12",
        severity="warning",
        en="Pool A: 2 rounds for 10 players; at least 3 are needed.",
    )


def test_it_leaves_free_games_out_of_a_pools_rounds():
    builder = SheetBuilder.valid()
    for index in range(10, 15):
        builder.set_game(index, "Free game", "yes")
    report = builder.read().report
    assert issues_of(report, "too_few_rounds")[0].params == {
        "pool": "A",
        "players": 10,
        "rounds": 2,
        "minimum": 3,
    }


def test_it_checks_each_pool_on_its_own():
    builder = SheetBuilder.valid(two_pools=True)
    builder.games = [row for row in builder.games if not (row[0] == 3 and row[2] in (201, 202))]
    report = builder.read().report
    assert [issue.params for issue in issues_of(report, "too_few_rounds")] == [
        {"pool": "B", "players": 3, "rounds": 2, "minimum": 3}
    ]


def test_it_has_french_charter_messages():
    report = SheetBuilder.valid().set("Official", "no").read().report
    assert report.as_dict(words_in("fr"))["warnings"][0]["message"] == "Le tournoi n’est pas officiel."


def test_it_checks_no_charter_condition_in_battle_empire():
    builder = small_tournament().set("Rating system", "battle-empire").set("Official", "no")
    builder.set_game(5, "Result", "D")
    report = builder.read().report
    assert report.errors == [] and report.warnings == []
