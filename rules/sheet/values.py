"""The values of a result sheet's cells, as the sheet takes them (RESULT_SHEET.md): whole numbers, booleans,
dates, player keys and texts, whatever Excel or LibreOffice stored.

Terms
-----
key
    A player's identity inside the sheet, as text: a federation ID (``'123'``), the spare (``'99'``) or a *tag*
    ``N1``, ``N2``… for a player new to the federation, who gets a real ID on import.
"""

from __future__ import annotations

import re
from datetime import date, datetime

_WHOLE = re.compile(r"[+-]?\d{1,15}(?:[.,]0*)?")
_TAG = re.compile(r"N\s*0*(\d{1,9})", re.IGNORECASE)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?")
_TRUE = frozenset({"yes", "y", "oui", "o", "true", "vrai", "1"})
_FALSE = frozenset({"no", "n", "non", "false", "faux", "0"})


def parse_whole_number(value: object) -> int:
    """1, "1", " 1 ", 1.0 and "1.0" are the whole number 1; 1.5, "1.5", True, a date or text raise
    ValueError."""
    if isinstance(value, bool) or value is None:
        raise ValueError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            raise ValueError(value)
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if _WHOLE.fullmatch(text):
            return int(re.split(r"[.,]", text)[0])
    raise ValueError(value)


def parse_boolean(value: object) -> bool:
    """yes/no, y/n, oui/non, true/false, 1/0 in any case (and Excel's TRUE/FALSE) are booleans."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return value == 1
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise ValueError(value)


def parse_date(value: object) -> date:
    """An Excel date (a datetime cell) or text YYYY-MM-DD. A bare number is refused: without the date format
    it cannot be told from a typing mistake."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        match = _ISO_DATE.fullmatch(value.strip())
        if match:
            return date(int(match[1]), int(match[2]), int(match[3]))
    raise ValueError(value)


def new_player_tag(number: int) -> str:
    """The ID cell of a player new to the federation: N1, N2, … (RESULT_SHEET.md); the import gives each an ID."""
    return f"N{number}"


def parse_player_key(value: object) -> str:
    """The key of an ID cell: '123' for a federation ID, '99' for the spare, 'N1' for a tag (any case)."""
    if isinstance(value, str) and _TAG.fullmatch(value.strip()):
        number = int(_TAG.fullmatch(value.strip())[1])
        if number >= 1:
            return new_player_tag(number)
        raise ValueError(value)
    number = parse_whole_number(value)
    if number < 1:
        raise ValueError(value)
    return str(number)


def name_club_key(*, last_name: str, first_name: str, club: str | None) -> tuple[str, str, str]:
    """The key of SheetContext.name_club_index: casefolded names and club ('' for none), spaces collapsed.
    The service builds the index with this same function, so both sides compare alike."""
    return (fold(last_name), fold(first_name), fold(club or ""))


def fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def cell_text(value: object) -> str | None:
    """A cell as trimmed text with inner runs of spaces collapsed; None when blank."""
    if value is None:
        return None
    if isinstance(value, bool):
        written = "yes" if value else "no"
    elif isinstance(value, float) and value.is_integer():
        written = str(int(value))
    elif isinstance(value, datetime):
        written = value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat(" ")
    elif isinstance(value, date):
        written = value.isoformat()
    else:
        written = str(value)
    written = " ".join(written.split())
    return written or None


def shown_value(value: object) -> str:
    """A cell value as a message quotes it: as text, cut short so that a pasted essay stays readable."""
    text = cell_text(value) or ""
    return text if len(text) <= 40 else text[:39] + "…"


def header_key(value: object) -> str:
    """A label or header as matched: casefolded, spaces collapsed, a trailing ':' or '%' dropped, and either
    apostrophe the same (the French template writes ’, a referee's keyboard types ')."""
    text = (cell_text(value) or "").casefold().replace("’", "'").rstrip(":% ")
    return " ".join(text.split())


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def rating_system(value: object) -> str | None:
    text = re.sub(r"[\s_]+", "-", (cell_text(value) or "").casefold())
    return {"adlg": "adlg", "battle-empire": "battle-empire", "battleempire": "battle-empire"}.get(text)
