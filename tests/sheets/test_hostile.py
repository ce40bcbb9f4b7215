"""Files built to hurt: each is refused (or read) quickly, in bounded memory, with a report and no exception.

The hostile files are built streaming where they are big (a ZipFile entry written in chunks), so the tests
themselves stay small. Time and memory are measured in one read (tests/bounds.py).
"""

from __future__ import annotations

import io
import os
import re
import struct
import time
import zipfile
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from rules.sheet.format import MAX_BYTES
from rules.sheet.guard import guard
from rules.sheet.parsed import ParsedSheet
from rules.sheet.reader import read_sheet
from tests.bounds import cpu_and_peak
from tests.sheets.builders import TODAY, SheetBuilder, assert_issue, streamed_players_sheet

# CPU seconds no file may take, hostile or not, on any machine the suite runs on. The attacks guarded against
# (decompression bombs, entity expansion, a million rows) take minutes or never end, whatever the machine; a
# bound near what a legitimate sheet takes made the suite fail on a machine 2.5 times slower (10,000 games
# read in 2.1-2.5 s there). How fast sheets are read is the benchmarks' business; how the time grows with the
# number of games is tested below, whatever the machine's speed.
SECONDS = 10.0
PEAK_BYTES = 50 * 1024 * 1024

BILLION_LAUGHS = (
    '<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10)
    )
    + "]>"
)


def measured(data: bytes, **kwargs) -> tuple[ParsedSheet, float, int]:
    """The sheet read from data, the CPU seconds it took and the peak of memory allocated while reading."""
    return cpu_and_peak(lambda: read_sheet(data, today=TODAY, **kwargs))


def assert_refused_quickly(data: bytes, code: str, **kwargs) -> ParsedSheet:
    parsed, elapsed, peak = measured(data, **kwargs)
    assert [issue.code for issue in parsed.report.errors] == [code], parsed.report.as_dict()
    assert parsed.report.refused and parsed.tournament is None and parsed.players == [] and parsed.games == []
    assert elapsed < SECONDS
    assert peak < PEAK_BYTES
    return parsed


