"""CSV for people in their language's spreadsheet (semicolons and a decimal comma in French), CSV for scripts as
COMMANDS.md writes it (commas and a decimal point, whatever the language)."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.utils import translation

from adlg_site.command_output import write_table
from adlg_site.csv_export import csv_writer, localised_row


@pytest.mark.parametrize("language,line", [
    ("en", "Dupont,1150,23.5,-3.25,Knight\r\n"),
    ("fr", "Dupont;1150;23,5;-3,25;Knight\r\n"),
])
def test_a_csv_for_people_follows_the_language(language, line):
    stream = io.StringIO()
    with translation.override(language):
        csv_writer(stream).writerow(localised_row(["Dupont", 1150, 23.5, Decimal("-3.25"), "Knight"]))
    assert stream.getvalue() == line


def test_a_french_decimal_with_a_comma_is_quoted_in_an_english_csv_never_split():
    stream = io.StringIO()
    with translation.override("en"):
        csv_writer(stream).writerow(["Smith, John", 2.5])
    assert stream.getvalue() == '"Smith, John",2.5\r\n'


def test_the_machine_exports_stay_comma_separated_with_a_point_in_french():
    stream = io.StringIO()
    with translation.override("fr"):
        write_table(stream, columns=["rank", "id", "total"], rows=[[1, 101, Decimal("23.50")]], fmt="csv")
    assert stream.getvalue() == "rank,id,total\n1,101,23.50\n"
