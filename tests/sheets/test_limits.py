"""The format's limits (RESULT_SHEET.md): cells and rows of a worksheet, text lengths, texts a spreadsheet would
run as formulas, macro-enabled workbooks, and a report that keeps the first 500 errors.

Bounds on time and memory have room (tests/bounds.py measures them): CPU time under 10 s where the refused file
takes milliseconds on this machine, and the memory the reading adds under 300 MB where the file, read cell by cell,
took 1.3 GB.
"""

from __future__ import annotations

import io
import random
import re
import time
import zipfile

import pytest

from adlg_site.words import words_in
from rules.sheet.checks import game_faults, text_faults
from rules.sheet.format import MAX_BYTES, MAX_CELLS, MAX_UNCOMPRESSED, REPORT_LIMIT, TEXT_LIMITS
from rules.sheet.reader import read_sheet
from tests.bounds import cpu_and_peak
from tests.sheets.builders import TODAY, SheetBuilder, assert_issue, issues_of

SECONDS = 10.0
PEAK_BYTES = 300 * 1024 * 1024
PLAYERS_PART = "xl/worksheets/sheet2.xml"


def _measured(data: bytes):
    return cpu_and_peak(lambda: read_sheet(data, today=TODAY))


def _with_players_xml(extra_rows: str | None = None, *, cells: int = 0, prefix: str = "", after: str = "") -> bytes:
    """The valid workbook whose Players sheet gets, below its players, one row of `cells` cells (random small
    numbers, without coordinates, as the reported file had) and/or the XML given; streamed in chunks."""
    valid = SheetBuilder.valid().build()
    source = zipfile.ZipFile(io.BytesIO(valid))
    original = source.read(PLAYERS_PART).decode()
    if prefix:  # the same sheet with every element of the spreadsheet namespace prefixed
        original = original.replace('xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"',
                                    f'xmlns:{prefix}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"')
        original = re.sub(r"<(/?)(?!\?)([A-Za-z]+)([\s>/])", rf"<\1{prefix}:\2\3", original)
    p = f"{prefix}:" if prefix else ""
    head, tail = original.split(f"</{p}sheetData>")
    rng = random.Random(21)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != PLAYERS_PART:
                target.writestr(info.filename, source.read(info))
        with target.open(PLAYERS_PART, "w", force_zip64=True) as part:
            part.write(head.encode())
            if cells:
                part.write(f'<{p}row r="30">'.encode())
                for start in range(0, cells, 50_000):
                    part.write("".join(f"<{p}c><{p}v>{rng.randrange(100)}</{p}v></{p}c>"
                                       for _ in range(min(50_000, cells - start))).encode())
                part.write(f"</{p}row>".encode())
            if extra_rows:
                part.write(extra_rows.encode())
            part.write((f"</{p}sheetData>" + after + tail).encode())
    return out.getvalue()


# -- cells and rows


def test_it_refuses_millions_of_cells_on_one_row_quickly_and_in_bounded_memory():
    data = _with_players_xml(cells=2_300_000)
    assert len(data) < MAX_BYTES  # about 3.4 MB: it passes the size and compression guards
    parsed, elapsed, peak = _measured(data)
    assert [issue.code for issue in parsed.report.errors] == ["too_many_cells"]
    assert elapsed < SECONDS and peak < PEAK_BYTES
    assert_issue(
        parsed.report,
        code="too_many_cells",
        sheet="",
        cell="",
        en="The sheet Players holds more than 100000 cells (counted "
        f"{parsed.report.errors[0].params['count']} before stopping), the most a sheet of a result sheet may "
        "hold, so the file is refused. Delete what lies outside the results, or copy your results into the "
        "official result sheet and send that.",
    )


def test_it_counts_cells_whatever_prefix_the_xml_gives_them():
    data = _with_players_xml(cells=MAX_CELLS + 10, prefix="x")
    assert [issue.code for issue in read_sheet(data, today=TODAY).report.errors] == ["too_many_cells"]