def rezipped(data: bytes, *, change: Callable[[str, bytes], bytes | None] | None = None, add=()) -> bytes:
    """The workbook data with each part passed through change (None drops it) and parts added."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            if change is not None:
                content = change(info.filename, content)
            if content is not None:
                target.writestr(info.filename, content)
        for name, content, method in add:
            target.writestr(zipfile.ZipInfo(name), content, compress_type=method)
    return out.getvalue()


def declared(data: bytes, name: str, size: int) -> bytes:
    """The zip with the uncompressed size that its central directory declares for `name` changed."""
    buffer = bytearray(data)
    position = buffer.find(b"PK\x01\x02")
    while position != -1:
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", buffer, position + 28)
        if bytes(buffer[position + 46 : position + 46 + name_length]).decode() == name:
            struct.pack_into("<I", buffer, position + 24, size)
            return bytes(buffer)
        position = buffer.find(b"PK\x01\x02", position + 46 + name_length + extra_length + comment_length)
    raise AssertionError(name)


@pytest.fixture(scope="module")
def valid() -> bytes:
    return SheetBuilder.valid().build()


# -- not a workbook


def test_it_refuses_a_file_that_is_not_a_zip():
    parsed = assert_refused_quickly(b"Name;Club\nMartin;Alpha\n", "not_xlsx")
    assert_issue(
        parsed.report,
        code="not_xlsx",
        sheet="",
        cell="",
        en='The file is not an .xlsx workbook. Open it in Excel or LibreOffice, save it as "Excel Workbook '
        '(.xlsx)" without a password and send it again.',
    )


def test_it_refuses_an_empty_file():
    assert_refused_quickly(b"", "not_xlsx")


def test_it_refuses_an_old_excel_file():
    assert_refused_quickly(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4096), "not_xlsx")


def test_it_refuses_a_zip_that_is_not_a_workbook():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("results.csv", "Martin;Alpha\n")
    parsed = assert_refused_quickly(out.getvalue(), "not_a_workbook")
    assert_issue(
        parsed.report,
        code="not_a_workbook",
        sheet="",
        cell="",
        en="The file is a zip archive but not an .xlsx workbook. Download the official result sheet from the "
        "site, copy your results into it and send it again.",
    )


def test_it_refuses_a_workbook_missing_its_workbook_part(valid):
    data = rezipped(valid, change=lambda name, content: None if name == "xl/workbook.xml" else content)
    assert_refused_quickly(data, "not_a_workbook")


def test_it_turns_any_failure_of_the_parser_into_an_unreadable_report(valid):
    data = rezipped(valid, change=lambda name, content: b"<oops" if name == "xl/styles.xml" else content)
    parsed = assert_refused_quickly(data, "unreadable")
    assert_issue(
        parsed.report,
        code="unreadable",
        sheet="",
        cell="",
        en="The file could not be read as a workbook. Open it in Excel or LibreOffice, save it again as "
        ".xlsx and send it again; if that does not help, copy your results into the official result sheet.",
    )


@pytest.mark.parametrize("junk", [b"PK\x03\x04" + os.urandom(64), b"PK\x05\x06" + bytes(18), os.urandom(512)],
                         ids=["zip-header-random", "empty-zip", "random"])  # ids the same in every process
def test_it_never_raises_on_random_bytes(junk):
    assert not read_sheet(junk, today=TODAY).report.ok


def test_it_never_raises_on_a_truncated_workbook(valid):
    for cut in range(0, len(valid), max(1, len(valid) // 40)):
        parsed = read_sheet(valid[:cut], today=TODAY)
        assert parsed.report.refused


def test_it_never_raises_on_what_is_not_bytes():
    parsed = read_sheet(None, today=TODAY)  # type: ignore[arg-type]
    assert [issue.code for issue in parsed.report.errors] == ["unreadable"]


# -- size


def test_it_refuses_a_file_over_five_megabytes_before_opening_it():
    parsed = assert_refused_quickly(b"PK" + bytes(MAX_BYTES), "file_too_large")
    assert_issue(
        parsed.report,
        code="file_too_large",
        sheet="",
        cell="",
        en="The file is 5.1 MB, over the 5 MB limit. Send the result sheet alone, saved as an .xlsx workbook "
        "without pictures or extra sheets.",
    )


def test_it_takes_a_smaller_limit_when_asked(valid):
    parsed = assert_refused_quickly(valid, "file_too_large", max_bytes=1000)
    assert parsed.report.errors[0].params["limit_mb"] == "0.1"


def test_it_refuses_a_zip_with_too_many_parts(valid):
    data = rezipped(valid, add=[(f"xl/media/image{i}.png", b"x", zipfile.ZIP_STORED) for i in range(90)])
    parsed = assert_refused_quickly(data, "too_many_parts")
    assert_issue(
        parsed.report,
        code="too_many_parts",
        sheet="",
        cell="",
        en="The file holds 101 parts, more than the 100 a result sheet may have, so it is refused. Copy your "
        "results into the official result sheet and send that.",
    )


def test_it_refuses_a_zip_of_forty_thousand_entries_before_listing_them():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        for number in range(40_000):
            archive.writestr(f"x/{number}", b"")
    data = out.getvalue()
    assert len(data) < MAX_BYTES
    parsed = assert_refused_quickly(data, "too_many_parts")
    assert parsed.report.errors[0].params == {"count": 40_001, "limit": 100}


def test_it_refuses_a_central_directory_that_understates_its_entries(valid):
    # The end record says 11 entries, but the directory it points to holds 2,000: zipfile would list them all.
    data = rezipped(valid, add=[(f"x/{number}", b"", zipfile.ZIP_STORED) for number in range(2000)])
    end = data.rfind(b"PK\x05\x06")
    data = data[: end + 8] + struct.pack("<HH", 11, 11) + data[end + 12 :]
    assert_refused_quickly(data, "too_many_parts")


@pytest.fixture(scope="module")
def zeros_bomb(valid) -> bytes:
    """The valid workbook plus a part of 300 MB of zeros, compressed to about 300 KB. Written in chunks."""
    out = io.BytesIO(rezipped(valid))
    chunk = bytes(1024 * 1024)
    with (
        zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("xl/media/zeros.bin", "w", force_zip64=True) as part,
    ):
        for _ in range(300):
            part.write(chunk)
    return out.getvalue()


def test_it_refuses_a_decompression_bomb_without_decompressing_it(zeros_bomb):
    assert len(zeros_bomb) < MAX_BYTES
    parsed = assert_refused_quickly(zeros_bomb, "suspicious_compression")
    issue = assert_issue(
        parsed.report,
        code="suspicious_compression",
        sheet="",
        cell="",
        en=f"The part xl/media/zeros.bin of the file is compressed {parsed.report.errors[0].params['ratio']} "
        "to 1, more than the 100 to 1 a workbook ever needs: it looks like a decompression bomb and is "
        "refused. Copy your results into the official result sheet and send that.",
    )
    assert int(issue.params["ratio"]) > 500


def test_it_refuses_parts_declaring_too_much_in_total(valid):
    # 1 MB of noise stored as is, declared as 60 MB: a ratio of 60 passes, the total does not.
    data = declared(
        rezipped(valid, add=[("xl/media/noise.bin", os.urandom(1024 * 1024), zipfile.ZIP_STORED)]),
        "xl/media/noise.bin",
        60 * 1024 * 1024,
    )
    parsed = assert_refused_quickly(data, "uncompressed_too_large")
    assert_issue(
        parsed.report,
        code="uncompressed_too_large",
        sheet="",
        cell="",
        en="The file would expand to 60.1 MB once opened, over the 50 MB limit, so it is refused. Copy your "
        "results into the official result sheet and send that.",
    )


def test_it_refuses_a_part_too_big_to_parse_whole(valid):
    data = declared(
        rezipped(valid, add=[("customXml/item1.xml", os.urandom(200 * 1024), zipfile.ZIP_STORED)]),
        "customXml/item1.xml",
        11 * 1024 * 1024,
    )
    parsed = assert_refused_quickly(data, "part_too_large")
    assert_issue(
        parsed.report,
        code="part_too_large",
        sheet="",
        cell="",
        en="The part customXml/item1.xml of the file would expand to 11 MB, over the 10 MB limit, so the "
        "file is refused. Copy your results into the official result sheet and send that.",
    )


def test_it_reads_no_further_than_a_part_declares(valid):
    # A central directory that understates a sheet's size: zipfile stops there and the CRC fails.
    data = declared(valid, "xl/worksheets/sheet3.xml", 100)
    assert_refused_quickly(data, "unreadable")


# -- XML entities


def with_doctype(part: str, *, before: str = "") -> Callable[[str, bytes], bytes]:
    def change(name: str, content: bytes) -> bytes:
        if name != part:
            return content
        text = content.decode()
        text = re.sub(r'name="Tournament"', 'name="&lol9;"', text)
        text = re.sub(r"<t>Format</t>", "<t>&lol9;</t>", text)
        return ('<?xml version="1.0" encoding="UTF-8"?>' + before + BILLION_LAUGHS + text).encode()

    return change


@pytest.mark.parametrize("part", ["xl/workbook.xml", "xl/worksheets/sheet1.xml", "[Content_Types].xml"])
def test_it_refuses_an_entity_expansion_bomb(valid, part):
    parsed = assert_refused_quickly(rezipped(valid, change=with_doctype(part)), "xml_entities")
    assert_issue(
        parsed.report,
        code="xml_entities",
        sheet="",
        cell="",
        en=f"The part {part} of the file declares XML entities (a DOCTYPE), which a workbook never needs and "
        "which can hide an entity expansion bomb, so the file is refused. Copy your results into the "
        "official result sheet and send that.",
    )


def test_it_finds_a_doctype_behind_a_long_comment(valid):
    change = with_doctype("xl/workbook.xml", before="<!--" + "padding " * 20000 + "-->")
    assert_refused_quickly(rezipped(valid, change=change), "xml_entities")


def test_it_finds_a_doctype_in_utf16(valid):
    def change(name: str, content: bytes) -> bytes:
        if name != "xl/workbook.xml":
            return content
        text = '<?xml version="1.0" encoding="UTF-16"?>' + BILLION_LAUGHS + content.decode()
        return text.encode("utf-16")

    assert guard(rezipped(valid, change=change)).code == "xml_entities"  # type: ignore[union-attr]


def test_it_still_refuses_entities_that_the_prolog_scan_misses(valid):
    # A comment holding "<a" ends the quick scan early; defusedxml, under openpyxl, refuses the DOCTYPE.
    change = with_doctype("xl/workbook.xml", before="<!-- <a -->")
    parsed = assert_refused_quickly(rezipped(valid, change=change), "xml_entities")
    assert parsed.report.errors[0].params == {"part": "?"}


# -- rows


def test_it_refuses_more_than_a_thousand_players():
    data = streamed_players_sheet(991)  # 10 players of the valid sheet + 991 = 1,001
    parsed = assert_refused_quickly(data, "too_many_players")
    assert_issue(
        parsed.report,
        code="too_many_players",
        sheet="Players",
        cell="",
        en="The Players sheet lists more than 1000 players, the most a result sheet may hold, so the file is "
        "refused. Keep only the tournament's players in the sheet.",
    )


def test_it_reads_a_thousand_players():
    parsed, elapsed, _ = measured(streamed_players_sheet(990))
    assert len(parsed.players) == 1000
    assert {i.code for i in parsed.report.errors} == set()
    assert elapsed < SECONDS


@pytest.mark.parametrize("dimension", [True, False])
def test_it_refuses_a_million_rows_of_junk_before_parsing_them(dimension):
    data = streamed_players_sheet(1_000_000, junk_column="Z", dimension=dimension)
    assert len(data) < MAX_BYTES
    parsed = assert_refused_quickly(data, "too_many_cells")
    assert parsed.report.errors[0].params["sheet"] == "Players"


def test_it_stops_reading_rows_it_does_not_need():
    data = streamed_players_sheet(20_000, junk_column="Z")
    parsed, elapsed, peak = measured(data)
    assert parsed.report.ok and len(parsed.players) == 10
    assert elapsed < SECONDS and peak < PEAK_BYTES


def test_it_refuses_a_hundred_thousand_players_before_reading_them():
    data = streamed_players_sheet(100_000, dimension=False)
    assert len(data) < MAX_BYTES
    assert_refused_quickly(data, "too_many_cells")


def test_it_refuses_the_thousand_and_first_player_of_a_sheet_within_the_cell_limit():
    data = streamed_players_sheet(2_000, dimension=False)
    assert_refused_quickly(data, "too_many_players")


def _games_workbook(games: int) -> bytes:
    builder = SheetBuilder.valid()
    workbook = Workbook(write_only=True)
    for title, rows in (
        ("Tournament", builder.tournament),
        ("Players", [builder.player_headers, *builder.players]),
    ):
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    sheet = workbook.create_sheet("Games")
    sheet.append(builder.game_headers)
    for number in range(games):
        sheet.append([1 + number % 3, None, 101, 104, "A", 10, 20, "no"])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


@pytest.mark.slow
def test_it_refuses_more_than_ten_thousand_games():
    parsed = assert_refused_quickly(_games_workbook(10_001), "too_many_games")
    assert_issue(
        parsed.report,
        code="too_many_games",
        sheet="Games",
        cell="",
        en="The Games sheet lists more than 10000 games, the most a result sheet may hold, so the file is "
        "refused. Keep only the tournament's games in the sheet.",
    )


def _reading_seconds(data: bytes) -> tuple[ParsedSheet, float]:
    """The sheet read from data and the CPU seconds it took, the best of three readings."""
    best, parsed = float("inf"), None
    for _ in range(3):
        start = time.process_time()
        parsed = read_sheet(data, today=TODAY)
        best = min(best, time.process_time() - start)
    return parsed, best


def test_it_reads_ten_thousand_games_in_a_time_that_grows_linearly_with_them():
    parsed, most = _reading_seconds(_games_workbook(10_000))
    assert not parsed.report.refused and len(parsed.games) == 10_000
    assert most < SECONDS  # its memory is measured by the refusal of 10,001 above
    _, tenth = _reading_seconds(_games_workbook(1_000))
    # Ten times the games: about ten times the time (10.3 here), a quadratic reading a hundred. The margin is
    # for this machine's drift, which moved one reading against the other by up to 1.8 times.
    assert most / tenth < 25


def test_it_ignores_a_huge_declared_dimension(valid):
    def change(name: str, content: bytes) -> bytes:
        if not name.startswith("xl/worksheets/"):
            return content
        text = re.sub(r'<dimension ref="[^"]*"\s*/>', '<dimension ref="A1:XFD1048576"/>', content.decode())
        text = text.replace(
            "</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
        )
        return text.encode()

    parsed, elapsed, peak = measured(rezipped(valid, change=change))
    assert parsed.report.errors == [] and len(parsed.players) == 10 and len(parsed.games) == 15
    assert elapsed < SECONDS and peak < PEAK_BYTES


def test_it_reads_a_sheet_whose_declared_dimension_is_too_small(valid):
    def change(name: str, content: bytes) -> bytes:
        if not name.startswith("xl/worksheets/"):
            return content
        return re.sub(rb'<dimension ref="[^"]*"\s*/>', b'<dimension ref="A1"/>', content)

    parsed = read_sheet(rezipped(valid, change=change), today=TODAY)
    assert parsed.report.errors == [] and len(parsed.players) == 10 and len(parsed.games) == 15


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=4096))
def test_it_never_raises_on_any_bytes(data):
    parsed = read_sheet(data, today=TODAY)
    assert parsed.report.refused


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), max_size=8))
def test_it_never_raises_on_a_damaged_workbook(valid, damage):
    data = bytearray(valid)
    for position, value in damage:
        data[position % len(data)] = value
    parsed = read_sheet(bytes(data), today=TODAY)
    assert isinstance(parsed.report.ok, bool)
