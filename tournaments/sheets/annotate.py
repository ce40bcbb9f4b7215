"""Writes a copy of a faulty result sheet with its problems marked, for the referee to correct.

Terms:
- *annotated copy*: the referee's own workbook, unchanged but for the marks: each faulty cell filled red (an
  error) or yellow (a warning only) with the message as a cell comment, and a first sheet ``Report`` that
  lists every issue with a link to its cell. The referee corrects the copy and uploads it again.
- *issue without a cell*: a missing sheet, or a charter condition about the whole tournament: listed in
  ``Report`` only.

Only a file that passed the guard of rules.sheet is opened, in openpyxl's normal mode (which loads the
whole workbook): a refused file (not a workbook, a bomb, over a limit) gets no copy, nor does one whose
worksheets are too big to load whole (MAX_WORKSHEETS, MAX_CELLS). The work is linear in the file and the
report: the report holds at most REPORT_LIMIT issues of each severity, and every row is written once.
"""

from __future__ import annotations

import io
import warnings
import zipfile

from django.utils import translation
from django.utils.translation import pgettext
from openpyxl import load_workbook
from openpyxl.cell.cell import MergedCell
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.hyperlink import Hyperlink

from adlg_site.words import language
from rules.sheet.format import MAX_BYTES, SHEETS, sheet_titles
from rules.sheet.guard import guard, workbook_cells
from rules.sheet.report import Issue, Report

# Normal mode builds an object per cell, a few times the XML's size in memory. The reader stops at 50 blank
# rows, so a sheet padded with a million junk rows reads fine but must not be loaded whole here. A real result
# sheet's worksheets are a few MB (the template's Standings sheet, saved with its values, about 4 MB).
MAX_WORKSHEETS = 20 * 1024 * 1024
# Each worksheet passed the guard's 100,000 cells, but a workbook of many such sheets would still take gigabytes
# loaded whole (openpyxl keeps an object per cell): the copy is made for workbooks up to this many in all, a few
# times what a result sheet with its template's Standings holds (about 20,000).
MAX_CELLS = 250_000

ERROR_FILL = PatternFill("solid", start_color="FFC7CE")
WARNING_FILL = PatternFill("solid", start_color="FFEB9C")


def _titles() -> tuple[str, ...]:
    """The Report sheet's words in the active language, from the catalogue: the column headers, the two
    severities, the heading."""
    return (pgettext("annotated workbook", "Severity"), pgettext("annotated workbook", "Sheet"),
            pgettext("annotated workbook", "Cell"), pgettext("annotated workbook", "Message"),
            pgettext("annotated workbook", "error"), pgettext("annotated workbook", "warning"),
            pgettext("annotated workbook", "Result sheet report"))


def annotate_workbook(data: bytes, report: Report, *, lang: str | None = None) -> bytes | None:
    """The annotated copy of the workbook `data` whose report is `report`, worded in the language `lang` (one of
    the site's, adlg_site.words.language; the active one by default), or None when the file was refused (the
    guard is run again, so a caller cannot open a bomb by passing the wrong report)."""
    if (
        report.refused
        or guard(data, max_bytes=MAX_BYTES) is not None
        or _worksheets_size(data) > MAX_WORKSHEETS
        or workbook_cells(data, stop_after=MAX_CELLS) > MAX_CELLS
    ):
        return None
    lang = language(lang)
    try:
        with warnings.catch_warnings(), translation.override(lang):
            warnings.simplefilter("ignore")
            workbook = load_workbook(io.BytesIO(data))
            _mark(workbook, report=report, lang=lang)
            buffer = io.BytesIO()
            workbook.save(buffer)
    except Exception:
        # The file passed the guard but openpyxl cannot rewrite it: the report on the page still stands.
        return None
    return buffer.getvalue()


def _worksheets_size(data: bytes) -> int:
    """The declared uncompressed size of the worksheets (the guard has checked the zip already)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return sum(
            info.file_size for info in archive.infolist() if info.filename.startswith("xl/worksheets/")
        )


def _mark(workbook: Workbook, *, report: Report, lang: str) -> None:
    titles = {title.strip().casefold(): title for title in workbook.sheetnames}
    by_cell: dict[tuple[str, str], list[Issue]] = {}
    for issue in report.issues():
        # An issue names the sheet in English (the report's contract); the workbook may call it Joueurs.
        title = next((titles[t.casefold()] for t in sheet_titles(issue.sheet) if t.casefold() in titles), None) \
            if issue.sheet in SHEETS else None
        if title is not None and issue.cell:
            by_cell.setdefault((title, issue.cell), []).append(issue)

    for (title, coordinate), issues in by_cell.items():
        cell = workbook[title][coordinate]
        if isinstance(cell, MergedCell):
            continue  # part of a merged range: it can hold neither fill nor comment; Report still lists it
        has_error = any(issue.severity == "error" for issue in issues)
        cell.fill = ERROR_FILL if has_error else WARNING_FILL
        text = "\n\n".join(issue.message(translation) for issue in issues)
        comment = Comment(text, "adlg-site")
        # Room for the sentence: the default box shows two lines.
        comment.width, comment.height = 320, 40 + 18 * (len(text) // 45 + 1)
        cell.comment = comment

    sheet = workbook.create_sheet(_free_title(workbook.sheetnames), 0)
    severity, sheet_title, cell_title, message_title, error, warning, heading = _titles()
    sheet.append([heading])
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append([severity, sheet_title, cell_title, message_title])
    for column in "ABCD":
        sheet[f"{column}2"].font = Font(bold=True)
    more_errors, more_warnings = report.summaries()
    listed = [*report.errors, *([more_errors] if more_errors else []), *report.warnings,
              *([more_warnings] if more_warnings else [])]
    # Rows counted here: the worksheet's max_row walks every cell, once per row that would make it quadratic.
    for row, issue in enumerate(listed, start=3):
        sheet.append(
            [error if issue.severity == "error" else warning, issue.sheet, issue.cell, issue.message(translation)]
        )
        sheet[f"A{row}"].fill = ERROR_FILL if issue.severity == "error" else WARNING_FILL
        title = titles.get(issue.sheet.casefold()) if issue.sheet else None
        if title is not None and issue.cell and _is_cell(issue.cell):
            link = sheet[f"C{row}"]
            link.hyperlink = Hyperlink(ref=link.coordinate, location=f"'{title}'!{issue.cell}")
            link.font = Font(color="0563C1", underline="single")
    sheet.column_dimensions["A"].width = 14
    sheet.column_dimensions["B"].width = 12
    sheet.column_dimensions["C"].width = 8
    sheet.column_dimensions["D"].width = 140
    sheet.freeze_panes = "A3"
    workbook.active = 0


def _free_title(existing: list[str]) -> str:
    taken = {title.casefold() for title in existing}
    title, number = "Report", 1
    while title.casefold() in taken:
        number += 1
        title = f"Report {number}"
    return title


def _is_cell(text: str) -> bool:
    try:
        coordinate_from_string(text)
    except ValueError:
        return False
    return True