def test_the_prefixed_sheet_itself_is_read_like_any_other():
    parsed = read_sheet(_with_players_xml(prefix="x"), today=TODAY)
    assert parsed.report.ok and len(parsed.players) == 10


def test_it_reads_a_sheet_just_under_the_cell_limit():
    parsed = read_sheet(_with_players_xml(cells=MAX_CELLS - 200), today=TODAY)
    # Read, not refused: the row's first cells are a player's (a bad one), the others past the columns read.
    assert not parsed.report.refused and len(parsed.players) == 11, parsed.report.as_dict()


def test_it_counts_every_cell_of_a_merged_range():
    # One tag, 17 billion cells: openpyxl's normal mode would create each of them to annotate the copy.
    data = _with_players_xml(after='<mergeCells count="1"><mergeCell ref="A40:XFD1048576"/></mergeCells>')
    parsed, elapsed, _ = _measured(data)
    assert [issue.code for issue in parsed.report.errors] == ["too_many_cells"]
    assert elapsed < SECONDS


def test_it_refuses_a_worksheet_of_too_many_rows():
    rows = "".join(f'<row r="{number}" ht="20" customHeight="1"/>' for number in range(40, 140_000))
    parsed = read_sheet(_with_players_xml(rows), today=TODAY)
    assert_issue(
        parsed.report,
        code="too_many_rows",
        sheet="",
        cell="",
        en="The sheet Players holds more than 100000 rows (counted "
        f"{issues_of(parsed.report, 'too_many_rows')[0].params['count']} before stopping), the most a sheet "
        "of a result sheet may hold, so the file is refused. Delete the rows below the results, or copy your "
        "results into the official result sheet and send that.",
    )


def test_it_counts_the_cells_of_a_sheet_the_reader_never_reads():
    builder = SheetBuilder.valid()
    builder.extra_sheets["Notes"] = [[number % 7 for number in range(100)] for _ in range(1_010)]
    parsed = read_sheet(builder.build(), today=TODAY)
    assert [issue.code for issue in parsed.report.errors] == ["too_many_cells"]
    assert parsed.report.errors[0].params["sheet"] == "Notes"


def test_the_uncompressed_limit_still_bounds_what_is_counted():
    assert MAX_UNCOMPRESSED == 50 * 1024 * 1024


# -- macros


