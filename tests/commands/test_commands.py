"""The management commands exactly as COMMANDS.md writes them: names, options, exit codes, columns."""

import csv
import io
import json
from datetime import date

import pytest

from players.models import OpeningBalance, Player
from ratings.models import PlayerRating, RatingEvent
from tests.commands.cli import run
from tests.ratings.helpers import ROSTER, roster, sheet
from tests.sheets.builders import SheetBuilder

pytestmark = pytest.mark.django_db(transaction=True)



def write(tmp_path, name: str, data: bytes | str) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def test_import_players_adds_players_with_their_opening_balances(tmp_path):
    code, out, _ = run("import_players", write(tmp_path, "players.csv", ROSTER))
    assert code == 0 and "11 players created" in out
    assert Player.objects.get(pk=101).last_name == "Martin"
    opening = OpeningBalance.objects.get(player_id=101)
    assert (opening.rating, opening.games, opening.as_of) == (1350, 40, date(2019, 12, 31))
    assert PlayerRating.objects.get(player_id=101).rating == 1350


def test_import_players_is_all_or_nothing_and_names_every_bad_line(tmp_path):
    bad = ROSTER + "109,,Anne,Alpha,FR,,,\n110,Ok,Bob,,XX,,,\n99,Spare,,,,,,\n"
    code, _, err = run("import_players", write(tmp_path, "players.csv", bad))
    assert code == 1
    assert "line 13: last_name is empty" in err
    assert "line 14: country 'XX' is not an ISO 3166-1 alpha-2 code" in err
    assert "line 15: id 99 is reserved for the spare player" in err
    assert Player.objects.exclude(pk=99).count() == 0


def test_import_players_refuses_a_missing_column(tmp_path):
    code, _, err = run("import_players", write(tmp_path, "p.csv", "id,last_name,first_name\n1,A,B\n"))
    assert code == 1 and "missing column(s) club, country" in err


def test_import_results_json_prints_one_report_per_file_in_order(tmp_path):
    roster()
    good = write(tmp_path, "good.xlsx", sheet(name="Spring Clash", start=date(2024, 3, 16)))
    broken = SheetBuilder.valid().set("Name", "Other").set("Rounds", "three").build()
    bad = write(tmp_path, "bad.xlsx", broken)
    code, out, _ = run("import_results", good, bad, "--json")
    assert code == 1
    first, second = (json.loads(line) for line in out.strip().splitlines())
    assert first["ok"] is True and isinstance(first["tournament_id"], int)
    assert set(first["new_players"]) == {"N1", "N2"} and all(isinstance(v, int) for v in first["new_players"].values())
    assert first["errors"] == [] and isinstance(first["warnings"], list)
    assert second["ok"] is False and second["tournament_id"] is None
    assert {"sheet", "cell", "message"} <= set(second["errors"][0])
    assert RatingEvent.objects.filter(tournament_id=first["tournament_id"]).exists()


def test_import_results_exits_zero_and_has_rated_everything_when_it_returns(tmp_path):
    roster()
    code, out, _ = run("import_results", write(tmp_path, "a.xlsx", sheet(name="A", start=date(2024, 3, 16))))
    assert code == 0 and "imported as tournament" in out
    assert PlayerRating.objects.filter(player_id=102).exists()


def test_import_results_with_a_missing_file_reports_it_and_exits_one(tmp_path):
    code, out, _ = run("import_results", str(tmp_path / "nope.xlsx"), "--json")
    assert code == 1
    report = json.loads(out.strip())
    assert report["ok"] is False and report["errors"]


def test_exports_have_exactly_the_documented_columns(tmp_path):
    roster()
    _, out, _ = run("import_results", write(tmp_path, "a.xlsx", sheet(name="A", start=date(2024, 3, 16))), "--json")
    tid = json.loads(out)["tournament_id"]
    _, ratings, _ = run("export_ratings")
    rows = list(csv.reader(io.StringIO(ratings)))
    assert rows[0] == ["id", "last_name", "first_name", "country", "club", "rating", "rank", "games"]
    ratings_column = [int(r[5]) for r in rows[1:]]
    assert ratings_column == sorted(ratings_column, reverse=True)
    assert "99" not in [r[0] for r in rows[1:]]
    _, standings, _ = run("export_standings", str(tid))
    rows = list(csv.reader(io.StringIO(standings)))
    assert rows[0] == ["pool", "rank", "id", "score", "opponents_score", "championship_points"]
    assert all(len(r[5].split(".")[1]) == 2 for r in rows[1:])
    _, champ, _ = run("export_championship", "2024")
    rows = list(csv.reader(io.StringIO(champ)))
    assert rows[0] == ["rank", "id", "total", "results"] and len(rows) == 11
    _, champ_json, _ = run("export_championship", "2024", "--format", "json")
    assert json.loads(champ_json)[0].keys() == {"rank", "id", "total", "results"}
    _, rating_json, _ = run("export_ratings", "--format", "json")
    assert json.loads(rating_json)[0]["rank"] in {"Soldier", "Knight", "Champion", "Master", "Reservist",
                                                   "Seneschal", "Militia", "Steward", "Grand Master", "Strategist"}


def test_export_championship_per_country_needs_five_registered_players(tmp_path):
    roster()
    run("import_results", write(tmp_path, "a.xlsx", sheet(name="A", start=date(2024, 3, 16))))
    _, france, _ = run("export_championship", "2024", "--country", "FR")
    assert len(list(csv.reader(io.StringIO(france)))) == 1  # only 4 French players registered: no ranking
    code, _, err = run("export_championship", "2024", "--country", "ZZ")
    assert code == 1 and "unknown country code" in err


def test_replay_ratings_prints_games_per_second_and_changes_nothing(tmp_path):
    roster()
    run("import_results", write(tmp_path, "a.xlsx", sheet(name="A", start=date(2024, 3, 16))))
    before = list(RatingEvent.objects.order_by("seq").values_list("player_id", "rating_after"))
    code, out, _ = run("replay_ratings", "--system", "adlg")
    assert code == 0 and "games/s" in out
    assert list(RatingEvent.objects.order_by("seq").values_list("player_id", "rating_after")) == before
    assert run("replay_ratings", "--system", "chess")[0] == 1


def test_close_year_twice_says_so_and_refuses_a_future_year():
    roster()
    code, out, _ = run("close_year", "2020")
    assert code == 0 and "adlg: 2020 closed" in out
    code, out, _ = run("close_year", "2020")
    assert code == 0 and "adlg: 2020 was already closed" in out
    assert run("close_year", "2999")[0] == 1


BAD_COMMAND_LINES = [
    ["import_results", "/nonexistent.xlsx"],
    ["import_players", "/nonexistent.csv"],
    ["export_standings", "123456"],
    ["close_year", "notayear"],
]


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES)
def test_bad_input_exits_one_without_a_traceback(argv, bad_command_lines):
    result = bad_command_lines[tuple(argv)]
    assert result.returncode in (1, 2) if argv[0] == "close_year" else result.returncode == 1
    assert "Traceback" not in result.stderr and result.stderr.strip()
