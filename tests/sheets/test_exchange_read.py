"""The tournament exchange format read without a database: a document gives what its result sheet gives, a bad one
is refused with a sentence in each language that names the value's path, and the schema in docs/ agrees with the
sheet's format."""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import asdict, replace
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from adlg_site.words import words_in
from rules.exchange import (
    EXCHANGE_FORMAT,
    SCHEMA_PATH,
    exchange_document,
    json_path,
    read_exchange,
    read_upload,
    schema,
)
from rules.exchange.upload import file_kind
from rules.sheet.format import ALL_RESULTS, MAX_GAMES, MAX_PLAYERS, RATING_SYSTEMS, REFUSAL_CODES, TEXT_LIMITS
from rules.sheet.parsed import ParsedSheet
from rules.sheet.report import Report
from tests.ratings import real_history
from tests.sheets.builders import TODAY, SheetBuilder, issues_of


def facts(parsed: ParsedSheet) -> tuple:
    """What a reading says of the tournament, whatever the file's layout: its rows left out, games by round and
    table."""
    players = sorted((tuple(v for k, v in asdict(p).items() if k != "row") for p in parsed.players), key=str)
    games = sorted(tuple(v for k, v in asdict(g).items() if k != "row") for g in parsed.games)
    return parsed.tournament, players, games


def document_of(parsed: ParsedSheet) -> dict:
    return exchange_document(tournament=parsed.tournament, players=parsed.players, games=parsed.games)


def as_bytes(document: object) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode()


def valid_document() -> dict:
    parsed = SheetBuilder.valid(two_pools=True).read()
    return document_of(parsed)


def assert_json_issue(report: Report, *, code: str, path: str | None, en: str) -> None:
    """The one issue of this code, at this path (its params' for the schema's and the file's own, its cell's for the
    sheet's checks), with this English message and a French one of its own."""
    found = issues_of(report, code)
    assert len(found) == 1, report.as_dict()
    issue = found[0]
    where = issue.params.get("path") if "path" in issue.params else json_path(issue.sheet, issue.cell)
    if "path" in issue.params:  # the schema's: no sheet, the path for a cell
        assert (issue.sheet, issue.cell) == ("", issue.params["path"])
    assert (where or None) == path
    assert issue.message() == en
    french = issue.message(words_in("fr"))
    assert french and french != en


# --- the same tournament, whatever the format


def test_a_document_gives_what_its_sheet_gives():
    sheet = SheetBuilder.valid(two_pools=True)
    sheet.set_player(101, "Penalty", 2).set_player(101, "Penalty reason", "late list")
    sheet.set_game(14, "Free game", "yes")  # round 3, the last: a free game
    read = sheet.read()
    assert read.report.ok, read.report.as_dict()
    from_json = read_exchange(as_bytes(document_of(read)), today=TODAY)
    assert from_json.report.ok, from_json.report.as_dict()
    assert facts(from_json) == facts(read)
    assert from_json.source == "json" and read.source == "xlsx"
    # Written again from what was read, the document is the same.
    assert document_of(from_json) == document_of(read)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    armies=st.lists(st.one_of(st.none(), st.sampled_from(["Romans", "Gauls", "Later Carthaginian", "Ñ ä"])),
                    min_size=14, max_size=14),
    penalties=st.lists(st.integers(min_value=0, max_value=20), min_size=14, max_size=14),
    pool_b=st.sampled_from(["B", "Élite", "pool 2"]),
    tables_reversed=st.booleans(),
    club_less=st.sets(st.integers(min_value=0, max_value=13), max_size=4),
)
def test_any_sheet_round_trips_through_json(armies, penalties, pool_b, tables_reversed, club_less):
    parsed = SheetBuilder.valid(two_pools=True).read()
    players = []
    for index, player in enumerate(parsed.players):
        players.append(replace(
            player, army=armies[index], penalty=penalties[index],
            penalty_reason="late list" if penalties[index] else None,
            pool=pool_b if player.pool == "B" else player.pool,
            club=None if index in club_less else player.club))
    games = list(parsed.games)
    if tables_reversed:
        by_round: dict[int, list] = {}
        for game in games:
            by_round.setdefault(game.round, []).append(game)
        games = [replace(g, table=len(gs) - i) for gs in by_round.values() for i, g in enumerate(gs)]
    document = exchange_document(tournament=parsed.tournament, players=players, games=games)
    Draft202012Validator(schema()).validate(document)
    read = read_exchange(as_bytes(document), today=TODAY)
    assert [i.code for i in read.report.errors] == []
    assert document_of(read) == document


