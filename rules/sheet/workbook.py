"""Opening a result sheet's workbook with openpyxl, read-only, values only: the one module that reaches into
openpyxl's internals. openpyxl is pinned below 3.2 for them (pyproject.toml), and tests/sheets/test_workbook.py
fails if an upgrade moves them.

Terms
-----
declared size
    The <dimension ref="A1:I12"/> element a worksheet may carry. It may lie either way, so the readers never use
    it (rules.sheet.rows resets it); openpyxl's own write-only mode writes none.
unsized worksheet
    openpyxl's read-only worksheet, opened without looking for its declared size. openpyxl's public
    load_workbook(read_only=True) looks for it in each worksheet's constructor, and without <dimension> that
    search parses the worksheet's XML whole: with openpyxl 3.1.5, 0.7 s for a sheet at the guard's 100,000-row
    limit, once per worksheet, whether anything reads it or not (six such unread sheets in a 4.5 MB file: 4.2 s
    instead of 0.5 s). Public openpyxl has no way to skip it, hence the hook: a subclass whose size search does
    nothing, and a reader that opens worksheets as that subclass.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import openpyxl.xml
from openpyxl.reader.excel import ExcelReader
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

# openpyxl parses with defusedxml only when it is installed; without it an entity bomb would reach the stdlib
# parser. Failing at import makes a broken deployment loud instead of silently unsafe.
if not openpyxl.xml.DEFUSEDXML:  # pragma: no cover - depends on the environment
    raise RuntimeError("rules.sheet needs defusedxml installed (and OPENPYXL_DEFUSEDXML not False)")


def open_workbook(data: bytes) -> Any:
    """What load_workbook(read_only=True, data_only=True, keep_links=False) gives, worksheets unsized and
    chartsheets left out. The caller closes it."""
    reader = _SheetReader(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    reader.read()
    return reader.wb


def worksheets(workbook: Any) -> Iterator[tuple[str, Any]]:
    """(title, worksheet) of each worksheet of an opened workbook, in the workbook's order."""
    for title in workbook.sheetnames:
        worksheet = workbook[title]
        if isinstance(worksheet, ReadOnlyWorksheet):
            yield title, worksheet


class _UnsizedWorksheet(ReadOnlyWorksheet):
    """openpyxl's read-only worksheet, minus the search for its declared size on opening (see unsized
    worksheet above). The declared size is never used here anyway."""

    def _get_size(self) -> None:
        return None


class _SheetReader(ExcelReader):
    """openpyxl's reader, opening worksheets as _UnsizedWorksheet: its read_worksheets, read-only branch.
    Chartsheets are left out: the readers never need them."""

    def read_worksheets(self) -> None:
        for sheet, rel in self.parser.find_sheets():
            if rel.target not in self.valid_files or "chartsheet" in rel.Type:
                continue
            worksheet = _UnsizedWorksheet(self.wb, sheet.name, rel.target, self.shared_strings)
            worksheet.sheet_state = sheet.state
            self.wb._sheets.append(worksheet)
