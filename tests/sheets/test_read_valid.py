"""A valid sheet reads without issue, and the reader is generous in what it recognises."""

from __future__ import annotations

from datetime import date, datetime

from rules.sheet.checks import referenced_ids
from rules.sheet.parsed import SheetGame, SheetPlayer, SheetTournament
from rules.sheet.reader import read_sheet
from tests.sheets.builders import GAMES, TODAY, SheetBuilder


def test_it_reads_a_valid_sheet_without_any_issue():
    builder = SheetBuilder.valid()
    data = builder.build()
    parsed = read_sheet(data, today=TODAY)
    assert parsed.report.errors == []
    assert parsed.report.warnings == []
    assert parsed.report.ok
    assert parsed.tournament == SheetTournament(
        tournament_id=None,
        name="Spring Clash",
        rating_system="adlg",
        start=date(2024, 3, 16),
        end=date(2024, 3, 17),
        city="Lyon",
        country="FR",
        organising_club="Alpha",
        referee="Jean Arbitre",
        army_points=200,
        rounds=3,
        worlds=False,
        official=True,
    )
    assert len(parsed.players) == 10
    assert parsed.players[0] == SheetPlayer(
        row=2,
        key="101",
        player_id=101,
        last_name="Martin",
        first_name="Paul",
        club="Alpha",
        country="FR",
        pool="A",
        army="Romans",
        penalty=0,
        penalty_reason=None,
    )
    assert (
        parsed.players[8].key == "N1"
        and parsed.players[8].player_id is None
        and parsed.players[8].club is None
    )
    assert len(parsed.games) == len(GAMES)
    assert parsed.games[0] == SheetGame(
        row=2, round=1, table=1, a="101", b="104", result="A", a_losses=20, b_losses=60, free=False
    )
    import hashlib

    assert parsed.content_hash == hashlib.sha256(data).hexdigest()


def test_it_reads_two_pools_with_the_spare_in_any_pool():
    parsed = SheetBuilder.valid(two_pools=True).read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    assert {p.pool for p in parsed.players} == {"A", "B"}


def test_it_numbers_blank_tables_by_row_order_within_the_round():
    builder = SheetBuilder.valid()
    builder.set_game(1, "Table", 7)  # explicit tables stand, blanks take their position in the round
    parsed = builder.read()
    assert [(g.round, g.table) for g in parsed.games[:6]] == [(1, 1), (1, 7), (1, 3), (1, 4), (1, 5), (2, 1)]


def test_it_finds_sheets_labels_and_headers_whatever_their_case_and_surrounding_spaces():
    builder = SheetBuilder.valid()
    builder.titles = {"Tournament": " TOURNAMENT ", "Players": "players", "Games": "Games "}
    for row in builder.tournament:
        row[0] = f"  {str(row[0]).upper()} "
    builder.player_headers = [h.lower() for h in builder.player_headers]
    builder.game_headers = [f" {h.upper()}" for h in builder.game_headers]
    parsed = builder.read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    assert parsed.tournament is not None and parsed.tournament.rounds == 3


def test_it_reads_columns_in_any_order_and_ignores_extra_columns_and_sheets():
    builder = SheetBuilder.valid()
    builder.move_column_first("Games", "Result")
    builder.move_column_first("Players", "Club")
    builder.player_headers.append("Notes")
    for row in builder.players:
        row.append("paid")
    builder.rename_column("Games", "A losses %", "A losses")
    builder.rename_column("Games", "B losses %", "b LOSSES")
    builder.extra_sheets["Standings"] = [["ID", "Score"], ["101", "=1/0"]]
    builder.tournament.append(["Notes", "a fine weekend"])
    parsed = builder.read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    assert parsed.games[0].result == "A" and parsed.games[0].a_losses == 20
    assert parsed.players[0].club == "Alpha"