def _with_parts(add: dict[str, bytes], *, content_types: bytes | None = None) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(SheetBuilder.valid().build()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename == "[Content_Types].xml" and content_types is not None:
                content = content_types
            target.writestr(info.filename, content)
        for name, content in add.items():
            target.writestr(name, content)
    return out.getvalue()


def test_it_refuses_a_macro_enabled_workbook_renamed_xlsx():
    parsed = read_sheet(_with_parts({"xl/vbaProject.bin": b"\xd0\xcf\x11\xe0" + bytes(512)}), today=TODAY)
    assert_issue(
        parsed.report,
        code="macro_enabled",
        sheet="",
        cell="",
        en="The file is a macro-enabled workbook (.xlsm) renamed .xlsx, and the site accepts no macros. Open "
        'it in Excel or LibreOffice, save it as "Excel Workbook (.xlsx)" and send it again.',
    )


def test_it_refuses_a_workbook_declared_macro_enabled():
    source = zipfile.ZipFile(io.BytesIO(SheetBuilder.valid().build()))
    types = source.read("[Content_Types].xml").replace(
        b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
        b"application/vnd.ms-excel.sheet.macroEnabled.main+xml",
    )
    parsed = read_sheet(_with_parts({}, content_types=types), today=TODAY)
    assert [issue.code for issue in parsed.report.errors] == ["macro_enabled"]


# -- text lengths


@pytest.mark.parametrize(
    ("label", "key"),
    [("Name", "name"), ("City", "city"), ("Referee", "referee"), ("Organising club", "organising_club")],
)
def test_it_refuses_an_over_long_tournament_text_at_its_cell(label, key):
    builder = SheetBuilder.valid().set(label, "x" * (TEXT_LIMITS[key] + 1))
    [issue] = issues_of(builder.read().report, "text_too_long")
    assert (issue.sheet, issue.cell) == ("Tournament", builder.tournament_cell(label))
    assert issue.params == {"field": label, "length": TEXT_LIMITS[key] + 1, "limit": TEXT_LIMITS[key]}


@pytest.mark.parametrize(
    ("header", "key"),
    [("Last name", "last_name"), ("First name", "first_name"), ("Club", "club"), ("Pool", "pool"),
     ("Army", "army"), ("Penalty reason", "penalty_reason")],
)
def test_it_refuses_an_over_long_player_text_at_its_cell(header, key):
    builder = SheetBuilder.valid().set_player(104, header, "y" * (TEXT_LIMITS[key] + 1))
    [issue] = issues_of(builder.read().report, "text_too_long")
    assert (issue.sheet, issue.cell) == ("Players", builder.player_cell(104, header))


def test_it_keeps_a_text_of_exactly_the_limit():
    builder = SheetBuilder.valid().set_player(104, "Last name", "z" * TEXT_LIMITS["last_name"])
    assert builder.read().report.ok


def test_an_over_long_name_says_how_long_and_what_the_limit_is():
    builder = SheetBuilder.valid().set_player("N1", "Last name", "L" * 95)
    assert_issue(
        builder.read().report,
        code="text_too_long",
        sheet="Players",
        cell=builder.player_cell("N1", "Last name"),
        en='"Last name" is 95 characters long, more than the 80 the site keeps. Shorten it.',
    )


def test_the_limits_are_those_of_the_database():
    from players.models import Club, Player
    from tournaments.models import Registration, Tournament

    fields = {
        "name": Tournament._meta.get_field("name"),
        "city": Tournament._meta.get_field("city"),
        "referee": Tournament._meta.get_field("referee_name"),
        "organising_club": Club._meta.get_field("name"),
        "last_name": Player._meta.get_field("last_name"),
        "first_name": Player._meta.get_field("first_name"),
        "club": Club._meta.get_field("name"),
        "pool": Registration._meta.get_field("pool"),
        "army": Registration._meta.get_field("army"),
        "penalty_reason": Registration._meta.get_field("penalty_reason"),
    }
    assert {key: field.max_length for key, field in fields.items()} == TEXT_LIMITS


# -- formulas


@pytest.mark.parametrize(
    ("header", "text"),
    [
        ("Last name", '=HYPERLINK("http://evil.example/","Martin")'),
        ("First name", "=cmd|' /C calc'!A0"),
        ("Club", "=1+2"),
        ("Army", "+Romans"),
        ("Penalty reason", "@SUM(1,2)"),
        ("Pool", "-A"),
    ],
)
def test_it_refuses_a_player_text_a_spreadsheet_would_run(header, text):
    builder = SheetBuilder.valid().set_player(104, header, text)
    if header == "Penalty reason":
        builder.set_player(104, "Penalty", 10)
    [issue] = issues_of(builder.read().report, "formula_text")
    assert (issue.sheet, issue.cell) == ("Players", builder.player_cell(104, header))
    assert issue.params["start"] == text[0]


def test_a_formula_name_says_what_to_remove():
    builder = SheetBuilder.valid().set_player("N2", "Club", "=1+2")
    assert_issue(
        builder.read().report,
        code="formula_text",
        sheet="Players",
        cell=builder.player_cell("N2", "Club"),
        en='"Club" is "=1+2": it starts with =, so a spreadsheet would run it as a formula when the site '
        "exports it. Remove the = at the start.",
    )


@pytest.mark.parametrize("label", ["Name", "City", "Referee", "Organising club"])
def test_it_refuses_a_tournament_text_a_spreadsheet_would_run(label):
    builder = SheetBuilder.valid().set(label, "=2+3")
    [issue] = issues_of(builder.read().report, "formula_text")
    assert (issue.sheet, issue.cell) == ("Tournament", builder.tournament_cell(label))


def test_a_hyphen_inside_a_name_is_fine():
    builder = SheetBuilder.valid().set_player(104, "Last name", "Smith-Jones").set_player(104, "Club", "A+B")
    assert builder.read().report.ok


# -- the shared rules the admin calls too


def test_text_faults_find_length_and_formula_at_once():
    faults = text_faults(key="last_name", label="Last name", text="=" + "x" * 90)
    assert [fault.code for fault in faults] == ["text_too_long", "formula_text"]
    assert text_faults(key="last_name", label="Last name", text="Martin") == []


def test_game_faults_find_what_the_sheet_check_finds():
    faults = game_faults(system="adlg", a=101, b=101, result="A+", a_losses=None, b_losses=130, round_number=4,
                         rounds=3, free=True)
    assert [(fault.field, fault.code) for fault in faults] == [
        ("b", "player_against_himself"),
        ("result", "unknown_result"),
        ("b_losses", "out_of_range"),
        ("round", "round_out_of_range"),
        ("free", "free_game_not_last_round"),
    ]
    assert game_faults(system="adlg", a=101, b=102, result="A", a_losses=10, b_losses=40, round_number=3,
                       rounds=3, free=True) == []


# -- the report's length


def _errors_workbook(bad_rows: int) -> bytes:
    builder = SheetBuilder.valid()
    for number in range(bad_rows):
        # Eight errors a row: round, table, both players, result, both losses, free game.
        builder.add_game(["x", "t", "p?", "q?", "W", "lots", "many", "perhaps"])
        del number
    return builder.build()


def test_the_report_keeps_the_first_500_errors_and_says_how_many_more():
    parsed = read_sheet(_errors_workbook(1_000), today=TODAY)
    report = parsed.report
    assert len(report.errors) == REPORT_LIMIT
    assert report.error_count == 8_000 and report.more_errors == 7_500
    rows = [(int(re.sub(r"\D", "", issue.cell)), issue.cell) for issue in report.errors]
    assert rows == sorted(rows, key=lambda r: r[0]) and rows[0][0] == 17  # reading order: the first ones
    listed = report.as_dict()["errors"]
    assert len(listed) == REPORT_LIMIT + 1
    assert_issue_line = listed[-1]
    assert assert_issue_line == {
        "sheet": "",
        "cell": "",
        "code": "more_errors",
        "message": "…and 7500 more errors, not listed: the report lists the first 500. Correct these, then send "
        "the sheet again to see the others.",
    }
    assert report.as_dict(words_in("fr"))["errors"][-1]["message"].startswith("…et 7500 autres erreurs")


def test_the_more_lines_have_messages_in_both_languages():
    report = read_sheet(_errors_workbook(100), today=TODAY).report
    report.more_errors, report.more_warnings = 3, 4
    more_errors, more_warnings = report.summaries()
    assert_issue_report = type(report)(errors=[more_errors], warnings=[more_warnings])
    assert_issue(assert_issue_report, code="more_errors", sheet="", cell="",
                 en="…and 3 more errors, not listed: the report lists the first 500. Correct these, then send "
                 "the sheet again to see the others.")
    assert_issue(assert_issue_report, code="more_warnings", sheet="", cell="", severity="warning",
                 en="…and 4 more warnings, not listed: the report lists the first 500.")


def test_reading_a_sheet_full_of_errors_grows_linearly():
    def seconds(rows: int) -> float:
        data = _errors_workbook(rows)
        best = float("inf")
        for _ in range(2):
            start = time.process_time()
            read_sheet(data, today=TODAY)
            best = min(best, time.process_time() - start)
        return best

    small, large = seconds(1_000), seconds(9_980)
    # Ten times the rows: about ten times the time; a quadratic report would take a hundred.
    assert large / small < 25
