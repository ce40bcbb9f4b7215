"""The sheet's report names people: the name written on the Players sheet with the ID ("Benoît Moreau (229)"),
the ID alone where no name is known ("player 229"), in both languages; the params scripts read stay as they were."""

from adlg_site.words import words_in
from rules.sheet import messages
from rules.sheet.checks import check_sheet
from rules.sheet.report import Issue, report_as_json, report_from_json
from tests.sheets.builders import SheetBuilder, issues_of
from tests.sheets.test_check_sheet import context, known_players


def test_it_names_a_player_of_the_sheet_with_their_id_in_both_languages():
    builder = SheetBuilder.valid().set_player(108, "First name", "Benoît").set_player(108, "Last name", "Moreau")
    issue = issues_of(builder.set_game(1, "Player B", 108).read().report, "player_twice_in_round")[0]
    assert issue.params["key"] == "108" and issue.params["name"] == "Benoît Moreau"
    assert issue.message().startswith("Benoît Moreau (108) plays two games in round 1")
    assert issue.message(words_in("fr")).startswith("Benoît Moreau (108) joue deux parties à la ronde 1")


def test_it_names_both_players_of_a_game():
    builder = SheetBuilder.valid().set_game(11, "Player B", 104).set_game(12, "Player B", 106)
    issue = issues_of(builder.read().report, "players_met_twice")[0]
    assert (issue.params["a"], issue.params["b"]) == ("102", "104")
    assert issue.message(words_in("fr")).startswith("Luc Bernard (102) et John Smith (104) se sont déjà rencontrés")


def test_it_names_an_excluded_player_by_the_sheets_name():
    report = check_sheet(SheetBuilder.valid().read(), context(players=known_players(excluded=frozenset({106}))))
    assert issues_of(report, "excluded_player")[0].message(words_in("fr")).startswith("Ian Brown (106) est exclu")


def test_it_says_player_and_the_id_when_no_name_is_known():
    # The admin's forms check a game by IDs alone, and a report stored before names were added has none.
    issue = Issue("player_against_himself", "Games", "D2", {"key": "229"})
    assert issue.message() == "Player 229 is paired against himself. Correct Player A or Player B."
    assert issue.message(words_in("fr")).startswith("Le joueur 229 est apparié contre lui-même.")
    pools = Issue("different_pools", "Games", "D2", {"a": "1", "b": "2", "pool_a": "A", "pool_b": "B"})
    assert pools.message().startswith("Player 1 is in pool A and player 2 in pool B:")


def test_it_keeps_the_names_through_the_stored_report():
    report = SheetBuilder.valid().set_game(0, "Player B", 101).read().report
    again = report_from_json(report_as_json(report))
    assert again.errors[0].message().startswith("Paul Martin (101) is paired against himself")


def test_it_leaves_a_tournament_id_alone():
    # "id" is a player's only in the player codes: tournament 101 is not Paul Martin.
    issue = Issue("unknown_tournament_id", "Tournament", "B2", {"id": 101})
    assert messages.render(code=issue.code, params=issue.params).startswith(
        "The site has no tournament with ID 101."
    )
    report = check_sheet(SheetBuilder.valid().set("Tournament ID", 101).read(), context())
    assert "name" not in issues_of(report, "unknown_tournament_id")[0].params
