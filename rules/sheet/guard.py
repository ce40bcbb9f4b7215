"""The guard: what is checked on a file's raw bytes before any XML is parsed, so that a hostile file costs
neither memory nor time (RESULT_SHEET.md's limits).

Terms
-----
guard
    The size, the zip structure, the declared sizes and compression ratios (read from the zip's central
    directory, never by decompressing), DOCTYPE/ENTITY declarations (read from the first bytes of each XML part),
    macros, and the cells and rows of every part (counted in the raw XML, streaming).
refusal
    An issue that stops the reading of the file; only the refusal is reported.
"""

from __future__ import annotations

import codecs
import io
import re
import struct
import zipfile

from defusedxml import DefusedXmlException, ElementTree
from openpyxl.utils.cell import column_index_from_string

from rules import words
from rules.sheet import messages
from rules.sheet.format import (
    MAX_BYTES,
    MAX_CELLS,
    MAX_DIRECTORY_BYTES,
    MAX_PART_UNCOMPRESSED,
    MAX_PARTS,
    MAX_RATIO,
    MAX_ROWS,
    MAX_UNCOMPRESSED,
    RATIO_FLOOR,
    SCAN_CHUNK,
)
from rules.sheet.report import Issue


def guard(data: bytes, *, max_bytes: int = MAX_BYTES) -> Issue | None:
    """The refusal of a file that must not be opened, or None. Reads only the zip's central directory and the
    prologs of the XML parts, so a bomb costs neither memory nor time. Never raises."""
    try:
        return _guard(data, max_bytes=max_bytes)
    except Exception:
        return refusal("unreadable")


def _guard(data: bytes, *, max_bytes: int) -> Issue | None:
    if len(data) > max_bytes:
        return refusal("file_too_large", size_mb=_mb(len(data)), limit_mb=_mb(max_bytes))
    # zipfile builds an object per entry of the central directory before anyone can count them, and reads the
    # directory by its declared size whatever count it declares: both are checked first, from the end record.
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or len(data) < end + 22:
        return refusal("not_xlsx")
    entries, directory_size = struct.unpack_from("<HI", data, end + 10)
    if entries > MAX_PARTS or directory_size > MAX_DIRECTORY_BYTES:
        return refusal("too_many_parts", count=entries, limit=MAX_PARTS)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        return refusal("not_xlsx")
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_PARTS:
            return refusal("too_many_parts", count=len(infos), limit=MAX_PARTS)
        names = {info.filename for info in infos}
        if "[Content_Types].xml" not in names:
            return refusal("not_a_workbook")
        if any(name.lower().endswith("vbaproject.bin") for name in names):
            # A macro-enabled workbook (.xlsm) renamed .xlsx: its macros would reach whoever opens the copy.
            return refusal("macro_enabled")
        if any(info.flag_bits & 0x1 for info in infos):
            # An encrypted member: the workbook is password-protected.
            return refusal("not_xlsx")
        total = 0
        for info in infos:
            if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                ratio = info.file_size // max(info.compress_size, 1)
                return refusal("suspicious_compression", part=info.filename, ratio=ratio, limit=MAX_RATIO)
            parsed_whole = _is_xml(info.filename) and not _is_worksheet(info.filename)
            if parsed_whole and info.file_size > MAX_PART_UNCOMPRESSED:
                return refusal(
                    "part_too_large",
                    part=info.filename,
                    size_mb=_mb(info.file_size),
                    limit_mb=_mb(MAX_PART_UNCOMPRESSED),
                )
            total += info.file_size
        if total > MAX_UNCOMPRESSED:
            return refusal("uncompressed_too_large", size_mb=_mb(total), limit_mb=_mb(MAX_UNCOMPRESSED))
        for info in infos:
            if _is_xml(info.filename) and _declares_entities(archive, info):
                return refusal("xml_entities", part=info.filename)
        if _macro_content_type(archive):
            return refusal("macro_enabled")
        for info in infos:
            # Every XML part, not only those under xl/worksheets/: the workbook may point anywhere for a sheet.
            if _is_xml(info.filename):
                too_many = _count_refusal(archive, info)
                if too_many is not None:
                    return too_many
    return None


def _macro_content_type(archive: zipfile.ZipFile) -> bool:
    """Whether [Content_Types].xml declares a macro-enabled workbook (its size is bounded by the guard)."""
    return b"macroenabled" in archive.read("[Content_Types].xml").lower()


# A cell, a row and a merged range of a worksheet's XML, whatever namespace prefix the file gives them.
_COUNTED = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(c|row|mergeCell)(?=[\s/>])([^>]*)>")
_MERGE_REF = re.compile(rb"""\bref\s*=\s*["']([A-Za-z]{1,3})(\d{1,7}):([A-Za-z]{1,3})(\d{1,7})["']""")