def test_it_reads_numbers_written_as_text_or_floats_and_trims_values():
    builder = SheetBuilder.valid()
    builder.set("Rounds", " 3 ").set("Army points", 200.0).set("Country", " fr ").set("Tournament ID", "12")
    builder.set("Start date", "2024-03-16").set("End date", datetime(2024, 3, 17, 0, 0)).set(
        "Official", "OUI"
    )
    builder.set_player(101, "ID", "101").set_player("N1", "ID", " n1 ").set_player(102, "ID", 102.0)
    builder.set_game(2, "Player B", "n1")
    builder.set_game(0, "Round", "1").set_game(0, "A losses %", "20").set_game(0, "Result", " a ")
    builder.set_game(0, "Free game", "N")
    parsed = builder.read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    assert parsed.tournament is not None
    assert (parsed.tournament.rounds, parsed.tournament.army_points, parsed.tournament.country) == (
        3,
        200,
        "FR",
    )
    assert parsed.tournament.tournament_id == 12 and parsed.tournament.end == date(2024, 3, 17)
    assert [p.key for p in parsed.players[:2]] == ["101", "102"] and parsed.players[8].key == "N1"
    assert parsed.games[2].b == "N1" and parsed.games[0].result == "A" and parsed.games[0].a_losses == 20


def test_it_applies_the_defaults_of_optional_values():
    builder = SheetBuilder.valid()
    builder.drop_label("Rating system").drop_label("Worlds").drop_label("Official").drop_label("Army points")
    builder.set("Organising club", None)
    builder.set_player(101, "Pool", None).set_player(101, "Penalty", None)
    builder.drop_column("Games", "Table").drop_column("Games", "Free game")
    parsed = builder.read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    tournament = parsed.tournament
    assert tournament is not None
    assert (tournament.rating_system, tournament.worlds, tournament.official) == ("adlg", False, True)
    assert tournament.army_points is None and tournament.organising_club is None
    assert parsed.players[0].pool == "A" and parsed.players[0].penalty == 0


def test_it_treats_pools_alike_whatever_their_case():
    builder = SheetBuilder.valid()
    builder.set_player(104, "Pool", "a")
    parsed = builder.read()
    assert parsed.report.errors == []
    assert {p.pool for p in parsed.players} == {"A"}


def test_it_reads_a_battle_empire_sheet_without_losses():
    builder = SheetBuilder.valid().set("Rating system", "Battle Empire")
    builder.drop_column("Games", "A losses %").drop_column("Games", "B losses %")
    for index, result in enumerate(["A", "A+", "A++", "B", "B+", "B++", "D"] * 3):
        if index < len(builder.games):
            builder.set_game(index, "Result", result)
    parsed = builder.read()
    assert parsed.report.errors == [] and parsed.report.warnings == []
    assert parsed.tournament is not None and parsed.tournament.rating_system == "battle-empire"
    assert parsed.games[1].result == "A+" and parsed.games[1].a_losses is None


def test_it_accepts_forfeits_and_double_demoralisation_without_losses_in_adlg():
    builder = SheetBuilder.valid()
    builder.set_game(3, "A losses %", None).set_game(3, "B losses %", None)  # DD
    parsed = builder.read()
    assert parsed.report.errors == []


def test_it_accepts_a_free_game_in_the_last_round():
    builder = SheetBuilder.valid()
    builder.set_game(14, "Free game", "yes")
    parsed = builder.read()
    assert parsed.report.errors == []
    assert parsed.games[14].free is True


def test_it_stops_at_a_long_run_of_blank_rows():
    builder = SheetBuilder.valid()
    builder.games.extend([[None] * len(builder.game_headers)] * 60)
    builder.games.append([1, None, 101, 105, "A", 10, 10, "no"])  # past 50 blank rows: never read
    parsed = builder.read()
    assert parsed.report.errors == []
    assert len(parsed.games) == len(GAMES)


def test_it_reads_across_a_few_blank_rows():
    builder = SheetBuilder.valid()
    builder.games.insert(5, [None] * len(builder.game_headers))
    parsed = builder.read()
    assert parsed.report.errors == []
    assert parsed.games[5].row == 8


def test_it_names_the_federation_ids_the_sheet_mentions():
    builder = SheetBuilder.valid(two_pools=True)
    parsed = builder.read()
    assert referenced_ids(parsed) == {101, 102, 103, 104, 105, 106, 107, 108, 201, 202, 203}
