"""The annotated copy of a faulty sheet: faulty cells marked, messages as comments, a Report sheet first."""

from __future__ import annotations

import io
import time

import pytest
from openpyxl import load_workbook

from adlg_site.words import words_in
from rules.sheet.reader import read_sheet
from rules.sheet.report import Issue, Report
from tests.bounds import cpu_and_peak
from tests.sheets.builders import TODAY, SheetBuilder, streamed_players_sheet
from tournaments.sheets.annotate import annotate_workbook


def faulty() -> tuple[bytes, Report]:
    builder = SheetBuilder.valid().set("Country", "UK").set_game(0, "Player B", 101)
    builder.add_player([109, "Late", "Lou", "Beta", "FR"])  # a warning: no game
    data = builder.build()
    return data, read_sheet(data, today=TODAY).report


def test_it_marks_each_faulty_cell_with_its_message():
    data, report = faulty()
    workbook = load_workbook(io.BytesIO(annotate_workbook(data, report)))
    country = workbook["Tournament"]["B8"]
    assert country.comment.text == report.errors[0].message()
    assert country.fill.start_color.rgb == "00FFC7CE"  # red: an error
    assert country.value == "UK"  # the referee's value stays
    himself = workbook["Games"]["D2"]
    assert himself.comment.text == "Paul Martin (101) is paired against himself. Correct Player A or Player B."
    late = workbook["Players"]["A12"]
    assert late.fill.start_color.rgb == "00FFEB9C"  # yellow: a warning only
    assert late.comment.text.startswith("Lou Late (109) is registered but plays no game.")
    assert workbook["Games"]["C2"].comment is None


def test_it_lists_every_issue_first_with_links_to_the_cells():
    data, report = faulty()
    workbook = load_workbook(io.BytesIO(annotate_workbook(data, report)))
    assert workbook.sheetnames[0] == "Report" and workbook.active.title == "Report"
    sheet = workbook["Report"]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=3, max_col=4)]
    assert [(row[0], row[1], row[2]) for row in rows] == [
        ("error", "Tournament", "B8"),
        ("error", "Games", "D2"),
        ("warning", "Players", "A12"),
    ]
    assert rows[1][3] == "Paul Martin (101) is paired against himself. Correct Player A or Player B."
    assert sheet["C3"].hyperlink.location == "'Tournament'!B8"
    assert sheet["C4"].hyperlink.location == "'Games'!D2"


def test_it_writes_the_copy_in_french():
    data, report = faulty()
    workbook = load_workbook(io.BytesIO(annotate_workbook(data, report, lang="fr")))
    assert workbook["Games"]["D2"].comment.text == report.errors[1].message(words_in("fr"))
    assert workbook["Report"]["A3"].value == "erreur" and workbook["Report"]["D2"].value == "Message"


def test_it_joins_the_messages_of_one_cell():
    data, _ = faulty()
    report = Report(
        errors=[
            Issue(code="spare_against_spare", sheet="Games", cell="D2"),
            Issue(code="player_against_himself", sheet="Games", cell="D2", params={"key": "101"}),
        ]
    )
    comment = load_workbook(io.BytesIO(annotate_workbook(data, report)))["Games"]["D2"].comment.text
    assert comment.split("\n\n") == [issue.message() for issue in report.errors]


def test_it_finds_the_sheets_whatever_their_case_and_lists_issues_without_a_cell():
    builder = SheetBuilder.valid().set("Official", "no")
    builder.titles = {"Tournament": " tournament ", "Players": "Players", "Games": None}
    data = builder.build()
    report = read_sheet(data, today=TODAY).report
    workbook = load_workbook(io.BytesIO(annotate_workbook(data, report)))
    assert workbook.sheetnames == ["Report", " tournament ", "Players"]
    sheet = workbook["Report"]
    assert (sheet["B3"].value, sheet["C3"].value, sheet["C3"].hyperlink) == ("Games", None, None)


def test_it_keeps_a_referees_own_report_sheet():
    builder = SheetBuilder.valid().set("Country", "UK")
    builder.extra_sheets["Report"] = [["my notes"]]
    data = builder.build()
    workbook = load_workbook(io.BytesIO(annotate_workbook(data, read_sheet(data, today=TODAY).report)))
    assert (
        workbook.sheetnames[:2] == ["Report 2", "Tournament"] and workbook["Report"]["A1"].value == "my notes"
    )


def test_it_refuses_to_annotate_a_refused_file():
    report = read_sheet(b"not a workbook", today=TODAY).report
    assert annotate_workbook(b"not a workbook", report) is None


def test_it_runs_the_guard_itself_whatever_report_it_is_given():
    bomb_like = b"PK" + bytes(6 * 1024 * 1024)
    assert annotate_workbook(bomb_like, Report()) is None


def test_it_does_not_load_a_sheet_padded_with_a_million_rows():
    data = streamed_players_sheet(1_000_000, junk_column="Z")
    report = read_sheet(data, today=TODAY).report
    assert [issue.code for issue in report.errors] == ["too_many_cells"]  # refused before anything parses it
    start = time.process_time()
    assert annotate_workbook(data, report) is None
    assert time.process_time() - start < 5


def _with_extra_sheets(sheets: int, cells: int) -> bytes:
    builder = SheetBuilder.valid()
    width = 100
    for number in range(sheets):
        builder.extra_sheets[f"Notes {number}"] = [
            [f"note {row}-{column} " + "x" * 40 for column in range(width)] for row in range(cells // width)
        ]
    return builder.build()


@pytest.mark.slow
def test_an_extra_worksheet_under_the_limit_is_annotated_in_bounded_time_and_memory():
    data = _with_extra_sheets(1, 99_000)
    report = read_sheet(data, today=TODAY).report
    assert report.ok
    annotated, elapsed, peak = cpu_and_peak(lambda: annotate_workbook(data, report))
    assert annotated is not None
    assert elapsed < 30 and peak < 300 * 1024 * 1024  # 15 s and 644 MB for the reported 19.5 MB sheet


def test_a_workbook_of_many_full_worksheets_gets_no_copy():
    data = _with_extra_sheets(3, 99_000)
    report = read_sheet(data, today=TODAY).report
    assert report.ok  # each sheet is under the limit
    start = time.process_time()
    assert annotate_workbook(data, report) is None
    assert time.process_time() - start < 10