def test_real_tournaments_round_trip_through_json():
    """The real history's shape (tests/data/real-history): a sample of its tournaments, small and large, each read
    from its sheet, written as JSON, valid against the schema, and read back as the same facts."""
    validator = Draft202012Validator(schema())
    # The first years' tournaments, from 6 games to over 300 (building every sheet of the history takes a minute).
    first = list(itertools.islice(real_history.tournaments(), 47))
    sample = [*first[::4], max(first, key=lambda t: t.games)]
    assert min(t.games for t in sample) < 10 and max(t.games for t in sample) > 300
    for tournament in sample:
        read = read_upload(tournament.sheet, today=date(2026, 1, 1))
        assert read.report.ok, (tournament.code, read.report.as_dict())
        document = document_of(read)
        validator.validate(document)
        again = read_upload(as_bytes(document), today=date(2026, 1, 1))
        assert again.source == "json" and again.report.ok, (tournament.code, again.report.as_dict())
        assert facts(again) == facts(read), tournament.code
        assert [i.code for i in again.report.warnings] == [i.code for i in read.report.warnings]


# --- the schema and the sheet's format agree


def test_the_schema_is_valid_and_takes_the_sheets_vocabularies_and_limits():
    document_schema = schema()
    Draft202012Validator.check_schema(document_schema)
    properties = document_schema["properties"]
    assert properties["format"]["const"] == EXCHANGE_FORMAT
    tournament = properties["tournament"]["properties"]
    assert tuple(tournament["rating_system"]["enum"]) == RATING_SYSTEMS
    games = properties["games"]["items"]["properties"]
    assert set(games["result"]["enum"]) == set(ALL_RESULTS)
    players = properties["players"]["items"]["properties"]
    limits = {key: spec["maxLength"] for key, spec in {**tournament, **players}.items() if "maxLength" in spec}
    assert limits == TEXT_LIMITS
    assert properties["players"]["maxItems"] == MAX_PLAYERS and properties["games"]["maxItems"] == MAX_GAMES


def test_a_files_kind_is_its_extension_else_its_content():
    assert file_kind(b"PK\x03\x04", file_name="a.JSON") == "json"
    assert file_kind(b"{}", file_name="a.xlsx") == "xlsx"
    assert file_kind(b"\xef\xbb\xbf \n{\"format\"") == "json"
    assert file_kind(b"PK\x03\x04") == "xlsx" and file_kind(b"") == "xlsx"


def test_the_report_names_cells_by_their_json_path():
    assert json_path("Tournament", "B1") == "$.format"
    assert json_path("Tournament", "B2") == "$.tournament.id"
    assert json_path("Tournament", "B12") == "$.tournament.rounds"
    assert json_path("Players", "A2") == "$.players[0].id"
    assert json_path("Players", "H11") == "$.players[9].penalty"
    assert json_path("Games", "E14") == "$.games[12].result"
    assert json_path("Games", "C1") == "$.games"
    assert json_path("", "") == ""


# --- the sheet's checks, at JSON paths


def test_the_sheets_own_checks_apply_at_the_values_path():
    document = valid_document()
    document["games"][1]["b"] = 101  # 101 plays twice in round 1
    document["tournament"]["start"] = "2024-03-18"  # after the end
    read = read_exchange(as_bytes(document), today=TODAY)
    assert_json_issue(
        read.report, code="start_after_end", path="$.tournament.end",
        en="The End date 2024-03-17 is before the Start date 2024-03-18. Correct one of the two dates.")
    assert json_path(*next((i.sheet, i.cell) for i in read.report.errors if i.code == "player_twice_in_round")) \
        == "$.games[1].b"


