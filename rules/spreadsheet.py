"""Text that a spreadsheet would run as a formula, and how the site's CSV and Excel files keep it text.

Terms:
- *formula start*: a text's first character that makes Excel, LibreOffice or Google Sheets read the cell as a
  formula when a CSV is opened or a cell is edited: ``=``, ``+``, ``-``, ``@``, and tab or carriage return
  (which some of them skip before looking at the next character). A name like ``=HYPERLINK(...)`` or
  ``=cmd|' /C calc'!A0`` would run on the board's machine.
- *neutralised*: such a text with an apostrophe in front, which spreadsheets show as the text itself and never
  run (OWASP's advice for CSV injection). Numbers are left as they are: only text is ever a formula.

The result sheet refuses such text on the way in (RESULT_SHEET.md); every export neutralises it on the way
out, whatever is already stored.
"""

from __future__ import annotations

from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def runs_as_formula(text: str) -> bool:
    return text.startswith(FORMULA_STARTS)


def neutralised(value: object) -> object:
    """The value as a spreadsheet must receive it: a text that would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and runs_as_formula(value):
        return "'" + value
    return value


def neutralised_row(row: Iterable[object]) -> list[object]:
    return [neutralised(value) for value in row]
