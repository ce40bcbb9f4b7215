"""CSV files that people open in a spreadsheet, written as their language's spreadsheet reads them.

A French Excel or LibreOffice splits a CSV on semicolons and reads 23,5 as a number (the comma is its decimal
separator); an English one splits on commas and reads 23.5. The delimiter is the active language's CSV_DELIMITER
(adlg_site/formats/<language>/formats.py) and decimals are written by Django's l10n, so no code tests the language.

The machine exports of COMMANDS.md (the export_* commands, adlg_site.command_output) are not written here: scripts
read them, comma-separated with a decimal point, whatever the language.
"""

from __future__ import annotations

import csv
from decimal import Decimal

from django.utils.formats import get_format, number_format


def csv_writer(stream):
    return csv.writer(stream, delimiter=get_format("CSV_DELIMITER"))


def localised_row(row) -> list:
    """Decimals as the language writes them (23,5 in French); whole numbers and texts as they are."""
    return [number_format(value) if isinstance(value, (float, Decimal)) else value for value in row]