def test_adlg_losses_are_required_as_in_the_sheet():
    document = valid_document()
    document["games"][0]["a_losses"] = None
    read = read_exchange(as_bytes(document), today=TODAY)
    assert [i.code for i in read.report.errors] == ["losses_required"]
    assert json_path(read.report.errors[0].sheet, read.report.errors[0].cell) == "$.games[0].a_losses"


def test_a_new_player_is_a_tag_with_a_name():
    document = valid_document()
    new = next(p for p in document["players"] if p["id"] == "N1")
    new["last_name"] = None
    read = read_exchange(as_bytes(document), today=TODAY)
    assert [i.code for i in read.report.errors] == ["new_player_name_required"]


# --- bad files, refused in words


def refused(data: bytes) -> Report:
    read = read_exchange(data, today=TODAY)
    assert read.tournament is None and read.players == [] and read.games == []
    assert len(read.report.errors) == 1 and read.report.errors[0].code in REFUSAL_CODES
    return read.report


def test_a_file_over_the_limit_is_refused():
    report = read_exchange(b" " * (5 * 1024 * 1024 + 1), today=TODAY).report
    assert_json_issue(report, code="json_too_large", path=None,
                      en="The file is 5.1 MB, over the 5 MB limit. A tournament in JSON is normally well under 1 MB: "
                         "send one tournament a file.")


def test_a_file_not_utf8_is_refused():
    assert_json_issue(refused(b'{"format": "\xe9"}'), code="json_not_utf8", path=None,
                      en="The file is not UTF-8 text (byte 13 is not), so it cannot be read as JSON. Save it as UTF-8 "
                         "and send it again.")


def test_broken_json_is_refused_at_its_line_and_column():
    assert_json_issue(refused(b'{\n  "format": "adlg-tournament/1",\n  "players": [}\n'), code="json_syntax",
                      path=None,
                      en="The file is not valid JSON: it breaks at line 3, column 15. Correct it there (a JSON checker "
                         "shows what is wrong) and send it again.")


def test_nan_is_not_json():
    assert_json_issue(refused(b'{"format": NaN}'), code="json_syntax_constant", path=None,
                      en="The file holds NaN, which is not a JSON value. Write a number or null instead and send it "
                         "again.")


def test_a_field_given_twice_is_refused():
    assert_json_issue(refused(b'{"format": "adlg-tournament/1", "format": "x"}'), code="json_duplicate_key",
                      path=None,
                      en='The field "format" appears twice in one object of the file, so which value stands is '
                         'unclear. Keep one and send the file again.')


@pytest.mark.parametrize("depth", [25, 100_000])
def test_deep_nesting_is_refused(depth):
    assert_json_issue(refused(b"[" * depth + b"]" * depth), code="json_too_deep", path=None,
                      en="The file nests its values more than 20 levels deep, far more than a tournament needs, so "
                         "it is refused. Write the tournament as docs/exchange.md describes.")


def test_json_that_is_not_an_object_is_refused():
    assert_json_issue(refused(b"[1, 2]"), code="json_not_object", path=None,
                      en="The file is JSON but not a tournament: it must be one object with the fields format, "
                         "tournament, players and games, as docs/exchange.md describes.")


def test_another_format_or_version_is_refused():
    assert_json_issue(refused(b'{"format": "adlg-tournament/2"}'), code="json_unknown_format", path=None,
                      en='The file\'s format is "adlg-tournament/2", and the site reads "adlg-tournament/1". Write '
                         'the tournament in that format (docs/exchange.md) and send it again.')


def test_too_many_players_or_games_are_refused_before_anything_is_checked():
    document = valid_document()
    document["players"] = [{"id": n} for n in range(1, MAX_PLAYERS + 2)]
    assert_json_issue(refused(as_bytes(document)), code="json_too_many_players", path=None,
                      en="The file lists 1001 players, more than the 1000 a tournament may hold, so it is refused. "
                         "Keep only the tournament's players.")
    document = valid_document()
    document["games"] = [{}] * (MAX_GAMES + 1)
    assert_json_issue(refused(as_bytes(document)), code="json_too_many_games", path=None,
                      en="The file lists 10001 games, more than the 10000 a tournament may hold, so it is refused. "
                         "Keep only the tournament's games.")


