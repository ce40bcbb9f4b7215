"""The value parsers, the country list and the message catalogue of the result-sheet reader."""

from __future__ import annotations

import re
import string
from datetime import date, datetime
from pathlib import Path

import openpyxl.xml
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adlg_site.words import words_in
from rules.sheet import messages
from rules.sheet.format import COUNTRY_CODES
from rules.sheet.report import Issue, Report
from rules.sheet.values import name_club_key, parse_boolean, parse_date, parse_player_key, parse_whole_number


def test_it_reads_xml_through_defusedxml():
    assert openpyxl.xml.DEFUSEDXML is True


@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_it_reads_a_whole_number_written_as_int_text_or_float_alike(n):
    assert parse_whole_number(n) == parse_whole_number(str(n)) == parse_whole_number(float(n)) == n
    assert parse_whole_number(f"  {n}  ") == parse_whole_number(f"{n}.0") == n


@given(st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not float(x).is_integer()))
def test_it_refuses_a_number_with_decimals(x):
    with pytest.raises(ValueError):
        parse_whole_number(x)
    with pytest.raises(ValueError):
        parse_whole_number(str(x))


@pytest.mark.parametrize(
    "value", [None, "", " ", True, False, "1.5", "1e3", "one", "1 000", datetime(2024, 1, 1)]
)
def test_it_refuses_what_is_not_a_whole_number(value):
    with pytest.raises(ValueError):
        parse_whole_number(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        *[(word, True) for word in ("yes", "Y", "oui", "TRUE", " True ", "1", "vrai")],
        *[(word, False) for word in ("no", "N", "Non", "false", "0", "faux")],
        (True, True),
        (False, False),
        (1, True),
        (0, False),
        (1.0, True),
    ],
)
def test_it_reads_booleans_in_both_languages_and_any_case(value, expected):
    assert parse_boolean(value) is expected


@pytest.mark.parametrize("value", ["maybe", "2", 2, "", None, "si"])
def test_it_refuses_what_is_not_a_boolean(value):
    with pytest.raises(ValueError):
        parse_boolean(value)


def test_it_reads_excel_dates_and_iso_text():
    assert parse_date(datetime(2024, 3, 16, 0, 0)) == date(2024, 3, 16)
    assert parse_date(date(2024, 3, 16)) == date(2024, 3, 16)
    assert parse_date(" 2024-03-16 ") == date(2024, 3, 16)
    assert parse_date("2024-03-16 00:00:00") == date(2024, 3, 16)


@pytest.mark.parametrize("value", ["16/03/2024", "2024-02-30", "2024/03/16", 45367, "march", None])
def test_it_refuses_what_is_not_a_date(value):
    with pytest.raises(ValueError):
        parse_date(value)


@pytest.mark.parametrize(
    ("value", "key"),
    [
        (123, "123"),
        ("123", "123"),
        (123.0, "123"),
        (" 99 ", "99"),
        ("N1", "N1"),
        ("n1", "N1"),
        (" N 01", "N1"),
    ],
)
def test_it_reads_player_keys(value, key):
    assert parse_player_key(value) == key


@pytest.mark.parametrize("value", ["N0", "N", "X1", 0, -4, "12.5", "N1.5", "abc"])
def test_it_refuses_what_is_not_a_player_key(value):
    with pytest.raises(ValueError):
        parse_player_key(value)


def test_it_embeds_the_249_iso_country_codes():
    assert len(COUNTRY_CODES) == 249
    assert all(len(code) == 2 and set(code) <= set(string.ascii_uppercase) for code in COUNTRY_CODES)
    assert {"FR", "GB", "ES", "IT", "BE", "DE", "US", "AX", "SS", "XK"} - COUNTRY_CODES == {"XK"}


def test_its_country_codes_are_the_sites_countries():
    from adlg_site.reference_data import fixture

    assert {row["pk"] for row in fixture("countries")} == COUNTRY_CODES


def test_it_keys_names_and_clubs_alike_whatever_the_case_and_spaces():
    assert name_club_key(last_name=" Dupont ", first_name="JEAN  Marc", club=None) == (
        "dupont",
        "jean marc",
        "",
    )
    assert name_club_key(last_name="Dupont", first_name="Jean", club="Les Aigles") == (
        "dupont",
        "jean",
        "les aigles",
    )


def test_every_message_exists_in_both_languages_with_the_same_params():
    french = words_in("fr")
    for code, english in messages.MESSAGES.items():
        fields = [{name for _, name, _, _ in string.Formatter().parse(t) if name}
                  for t in (english, french.gettext(english))]
        assert fields[0] == fields[1], code
        assert english != french.gettext(english), code
        assert english.rstrip().endswith("."), code


def test_it_falls_back_to_english_for_other_languages():
    issue = Issue(code="spare_against_spare", sheet="Games", cell="D4")
    assert issue.message(words_in("de")) == issue.message()
    assert issue.message(words_in("fr-FR")) == issue.message(words_in("fr")) != issue.message()
    assert issue.place == "Games!D4"


def test_a_report_lists_errors_and_warnings_by_language():
    report = Report()
    report.add(Issue(code="spare_against_spare", sheet="Games", cell="D4"))
    report.add(
        Issue(code="player_without_game", sheet="Players", cell="A3", params={"key": "7"}, severity="warning")
    )
    assert not report.ok
    assert report.as_dict() == {
        "errors": [
            {
                "sheet": "Games",
                "cell": "D4",
                "code": "spare_against_spare",
                "message": "The spare (99) is paired against the spare. Correct Player A or Player B.",
            }
        ],
        "warnings": [
            {
                "sheet": "Players",
                "cell": "A3",
                "code": "player_without_game",
                "message": "Player 7 is registered but plays no game. Add the player's games or remove the "
                "row; the import goes on.",
            }
        ],
    }
    assert report.as_dict(words_in("fr"))["errors"][0]["message"].startswith("Le joueur de réserve")


def test_every_issue_code_has_a_test_asserting_its_place_and_message():
    folder = Path(__file__).parent
    text = "".join(path.read_text() for path in folder.glob("test_*.py"))
    asserted = set(re.findall(r'code="(\w+)"', text))
    assert set(messages.MESSAGES) | messages.CHARTER_CODES <= asserted
