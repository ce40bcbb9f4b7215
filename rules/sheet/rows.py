"""The rows of a worksheet as the sheet readers take them, whatever size the sheet declares or holds.

Terms
-----
blank row
    A row with nothing in the columns read: a value only in a column nobody reads leaves it blank.
end of a sheet
    BLANK_RUN blank rows in a row. Nothing past it is read, so a sheet of a million rows costs no more than the
    rows a referee filled in (real sheets never have 50 blank rows in a row).
header row
    Row 1 of Players and Games: the 1-based column of each known header, by key; unknown headers are the
    referee's business.
record
    A row of Players or Games past the header row that is not blank, as {key: value} by the header row's
    columns. Both sheets are walked by the one generator, `records`, which also refuses a sheet past its row
    limit (MAX_PLAYERS, MAX_GAMES).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from openpyxl.utils.cell import get_column_letter

from rules.sheet.format import BLANK_RUN, MAX_COLUMNS, header_of
from rules.sheet.guard import Refused, refusal
from rules.sheet.reading import Reading
from rules.sheet.values import header_key, is_blank


def header_columns(
    reading: Reading, worksheet: Any, *, sheet: str, spec: Sequence[tuple[str, str, bool]], required: set[str],
    aliases: dict[str, str],
) -> dict[str, int]:
    """The 1-based column of each known header of row 1 (its English name or its alias); reports missing and
    duplicated headers."""
    index = {header_key(header): key for key, header, _ in spec} | {header_key(h): k for k, h in aliases.items()}
    header_row = next(iter(raw_rows(worksheet, min_row=1, max_row=1, max_col=MAX_COLUMNS)), ())
    columns: dict[str, int] = {}
    for position, value in enumerate(header_row, start=1):
        key = index.get(header_key(value))
        if key is None:
            continue
        if key in columns:
            first = f"{get_column_letter(columns[key])}1"
            reading.error(
                "duplicate_column",
                sheet,
                f"{get_column_letter(position)}1",
                sheet=sheet,
                column=header_of(spec, key),
                first_cell=first,
            )
            continue
        columns[key] = position
    for position, (key, header, _) in enumerate(spec, start=1):
        if key in required and key not in columns:
            reading.error(
                "missing_column", sheet, f"{get_column_letter(position)}1", sheet=sheet, column=header
            )
    return columns


def records(worksheet: Any, columns: dict[str, int], *, limit: int, too_many: str
            ) -> Iterator[tuple[int, dict[str, Any]]]:
    """(row number, {key: value}) of a Players or Games row that is not blank, `columns` giving each key's
    1-based position; refused as `too_many` past `limit` rows."""
    found = rows(worksheet, min_row=2, max_col=max(columns.values()), columns=[c - 1 for c in columns.values()])
    for count, (number, values) in enumerate(found, start=1):
        if count > limit:
            raise Refused(refusal(too_many, limit=limit))
        yield number, {key: values[position - 1] for key, position in columns.items()}


def rows(
    worksheet: Any, *, min_row: int, max_col: int, columns: Sequence[int]
) -> Iterator[tuple[int, tuple]]:
    """(row number, values) of the rows not blank in the given 0-based columns, from min_row to the end of the
    sheet."""
    blank_run = 0
    raw = raw_rows(worksheet, min_row=min_row, max_row=None, max_col=max_col)
    for number, values in enumerate(raw, start=min_row):
        if all(is_blank(values[c]) for c in columns if c < len(values)):
            blank_run += 1
            if blank_run >= BLANK_RUN:
                return
            continue
        blank_run = 0
        yield number, values


def raw_rows(worksheet: Any, *, min_row: int, max_row: int | None, max_col: int) -> Iterator[tuple]:
    # The declared dimension is ignored (reset) because it may lie either way: too small hides rows, too big
    # (A1:XFD1048576) would make openpyxl pad every row to 16,384 cells. max_col bounds the width instead.
    worksheet.reset_dimensions()
    return worksheet.iter_rows(min_row=min_row, max_row=max_row, min_col=1, max_col=max_col, values_only=True)