def test_every_value_the_schema_refuses_is_reported_at_its_path():
    document = valid_document()
    del document["tournament"]["city"]
    document["tournament"]["rounds"] = 13
    document["tournament"]["army_points"] = 50
    document["tournament"]["name"] = "x" * 151
    document["players"][0]["nickname"] = "Paulo"
    document["games"][0]["round"] = "1"
    document["games"][1]["result"] = "W"
    document["games"][2]["a"] = "X1"
    read = read_exchange(as_bytes(document), today=TODAY)
    assert read.tournament is None and not read.report.refused
    report = read.report
    assert_json_issue(report, code="json_missing_field", path="$.tournament",
                      en='$.tournament has no field "city", which the format requires. Add it and send the file '
                         'again.')
    assert_json_issue(report, code="json_above_maximum", path="$.tournament.rounds",
                      en="$.tournament.rounds holds 13, above the largest value it takes, 12. Correct it and send "
                         "the file again.")
    assert_json_issue(report, code="json_below_minimum", path="$.tournament.army_points",
                      en="$.tournament.army_points holds 50, below the smallest value it takes, 100. Correct it and "
                         "send the file again.")
    assert_json_issue(report, code="json_too_long", path="$.tournament.name",
                      en="$.tournament.name holds 151 characters, more than the 150 the site keeps. Shorten it and "
                         "send the file again.")
    assert_json_issue(report, code="json_unknown_field", path="$.players[0]",
                      en='$.players[0] has a field "nickname" that the format does not know. Correct its name or '
                         'remove it (docs/exchange.md lists the fields) and send the file again.')
    assert_json_issue(report, code="json_wrong_type", path="$.games[0].round",
                      en='$.games[0].round holds "1", which is not of the JSON type integer. Correct it and send the '
                         'file again.')
    assert_json_issue(report, code="json_not_allowed", path="$.games[1].result",
                      en='$.games[1].result holds "W", which is not one of "A", "B", "D", "DD", "FA", "FB", "A+", '
                         '"A++", "B+", "B++". Correct it and send the file again.')
    assert_json_issue(report, code="json_bad_value", path="$.games[2].a",
                      en='$.games[2].a holds "X1", which the format does not take there (docs/exchange.md says what '
                         'it takes). Correct it and send the file again.')


def test_reading_never_raises():
    for data in (b"", b"null", b"{}", b'{"format": "adlg-tournament/1", "tournament": [], "players": {}, '
                 b'"games": 3}', "é".encode("utf-16"), None):
        read = read_exchange(data, today=TODAY)  # type: ignore[arg-type]
        assert not read.report.ok


def test_the_documented_example_is_a_valid_tournament():
    page = (SCHEMA_PATH.parents[1] / "exchange.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)\n```", page, re.S)[1]
    document = json.loads(example)
    Draft202012Validator(schema()).validate(document)
    read = read_exchange(example.encode(), today=TODAY)
    assert read.report.errors == [] and len(read.games) == 4
    assert document_of(read)["games"][3]["free"] is True


def test_the_schema_with_its_references_written_out_gives_the_same_verdicts():
    from rules.exchange.reader import _validator

    plain = Draft202012Validator(schema())
    good = valid_document()
    bad = valid_document()
    bad["players"][0].update(id="N0", country="FRA", club=3, penalty=-1)
    bad["games"][0].update(a=True, b="n7", a_losses=101)
    bad["tournament"].update(name=" ", start="16/03/2024", referee=None, rating_system="chess")
    for document in (good, bad):
        def verdicts(validator, document=document):
            return sorted((list(e.absolute_path), e.validator) for e in validator.iter_errors(document))

        assert verdicts(_validator()) == verdicts(plain)
    assert len(list(plain.iter_errors(bad))) == 9
