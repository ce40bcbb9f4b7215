"""An uploaded file read in its format: the result sheet (.xlsx) or the tournament exchange format (.json).

A file's kind is decided by its content when not given: a workbook is a zip (it starts ``PK``), a JSON document
an object (``{`` after any byte-order mark and white space). The command's ``--format`` and a ``.json`` file name
give it instead; a file of the other kind then gets that format's refusal ("not an .xlsx workbook", "not JSON").
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from rules.exchange.reader import read_exchange
from rules.sheet.format import MAX_BYTES
from rules.sheet.parsed import ParsedSheet
from rules.sheet.reader import read_sheet

Kind = Literal["xlsx", "json"]
KINDS: tuple[Kind, ...] = ("xlsx", "json")


def file_kind(data: bytes, *, file_name: str = "") -> Kind:
    """The format of a file: by its name's extension when it has a known one, else by its first bytes."""
    suffix = file_name.lower().rsplit(".", 1)[-1] if "." in file_name else ""
    if suffix in KINDS:
        return suffix  # type: ignore[return-value]
    head = bytes(data[:64]).removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    return "json" if head.startswith(b"{") else "xlsx"


def read_upload(data: bytes, *, today: date, kind: Kind | None = None, max_bytes: int = MAX_BYTES) -> ParsedSheet:
    """read_sheet or read_exchange, as the file's kind asks (by its content when not given). Never raises."""
    try:
        chosen = kind or file_kind(data)
    except Exception:  # not bytes at all: the sheet's reader words it
        chosen = "xlsx"
    if chosen == "json":
        return read_exchange(data, today=today, max_bytes=max_bytes)
    return read_sheet(data, today=today, max_bytes=max_bytes)
