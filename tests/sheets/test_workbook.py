"""The openpyxl internals rules.sheet.workbook hooks into, for which openpyxl is pinned (pyproject.toml). An
upgrade that moves them must fail here, not quietly bring back a whole parse of every sheet without <dimension>
on opening, nor turn every upload into an "unreadable" refusal.
"""

import inspect
import io

import openpyxl
import pytest
from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.reader.excel import ExcelReader
from openpyxl.worksheet._read_only import ReadOnlyWorksheet
from openpyxl.worksheet._reader import WorkSheetParser

from rules.sheet.workbook import open_workbook, worksheets
from tests.sheets.builders import streamed_players_sheet


def test_the_internals_the_hook_relies_on_are_still_there():
    assert callable(getattr(ReadOnlyWorksheet, "_get_size", None))
    assert list(inspect.signature(ReadOnlyWorksheet.__init__).parameters) == [
        "self", "parent_workbook", "title", "worksheet_path", "shared_strings"
    ]
    assert callable(getattr(ExcelReader, "read_worksheets", None))
    reader = ExcelReader(io.BytesIO(streamed_players_sheet(1)), read_only=True, data_only=True, keep_links=False)
    reader.read()
    for name in ("parser", "valid_files", "shared_strings", "wb"):
        assert hasattr(reader, name), name
    assert callable(reader.parser.find_sheets)
    assert isinstance(reader.wb._sheets, list)
    reader.wb.close()


@pytest.fixture
def size_searches(monkeypatch):
    """Counts openpyxl's searches for a worksheet's declared size."""
    calls = []
    search = WorkSheetParser.parse_dimensions

    def counted(self):
        calls.append(1)
        return search(self)

    monkeypatch.setattr(WorkSheetParser, "parse_dimensions", counted)
    return calls


def test_opening_never_searches_a_worksheet_for_its_declared_size(size_searches):
    workbook = open_workbook(streamed_players_sheet(100, dimension=False))
    workbook.close()
    assert size_searches == []


def test_openpyxl_itself_still_searches_on_opening(size_searches):
    # When this fails, openpyxl no longer sizes read-only worksheets when it opens them: the hook may go, and
    # rules.sheet.workbook open with load_workbook(read_only=True, data_only=True, keep_links=False).
    workbook = openpyxl.load_workbook(io.BytesIO(streamed_players_sheet(100, dimension=False)), read_only=True)
    workbook.close()
    assert size_searches


def test_it_opens_the_worksheets_openpyxl_opens_and_leaves_out_chartsheets():
    source = Workbook()
    source.active.title = "Tournament"
    source.active.append(["Format", "adlg-result-sheet/1"])
    hidden = source.create_sheet("Notes")
    hidden.sheet_state = "hidden"
    hidden.append([1, 2, 3])
    chart = BarChart()
    chart.add_data(Reference(hidden, min_col=1, max_col=3, min_row=1))
    source.create_chartsheet("Chart").add_chart(chart)
    source.create_sheet(" players ").append(["ID", "Last name"])
    out = io.BytesIO()
    source.save(out)

    expected = openpyxl.load_workbook(io.BytesIO(out.getvalue()), read_only=True, data_only=True, keep_links=False)
    opened = open_workbook(out.getvalue())
    try:
        assert "Chart" in expected.sheetnames and "Chart" not in opened.sheetnames
        assert [title for title, _ in worksheets(opened)] == ["Tournament", "Notes", " players "]
        for title, worksheet in worksheets(opened):
            assert worksheet.sheet_state == expected[title].sheet_state
            assert list(worksheet.values) == list(expected[title].values)
    finally:
        expected.close()
        opened.close()
