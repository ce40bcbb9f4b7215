"""import_results takes a tournament in the exchange format (docs/exchange.md) beside the result sheet: by its
extension, or any file with --format json; the same exit codes and report as for a sheet (COMMANDS.md)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from rules.exchange import exchange_document
from tests.commands.cli import run
from tests.ratings.helpers import roster
from tests.sheets.builders import SheetBuilder
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db(transaction=True)



def document_bytes(builder: SheetBuilder | None = None) -> bytes:
    parsed = (builder or SheetBuilder.valid()).read()
    document = exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)
    return json.dumps(document).encode()


def test_a_json_file_is_imported_by_its_extension(tmp_path):
    roster()
    path = tmp_path / "spring.json"
    path.write_bytes(document_bytes())
    code, out, err = run("import_results", str(path))
    assert code == 0, err
    tournament = Tournament.objects.get()
    assert out.startswith(f"{path}: imported as tournament {tournament.pk}; new players N1→")
    assert Game.objects.filter(tournament=tournament).count() == 15
    assert tournament.standings.exists()  # rated before the command returned


def test_format_json_reads_any_file_name_and_prints_the_same_report(tmp_path):
    roster()
    path = tmp_path / "spring.export"
    path.write_bytes(document_bytes())
    code, out, _ = run("import_results", str(path), "--format", "json", "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"ok", "tournament_id", "new_players", "errors", "warnings"}
    assert report["ok"] is True and sorted(report["new_players"]) == ["N1", "N2"]


def test_without_format_json_a_json_file_of_another_name_is_not_a_workbook(tmp_path):
    roster()
    path = tmp_path / "spring.xlsx"
    path.write_bytes(document_bytes())
    code, out, _ = run("import_results", str(path), "--json")
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "not_xlsx"
    assert not Tournament.objects.exists()


def test_a_bad_json_file_exits_one_with_its_report_and_imports_nothing(tmp_path):
    roster()
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_bytes(document_bytes(SheetBuilder.valid().set("Name", "Good")))
    bad.write_bytes(b'{"format": "adlg-tournament/1", "tournament": {"name": 3}}')
    code, out, err = run("import_results", str(good), str(bad), "--json", "--lang", "fr")
    assert code == 1
    first, second = (json.loads(line) for line in out.strip().splitlines())
    assert first["ok"] is True and second["ok"] is False and second["tournament_id"] is None
    assert {"sheet", "cell", "message"} <= set(second["errors"][0])
    assert any("$.tournament.name" in e["message"] and "contient" in e["message"] for e in second["errors"])
    assert {(e["sheet"], e["cell"]) for e in second["errors"]} == {("", "$.tournament"), ("", "$.tournament.name"),
                                                                   ("", "$")}
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Good"]
    code, _, err = run("import_results", str(bad))
    assert code == 1 and f"{bad}: refused, nothing imported" in err and "$.tournament has no field" in err


def test_format_accepts_only_the_two_formats(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"{}")
    with pytest.raises(Exception, match="invalid choice"):
        call_command("import_results", str(path), "--format", "csv")