def _count_refusal(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Issue | None:
    """The refusal of a part holding more than MAX_CELLS cells or MAX_ROWS rows, or None."""
    cells, rows = _count(archive, info, max_cells=MAX_CELLS, max_rows=MAX_ROWS)
    if cells <= MAX_CELLS and rows <= MAX_ROWS:
        return None
    code, count, limit = (
        ("too_many_cells", cells, MAX_CELLS) if cells > MAX_CELLS else ("too_many_rows", rows, MAX_ROWS)
    )
    return refusal(code, sheet=_sheet_title(archive, info.filename), count=count, limit=limit)


def _count(archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, max_cells: int, max_rows: int) -> tuple[int, int]:
    """The cells and rows of a part, counted from the tags of its raw XML, streaming; the count stops soon after
    passing either maximum, so that no part costs more than reading that far. No parser builds an object."""
    cells = rows = 0
    tail = b""
    with archive.open(info) as part:
        while cells <= max_cells and rows <= max_rows:
            chunk = part.read(SCAN_CHUNK)
            if not chunk:
                break
            text = tail + chunk
            # A tag cut by the chunk's end is counted with the next chunk.
            cut = text.rfind(b"<")
            if cut != -1 and text.find(b">", cut) == -1:
                text, tail = text[:cut], text[cut:]
            else:
                tail = b""
            if len(tail) > SCAN_CHUNK:  # a tag longer than a chunk: no tag of a worksheet is
                tail = tail[-SCAN_CHUNK:]
            for match in _COUNTED.finditer(text):
                kind = match[1]
                if kind == b"c":
                    cells += 1
                elif kind == b"row":
                    rows += 1
                else:
                    cells += _merged_area(match[2])
    return cells, rows


def workbook_cells(data: bytes, *, stop_after: int) -> int:
    """The cells of every part of a workbook that passed the guard, counted as the guard counts them; the count
    stops once past `stop_after`."""
    total = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if _is_xml(info.filename):
                cells, _rows = _count(archive, info, max_cells=stop_after - total, max_rows=MAX_ROWS)
                total += cells
                if total > stop_after:
                    break
    return total


def _merged_area(attributes: bytes) -> int:
    match = _MERGE_REF.search(attributes)
    if match is None:
        return 1
    first_column, first_row = column_index_from_string(match[1].decode().upper()), int(match[2])
    last_column, last_row = column_index_from_string(match[3].decode().upper()), int(match[4])
    return (abs(last_column - first_column) + 1) * (abs(last_row - first_row) + 1)


def _sheet_title(archive: zipfile.ZipFile, part: str) -> str:
    """The title a referee sees for a worksheet part ('Games' for xl/worksheets/sheet3.xml), else the part's
    name. Reads the workbook and its relations through defusedxml; their size is bounded by the guard."""
    try:
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        targets = {
            rel.get("Id"): rel.get("Target", "").lstrip("/").removeprefix("xl/")
            for rel in rels
            if rel.tag.endswith("Relationship")
        }
        workbook = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        for sheet in workbook.iter():
            if not sheet.tag.endswith("}sheet"):
                continue
            rel_id = next((value for key, value in sheet.attrib.items() if key.endswith("}id")), None)
            if f"xl/{targets.get(rel_id, '')}" == part:
                return sheet.get("name") or part
    except Exception:  # noqa: S110 - the part's name still says which one
        pass
    return part


def _is_xml(name: str) -> bool:
    return name.lower().endswith((".xml", ".rels", ".vml"))


def _is_worksheet(name: str) -> bool:
    return name.lower().startswith("xl/worksheets/")


_PROLOG_END = re.compile(r"<[A-Za-z_]")
_DECLARATION = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def _declares_entities(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    """Whether the part's prolog (what precedes the root element, the only place a DTD may stand) holds a
    DOCTYPE or ENTITY declaration. Read streaming in chunks; the declared size bounds the reading."""
    decoder = None
    tail = ""
    with archive.open(info) as part:
        while True:
            chunk = part.read(SCAN_CHUNK)
            if not chunk:
                return False
            if decoder is None:
                decoder = codecs.getincrementaldecoder(_encoding(chunk))(errors="replace")
            text = tail + decoder.decode(chunk)
            declaration = _DECLARATION.search(text)
            root = _PROLOG_END.search(text)
            if declaration and (root is None or declaration.start() < root.start()):
                return True
            if root is not None:
                return False
            # Keep a little of the chunk so that a declaration cut in two is still found.
            tail = text[-16:]


def _encoding(head: bytes) -> str:
    # XML is UTF-8 unless it says otherwise; UTF-16 is the only other encoding found in workbooks. Latin-1
    # maps bytes one to one, so ASCII markup is found in any 8-bit encoding.
    if head.startswith((b"\xff\xfe", b"<\x00")):
        return "utf-16-le"
    if head.startswith((b"\xfe\xff", b"\x00<")):
        return "utf-16-be"
    return "latin-1"


def _mb(size: int) -> str:
    """Megabytes to one decimal, rounded up: a file just over 5 MB must not read "5 MB, over the 5 MB
    limit"."""
    tenths = -(-size * 10 // (1024 * 1024))
    return f"{tenths / 10:.1f}".removesuffix(".0")


def refusal(code: str, **params: object) -> Issue:
    sheet = {"too_many_players": "Players", "too_many_games": "Games"}.get(code, "")
    return Issue(code=code, sheet=sheet, cell="", params=params)


def is_defused_error(exc: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, DefusedXmlException):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


class Refused(words.Refused):
    """Raised inside the reader to stop at a limit; carries the refusal issue (its place in the workbook too)."""

    def __init__(self, issue: Issue) -> None:
        super().__init__([(issue.code, issue.params)])
        self.issue = issue

    @staticmethod
    def wording(code: str, params: dict, words: words.Words, names=None) -> str:
        return messages.render(code=code, params=params, words=words)
