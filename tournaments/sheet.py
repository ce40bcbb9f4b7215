"""Reads and validates the official result sheet (format ``adlg-result-sheet/1``), without a database.

The format is ``spec/RESULT_SHEET.md``; this module is its executable form. The Django import service calls
:func:`read_sheet` on the uploaded bytes, loads from the database what :func:`referenced_ids` names, and calls
:func:`check_sheet` for the checks that need the federation's data. Nothing here imports Django.

Terms:
- *sheet*: one of the three worksheets ``Tournament``, ``Players``, ``Games``, found by name with case and
  surrounding spaces ignored. Other sheets (the template's ``Standings``) are never read.
- *label*: the text in column A of the Tournament sheet naming the value in column B of the same row.
- *header*: the text in row 1 of Players or Games naming its column. Columns may come in any order; extra
  columns are ignored.
- *key*: a player's identity inside the sheet, as text: a federation ID (``'123'``), the spare (``'99'``) or a
  *tag* ``N1``, ``N2``... for a player new to the federation, who gets a real ID on import.
- *spare*: the player with ID 99 who plays against the odd player of a pool (charter App. 2 §2.b). It is
  listed in Players like everyone who plays, but one spare may serve every pool, so its pool and club are
  ignored: it is exempt from the pool, club and "meeting twice" checks, and plays once a round per pool.
- *issue*: one problem, with its code, sheet, cell (``'E14'``), params and severity. An *error* blocks the
  import (import is all or nothing); a *warning* is shown and the import goes on.
- *guard*: the checks made on the raw bytes before any XML is parsed: size, zip structure, declared sizes and
  compression ratios (read from the zip's central directory, never by decompressing), and DOCTYPE/ENTITY
  declarations (read from the first bytes of each XML part). A *refusal* is an issue that stops the reading of
  the file; only the refusal is reported.
- *ranked player*: a player of the sheet other than the spare who appears in at least one game (charter
  App. 1 §3 counts players who played).
- *last round*: the tournament's Rounds value (or the highest round of the Games sheet when Rounds is
  unreadable): free games are allowed only there (charter App. 2 §5).

:func:`read_sheet` never raises, whatever the bytes: an unexpected failure becomes an ``unreadable`` refusal.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import logging
import re
import struct
import warnings
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

import openpyxl.xml
from openpyxl.reader.excel import ExcelReader
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string, get_column_letter
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from rules.rulesets import SPARE_ID
from tournaments import sheet_messages

# openpyxl parses with defusedxml only when it is installed; without it an entity bomb would reach the stdlib
# parser. Failing at import makes a broken deployment loud instead of silently unsafe.
if not openpyxl.xml.DEFUSEDXML:  # pragma: no cover - depends on the environment
    raise RuntimeError("tournaments.sheet needs defusedxml installed (and OPENPYXL_DEFUSEDXML not False)")

logger = logging.getLogger(__name__)

FORMAT = "adlg-result-sheet/1"
SPARE = str(SPARE_ID)
SHEETS = ("Tournament", "Players", "Games")

MAX_BYTES = 5 * 1024 * 1024
MAX_PARTS = 100
MAX_UNCOMPRESSED = 50 * 1024 * 1024
# 100 entries of the central directory take a few KB (46 bytes and a short name each).
MAX_DIRECTORY_BYTES = 64 * 1024
# Parts openpyxl parses whole in memory (styles, shared strings, workbook.xml...) get a tighter bound than
# worksheets, which are parsed streaming. A real result sheet's parts are a few hundred KB at most.
MAX_PART_UNCOMPRESSED = 10 * 1024 * 1024
MAX_RATIO = 100
# Tiny parts reach high ratios innocently (a 2 KB run of identical styles); only big ones can be bombs.
RATIO_FLOOR = 1024 * 1024
MAX_PLAYERS = 1000
MAX_GAMES = 10000
# A read-only worksheet may declare a million rows; real sheets never have 50 blank rows in a row.
BLANK_RUN = 50
# Columns past this are never read, whatever width the sheet declares.
MAX_COLUMNS = 50
MAX_TOURNAMENT_ROWS = 200
SCAN_CHUNK = 64 * 1024
# A worksheet, any worksheet of the file, may hold at most this many cells (counting every cell of a merged
# range, which openpyxl creates one by one) and this many rows: they are counted in the raw XML before anything
# parses it, since a 3 MB file can hold millions of cells past the columns the reader uses.
MAX_CELLS = 100_000
MAX_ROWS = 100_000
# The report keeps the first REPORT_LIMIT errors and the first REPORT_LIMIT warnings in reading order, and says
# how many more there are: a sheet of 10,000 bad rows has 80,000 errors, and the referee fixes the first ones
# first anyway.
REPORT_LIMIT = 500

# The most characters each text the site stores may have: the fields of the database (tested against the models).
TEXT_LIMITS = {
    "name": 150,
    "city": 100,
    "organising_club": 120,
    "referee": 150,
    "last_name": 80,
    "first_name": 80,
    "club": 120,
    "pool": 30,
    "army": 120,
    "penalty_reason": 200,
}
# A text a spreadsheet would run as a formula when the site exports it to CSV or Excel (RESULT_SHEET.md); tab
# and carriage return, the other starts rules.spreadsheet guards against, never begin a cell's text once read.
FORMULA_STARTS = ("=", "+", "-", "@")

RATING_SYSTEMS = ("adlg", "battle-empire")
SYSTEM_NAMES = {"adlg": "AdlG", "battle-empire": "Battle Empire"}
ADLG_RESULTS = ("A", "B", "D", "DD", "FA", "FB")
BATTLE_EMPIRE_RESULTS = ("A", "A+", "A++", "B", "B+", "B++", "D")
RESULTS = {"adlg": ADLG_RESULTS, "battle-empire": BATTLE_EMPIRE_RESULTS}
# AdlG scores of these results are computed from the losses (charter App. 4 §3), so they cannot be blank.
LOSSES_REQUIRED = frozenset({"A", "B", "D"})

# (key, label, required) in the order of the template, whose row n holds the n-th label.
TOURNAMENT_LABELS: tuple[tuple[str, str, bool], ...] = (
    ("format", "Format", True),
    ("tournament_id", "Tournament ID", False),
    ("name", "Name", True),
    ("rating_system", "Rating system", False),
    ("start", "Start date", True),
    ("end", "End date", True),
    ("city", "City", True),
    ("country", "Country", True),
    ("organising_club", "Organising club", False),
    ("referee", "Referee", True),
    ("army_points", "Army points", False),
    ("rounds", "Rounds", True),
    ("worlds", "Worlds", False),
    ("official", "Official", False),
)
# (key, header, required) in the order of the template's columns. Club is required as a column (a blank
# cell is an independent player) because a renamed Club column would silently make everyone independent and
# pass the charter's club conditions.
PLAYER_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("id", "ID", True),
    ("last_name", "Last name", True),
    ("first_name", "First name", True),
    ("club", "Club", True),
    ("country", "Country", False),
    ("pool", "Pool", False),
    ("army", "Army", False),
    ("penalty", "Penalty", False),
    ("penalty_reason", "Penalty reason", False),
)
# The losses columns are required in AdlG only (see _read_games).
GAME_COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("round", "Round", True),
    ("table", "Table", False),
    ("a", "Player A", True),
    ("b", "Player B", True),
    ("result", "Result", True),
    ("a_losses", "A losses %", False),
    ("b_losses", "B losses %", False),
    ("free", "Free game", False),
)
_ALIASES = {"organizing club": "organising_club"}

# ISO 3166-1 alpha-2: the 249 officially assigned codes (the standard's list as of 2024).
_ISO_3166_ALPHA_2 = """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW
    BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI
    FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN
    IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
    MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF
    PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
    SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE
    YT ZA ZM ZW
"""
COUNTRY_CODES = frozenset(_ISO_3166_ALPHA_2.split())

# Codes that stop the reading of a file: the report then holds only that issue, and nothing is annotated.
REFUSAL_CODES = frozenset(
    {
        "file_too_large",
        "not_xlsx",
        "not_a_workbook",
        "too_many_parts",
        "uncompressed_too_large",
        "part_too_large",
        "suspicious_compression",
        "xml_entities",
        "unreadable",
        "too_many_players",
        "too_many_games",
        "too_many_cells",
        "too_many_rows",
        "macro_enabled",
    }
)
# Refusals of a file over one of the format's limits, as opposed to a file the site cannot read at all.
LIMIT_CODES = frozenset(
    {
        "file_too_large",
        "too_many_parts",
        "uncompressed_too_large",
        "part_too_large",
        "suspicious_compression",
        "xml_entities",
        "too_many_players",
        "too_many_games",
        "too_many_cells",
        "too_many_rows",
    }
)

Severity = Literal["error", "warning"]


# --------------------------------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Issue:
    code: str
    sheet: str
    cell: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)
    severity: Severity = "error"

    def message(self, lang: str = "en") -> str:
        """A full sentence in the referee's language: what is wrong and what to do."""
        return sheet_messages.render(code=self.code, params=self.params, lang=lang)

    @property
    def place(self) -> str:
        """'Games!E14' style, as the report shows it ('' for the file, 'Games' for a whole sheet)."""
        if not self.sheet:
            return ""
        return f"{self.sheet}!{self.cell}" if self.cell else self.sheet


@dataclass
class Report:
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    # Issues found beyond the REPORT_LIMIT kept of each severity (see bound).
    more_errors: int = 0
    more_warnings: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def refused(self) -> bool:
        """True when the file was refused as a whole (not a workbook, a bomb, over a limit...)."""
        return any(issue.code in REFUSAL_CODES for issue in self.errors)

    def add(self, issue: Issue) -> None:
        (self.errors if issue.severity == "error" else self.warnings).append(issue)

    def issues(self) -> list[Issue]:
        return [*self.errors, *self.warnings]

    @property
    def error_count(self) -> int:
        return len(self.errors) + self.more_errors

    @property
    def warning_count(self) -> int:
        return len(self.warnings) + self.more_warnings

    def summaries(self) -> tuple[Issue | None, Issue | None]:
        """The lines that say how many errors and warnings the report leaves out, when it leaves some out."""
        return (
            Issue("more_errors", "", "", {"count": self.more_errors, "limit": REPORT_LIMIT})
            if self.more_errors else None,
            Issue("more_warnings", "", "", {"count": self.more_warnings, "limit": REPORT_LIMIT}, "warning")
            if self.more_warnings else None,
        )

    def as_dict(self, lang: str = "en") -> dict[str, list[dict[str, str]]]:
        """Every issue kept, in the referee's language; when some are left out, a last line says how many."""

        def row(issue: Issue) -> dict[str, str]:
            return {
                "sheet": issue.sheet,
                "cell": issue.cell,
                "code": issue.code,
                "message": issue.message(lang),
            }

        more_errors, more_warnings = self.summaries()
        return {
            "errors": [row(i) for i in self.errors] + ([row(more_errors)] if more_errors else []),
            "warnings": [row(i) for i in self.warnings] + ([row(more_warnings)] if more_warnings else []),
        }

    def sort(self) -> None:
        """Reading order: the file, then Tournament, Players and Games, each top to bottom, left to right."""
        self.errors.sort(key=_issue_order)
        self.warnings.sort(key=_issue_order)

    def bound(self, limit: int = REPORT_LIMIT) -> None:
        """Sorts, then keeps the first `limit` errors and warnings; the others are only counted."""
        self.sort()
        self.more_errors += max(0, len(self.errors) - limit)
        self.more_warnings += max(0, len(self.warnings) - limit)
        del self.errors[limit:], self.warnings[limit:]


@dataclass(frozen=True)
class SheetTournament:
    tournament_id: int | None
    name: str
    rating_system: str
    start: date
    end: date
    city: str
    country: str
    organising_club: str | None
    referee: str
    army_points: int | None
    rounds: int
    worlds: bool
    official: bool


@dataclass(frozen=True)
class SheetPlayer:
    row: int
    key: str
    player_id: int | None
    last_name: str
    first_name: str
    club: str | None
    country: str | None
    pool: str
    army: str | None
    penalty: int
    penalty_reason: str | None


@dataclass(frozen=True)
class SheetGame:
    row: int
    round: int
    table: int
    a: str
    b: str
    result: str
    a_losses: int | None
    b_losses: int | None
    free: bool


@dataclass
class ParsedSheet:
    """What read_sheet found. When the report has errors, players and games hold what could be read (a field
    that failed holds its default) so that check_sheet can still report everything in one go; only a sheet
    whose report is ok may be imported."""

    tournament: SheetTournament | None
    players: list[SheetPlayer]
    games: list[SheetGame]
    report: Report
    content_hash: str
    # The Tournament values that could be read, by key, even when the sheet as a whole has errors.
    tournament_fields: dict[str, Any] = field(default_factory=dict)
    # Where things are in this workbook, for check_sheet's issues: Tournament value cells by key, and the
    # column letters of Players and Games by key.
    tournament_cells: dict[str, str] = field(default_factory=dict)
    player_columns: dict[str, str] = field(default_factory=dict)
    game_columns: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class KnownPlayer:
    id: int
    last_name: str
    first_name: str
    club: str | None
    excluded: bool


@dataclass(frozen=True)
class KnownTournament:
    id: int
    name: str
    start: date
    rating_system: str


@dataclass(frozen=True)
class SheetContext:
    # At least every ID the sheet mentions (the service loads just those: see referenced_ids).
    players: Mapping[int, KnownPlayer]
    # name_club_key(...) -> id of the known player with that name and club.
    name_club_index: Mapping[tuple[str, str, str], int]
    # The tournament named by the sheet's Tournament ID, if the site has it.
    tournament: KnownTournament | None
    # A tournament on the site with the sheet's name (casefolded) and start date, if any.
    same_name_and_start: KnownTournament | None
    # IDs of excluded players that the site no longer keeps as players (an excluded ID is never reused).
    retired_ids: frozenset[int] = frozenset()


# ------------------------------------------------------------------------------------------- value parsing

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


def parse_player_key(value: object) -> str:
    """The key of an ID cell: '123' for a federation ID, '99' for the spare, 'N1' for a tag (any case)."""
    if isinstance(value, str) and _TAG.fullmatch(value.strip()):
        number = int(_TAG.fullmatch(value.strip())[1])
        if number >= 1:
            return f"N{number}"
        raise ValueError(value)
    number = parse_whole_number(value)
    if number < 1:
        raise ValueError(value)
    return str(number)


def name_club_key(*, last_name: str, first_name: str, club: str | None) -> tuple[str, str, str]:
    """The key of SheetContext.name_club_index: casefolded names and club ('' for none), spaces collapsed.
    The service builds the index with this same function, so both sides compare alike."""
    return (_fold(last_name), _fold(first_name), _fold(club or ""))


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _text(value: object) -> str | None:
    """A cell as trimmed text with inner runs of spaces collapsed; None when blank."""
    if value is None:
        return None
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float) and value.is_integer():
        text = str(int(value))
    elif isinstance(value, datetime):
        text = value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat(" ")
    elif isinstance(value, date):
        text = value.isoformat()
    else:
        text = str(value)
    text = " ".join(text.split())
    return text or None


def _shown(value: object) -> str:
    """A cell value as a message quotes it: as text, cut short so that a pasted essay stays readable."""
    text = _text(value) or ""
    return text if len(text) <= 40 else text[:39] + "…"


def _header(value: object) -> str:
    """A label or header as matched: casefolded, spaces collapsed, a trailing ':' or '%' dropped."""
    text = (_text(value) or "").casefold().rstrip(":% ")
    return " ".join(text.split())


def _is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


# ------------------------------------------------------------------------ rules shared with the admin


@dataclass(frozen=True)
class Fault:
    """One rule a fact breaks: `field` names what is wrong (a key of TEXT_LIMITS, or a game's a, b, result,
    a_losses, b_losses, round, free), `code` and `params` make its message (sheet_messages). The sheet check and
    the admin's forms call the same functions below, so the admin refuses what the sheet refuses."""

    field: str
    code: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)


def text_faults(*, key: str, label: str, text: str | None) -> list[Fault]:
    """A text over its field's length (TEXT_LIMITS) or one a spreadsheet would run as a formula."""
    if not text:
        return []
    faults = []
    limit = TEXT_LIMITS.get(key)
    if limit is not None and len(text) > limit:
        faults.append(Fault(key, "text_too_long", {"field": label, "length": len(text), "limit": limit}))
    if text.startswith(FORMULA_STARTS):
        faults.append(Fault(key, "formula_text", {"field": label, "value": _shown(text), "start": text[0]}))
    return faults


def same_player_faults(*, a: object, b: object) -> list[Fault]:
    """A player against himself, or the spare against the spare (keys or IDs alike)."""
    if a is None or b is None or str(a) != str(b):
        return []
    if str(a) == SPARE:
        return [Fault("b", "spare_against_spare", {})]
    return [Fault("b", "player_against_himself", {"key": str(a)})]


def result_faults(*, system: str | None, result: str, shown: str | None = None) -> list[Fault]:
    """A result code the rating system does not have (an unknown system: one that neither has). `shown` is the
    value as the referee wrote it, when it differs from the code read."""
    allowed = RESULTS.get(system) if system else None
    if allowed is None:
        allowed = tuple(dict.fromkeys(ADLG_RESULTS + BATTLE_EMPIRE_RESULTS))
    if result in allowed:
        return []
    return [
        Fault(
            "result",
            "unknown_result",
            {
                "value": shown if shown is not None else _shown(result),
                "system": SYSTEM_NAMES.get(system or "", "AdlG / Battle Empire"),
                "allowed": ", ".join(allowed),
            },
        )
    ]


def losses_faults(*, system: str | None, result: str, a_losses: int | None, b_losses: int | None) -> list[Fault]:
    """Losses are whole percentages 0-100, and AdlG needs both for A, B and D (they set the scores)."""
    faults = []
    for key, header, value in (("a_losses", "A losses %", a_losses), ("b_losses", "B losses %", b_losses)):
        if value is None:
            if system == "adlg" and result in LOSSES_REQUIRED:
                faults.append(Fault(key, "losses_required", {"field": header, "result": result}))
        elif not 0 <= value <= 100:
            faults.append(
                Fault(key, "out_of_range", {"field": header, "value": value, "minimum": 0, "maximum": 100})
            )
    return faults


def round_faults(*, round_number: int, rounds: int) -> list[Fault]:
    if 1 <= round_number <= rounds:
        return []
    return [Fault("round", "round_out_of_range", {"value": round_number, "rounds": rounds})]


def free_game_faults(*, free: bool, round_number: int, last_round: int) -> list[Fault]:
    """A free game is allowed in the last round only (charter App. 2 §5)."""
    if not free or round_number == last_round:
        return []
    return [Fault("free", "free_game_not_last_round", {"round": round_number, "last_round": last_round})]


def game_faults(
    *,
    system: str | None,
    a: object,
    b: object,
    result: str,
    a_losses: int | None,
    b_losses: int | None,
    round_number: int,
    rounds: int,
    free: bool,
) -> list[Fault]:
    """Every rule one game of a tournament of `rounds` rounds breaks, as the sheet check finds them."""
    return [
        *same_player_faults(a=a, b=b),
        *result_faults(system=system, result=result),
        *losses_faults(system=system, result=result, a_losses=a_losses, b_losses=b_losses),
        *round_faults(round_number=round_number, rounds=rounds),
        *free_game_faults(free=free, round_number=round_number, last_round=rounds),
    ]


# ------------------------------------------------------------------------------------------------- guard


def guard(data: bytes, *, max_bytes: int = MAX_BYTES) -> Issue | None:
    """The refusal of a file that must not be opened, or None. Reads only the zip's central directory and the
    prologs of the XML parts, so a bomb costs neither memory nor time. Never raises."""
    try:
        return _guard(data, max_bytes=max_bytes)
    except Exception:
        return _refusal("unreadable")


def _guard(data: bytes, *, max_bytes: int) -> Issue | None:
    if len(data) > max_bytes:
        return _refusal("file_too_large", size_mb=_mb(len(data)), limit_mb=_mb(max_bytes))
    # zipfile builds an object per entry of the central directory before anyone can count them, and reads the
    # directory by its declared size whatever count it declares: both are checked first, from the end record.
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    if end < 0 or len(data) < end + 22:
        return _refusal("not_xlsx")
    entries, directory_size = struct.unpack_from("<HI", data, end + 10)
    if entries > MAX_PARTS or directory_size > MAX_DIRECTORY_BYTES:
        return _refusal("too_many_parts", count=entries, limit=MAX_PARTS)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        return _refusal("not_xlsx")
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_PARTS:
            return _refusal("too_many_parts", count=len(infos), limit=MAX_PARTS)
        names = {info.filename for info in infos}
        if "[Content_Types].xml" not in names:
            return _refusal("not_a_workbook")
        if any(name.lower().endswith("vbaproject.bin") for name in names):
            # A macro-enabled workbook (.xlsm) renamed .xlsx: its macros would reach whoever opens the copy.
            return _refusal("macro_enabled")
        if any(info.flag_bits & 0x1 for info in infos):
            # An encrypted member: the workbook is password-protected.
            return _refusal("not_xlsx")
        total = 0
        for info in infos:
            if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                ratio = info.file_size // max(info.compress_size, 1)
                return _refusal("suspicious_compression", part=info.filename, ratio=ratio, limit=MAX_RATIO)
            parsed_whole = _is_xml(info.filename) and not _is_worksheet(info.filename)
            if parsed_whole and info.file_size > MAX_PART_UNCOMPRESSED:
                return _refusal(
                    "part_too_large",
                    part=info.filename,
                    size_mb=_mb(info.file_size),
                    limit_mb=_mb(MAX_PART_UNCOMPRESSED),
                )
            total += info.file_size
        if total > MAX_UNCOMPRESSED:
            return _refusal("uncompressed_too_large", size_mb=_mb(total), limit_mb=_mb(MAX_UNCOMPRESSED))
        for info in infos:
            if _is_xml(info.filename) and _declares_entities(archive, info):
                return _refusal("xml_entities", part=info.filename)
        if _macro_content_type(archive):
            return _refusal("macro_enabled")
        for info in infos:
            # Every XML part, not only those under xl/worksheets/: the workbook may point anywhere for a sheet.
            if _is_xml(info.filename):
                refusal = _count_refusal(archive, info)
                if refusal is not None:
                    return refusal
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
    return _refusal(code, sheet=_sheet_title(archive, info.filename), count=count, limit=limit)


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
        from defusedxml import ElementTree

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


def _refusal(code: str, **params: object) -> Issue:
    sheet = {"too_many_players": "Players", "too_many_games": "Games"}.get(code, "")
    return Issue(code=code, sheet=sheet, cell="", params=params)


def _is_defused_error(exc: BaseException) -> bool:
    from defusedxml import DefusedXmlException

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, DefusedXmlException):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


class _Refused(Exception):
    """Raised inside the reader to stop at a limit; carries the refusal issue."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.code)
        self.issue = issue


# ------------------------------------------------------------------------------------------------ reading


def read_sheet(data: bytes, *, today: date, max_bytes: int = MAX_BYTES) -> ParsedSheet:
    """Everything that can be checked without the federation's database: the guard, the structure, the kinds
    and ranges of values, and the consistency of the sheet with itself. Never raises."""
    try:
        content_hash = hashlib.sha256(data).hexdigest()
    except Exception:  # not bytes at all: still a report, never an exception
        return _refused_sheet(_refusal("unreadable"), "")
    try:
        refusal = guard(data, max_bytes=max_bytes)
        if refusal is not None:
            return _refused_sheet(refusal, content_hash)
        with warnings.catch_warnings():
            # openpyxl warns about features it drops (extensions, print settings); none matter here.
            warnings.simplefilter("ignore")
            workbook = _open_workbook(data)
            try:
                parsed = _Reader(workbook=workbook, today=today, content_hash=content_hash).read()
            finally:
                workbook.close()
        return parsed
    except _Refused as refused:
        return _refused_sheet(refused.issue, content_hash)
    except Exception as exc:
        if _is_defused_error(exc):
            return _refused_sheet(_refusal("xml_entities", part="?"), content_hash)
        if isinstance(exc, KeyError):
            # openpyxl looks parts up by name: a zip without the workbook's parts fails this way.
            return _refused_sheet(_refusal("not_a_workbook"), content_hash)
        return _refused_sheet(_refusal("unreadable"), content_hash)


class _UnsizedWorksheet(ReadOnlyWorksheet):
    """openpyxl's read-only worksheet, minus the search for its declared size on opening. That search parses
    the sheet's XML until it meets <dimension>, so a sheet without one (openpyxl's own write-only mode writes
    none) is parsed whole before its first row is read: a hostile sheet of a million rows would cost seconds.
    The declared size is never used here anyway (see _raw_rows)."""

    def _get_size(self) -> None:
        return None


class _SheetReader(ExcelReader):
    """openpyxl's reader, opening worksheets as _UnsizedWorksheet. Chartsheets are left out: the reader never
    needs them."""

    def read_worksheets(self) -> None:
        for sheet, rel in self.parser.find_sheets():
            if rel.target not in self.valid_files or "chartsheet" in rel.Type:
                continue
            worksheet = _UnsizedWorksheet(self.wb, sheet.name, rel.target, self.shared_strings)
            worksheet.sheet_state = sheet.state
            self.wb._sheets.append(worksheet)


def _open_workbook(data: bytes) -> Any:
    """What load_workbook(read_only=True, data_only=True, keep_links=False) gives, worksheets unsized."""
    reader = _SheetReader(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    reader.read()
    return reader.wb


def _refused_sheet(issue: Issue, content_hash: str) -> ParsedSheet:
    return ParsedSheet(
        tournament=None, players=[], games=[], report=Report(errors=[issue]), content_hash=content_hash
    )


class _Reader:
    """One reading of one workbook: collects the issues while it walks the three sheets."""

    def __init__(self, *, workbook: Any, today: date, content_hash: str) -> None:
        self.workbook = workbook
        self.today = today
        self.content_hash = content_hash
        self.report = Report()
        self.fields: dict[str, Any] = {}
        self.tournament_cells: dict[str, str] = {}
        self.player_columns: dict[str, str] = {}
        self.game_columns: dict[str, str] = {}
        self.players: dict[str, SheetPlayer] = {}
        self.games: list[SheetGame] = []
        self.players_read = False
        self.games_read = False

    # -- issues

    def error(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="error"))

    def warning(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="warning"))

    # -- the whole workbook

    def read(self) -> ParsedSheet:
        sheets = self._find_sheets()
        tournament_errors = len(self.report.errors)
        if sheets["Tournament"] is not None:
            self._read_tournament(sheets["Tournament"])
        tournament_ok = sheets["Tournament"] is not None and len(self.report.errors) == tournament_errors
        if sheets["Players"] is not None:
            self._read_players(sheets["Players"])
        if sheets["Games"] is not None:
            self._read_games(sheets["Games"])
        if self.players_read and self.games_read:
            self._check_games()
            self._check_players_play()
            if sheets["Tournament"] is not None:
                try:
                    self._check_charter()
                except Exception:
                    # These are warnings only: a fault in the scoring module must not block an import. It is
                    # logged, since it should never happen.
                    logger.exception("charter conditions could not be checked")
        self.report.bound()
        return ParsedSheet(
            tournament=self._tournament() if tournament_ok else None,
            players=list(self.players.values()),
            games=self.games,
            report=self.report,
            content_hash=self.content_hash,
            tournament_fields=self.fields,
            tournament_cells=self.tournament_cells,
            player_columns=self.player_columns,
            game_columns=self.game_columns,
        )

    def _find_sheets(self) -> dict[str, Any]:
        by_name: dict[str, Any] = {}
        for title in self.workbook.sheetnames:
            worksheet = self.workbook[title]
            if isinstance(worksheet, ReadOnlyWorksheet):
                by_name.setdefault(title.strip().casefold(), worksheet)
        found: dict[str, Any] = {}
        for name in SHEETS:
            found[name] = by_name.get(name.casefold())
            if found[name] is None:
                self.error("missing_sheet", name, "", sheet=name)
        return found

    # -- Tournament

    def _read_tournament(self, worksheet: Any) -> None:
        index = {_header(label): key for key, label, _ in TOURNAMENT_LABELS} | _ALIASES
        rows: dict[str, tuple[int, object]] = {}
        for number, values in _rows(worksheet, min_row=1, max_col=2, columns=(0, 1)):
            if number > MAX_TOURNAMENT_ROWS:
                break
            key = index.get(_header(values[0]))
            if key is None:
                continue  # notes and unknown labels are the referee's business
            if key in rows:
                self.error(
                    "duplicate_label",
                    "Tournament",
                    f"A{number}",
                    label=_label(key),
                    first_cell=f"A{rows[key][0]}",
                )
                continue
            rows[key] = (number, values[1])
            self.tournament_cells[key] = f"B{number}"

        for position, (key, label, required) in enumerate(TOURNAMENT_LABELS, start=1):
            if key not in rows:
                if required:
                    self.error("missing_label", "Tournament", f"A{position}", label=label)
                continue
            number, value = rows[key]
            cell = f"B{number}"
            if _is_blank(value):
                if required:
                    self.error("missing_value", "Tournament", cell, field=label)
                continue
            parsed = self._tournament_value(key=key, label=label, value=value, cell=cell)
            if parsed is not None:
                self.fields[key] = parsed

        # Defaults of the optional values, applied only when the value is blank: an unreadable one has been
        # reported and stays absent. A blank Tournament ID is kept as None (a tournament new to the site),
        # which check_sheet tells apart from an unreadable one.
        defaults = {"tournament_id": None, "rating_system": "adlg", "worlds": False, "official": True}
        for key, default in defaults.items():
            if key not in rows or _is_blank(rows[key][1]):
                self.fields[key] = default
        start, end = self.fields.get("start"), self.fields.get("end")
        if isinstance(start, date) and isinstance(end, date) and start > end:
            self.error(
                "start_after_end",
                "Tournament",
                self.tournament_cells["end"],
                start=start.isoformat(),
                end=end.isoformat(),
            )

    def _tournament_value(self, *, key: str, label: str, value: object, cell: str) -> object | None:
        """The parsed value, or None after reporting why it is wrong."""
        sheet = "Tournament"
        if key == "format":
            text = _text(value)
            if text != FORMAT:
                self.error("unknown_format", sheet, cell, value=_shown(value), expected=FORMAT)
                return None
            return text
        if key in ("name", "city", "referee", "organising_club"):
            text = _text(value)
            return text if self._text_ok(key=key, label=label, text=text, sheet=sheet, cell=cell) else None
        if key == "rating_system":
            system = _rating_system(value)
            if system is None:
                self.error("unknown_rating_system", sheet, cell, value=_shown(value))
            return system
        if key in ("start", "end"):
            try:
                day = parse_date(value)
            except ValueError:
                self.error("not_date", sheet, cell, field=label, value=_shown(value))
                return None
            if day > self.today:
                self.error(
                    "date_in_future",
                    sheet,
                    cell,
                    field=label,
                    value=day.isoformat(),
                    today=self.today.isoformat(),
                )
                return None
            return day
        if key == "country":
            return self._country(value=value, sheet=sheet, cell=cell)
        if key in ("worlds", "official"):
            try:
                return parse_boolean(value)
            except ValueError:
                self.error("not_boolean", sheet, cell, field=label, value=_shown(value))
                return None
        bounds = {"tournament_id": (1, None), "army_points": (100, 300), "rounds": (1, 12)}[key]
        return self._whole(
            value=value, label=label, sheet=sheet, cell=cell, minimum=bounds[0], maximum=bounds[1]
        )

    def _tournament(self) -> SheetTournament | None:
        f = self.fields
        try:
            return SheetTournament(
                tournament_id=f.get("tournament_id"),
                name=f["name"],
                rating_system=f["rating_system"],
                start=f["start"],
                end=f["end"],
                city=f["city"],
                country=f["country"],
                organising_club=f.get("organising_club"),
                referee=f["referee"],
                army_points=f.get("army_points"),
                rounds=f["rounds"],
                worlds=f["worlds"],
                official=f["official"],
            )
        except KeyError:  # pragma: no cover - every required field has been reported missing already
            return None

    # -- shared value checks

    def _faults(self, faults: list[Fault], sheet: str, cell_of) -> bool:
        """Reports each fault at the cell of its field; True when there was none."""
        for fault in faults:
            self.error(fault.code, sheet, cell_of(fault.field), **dict(fault.params))
        return not faults

    def _text_ok(self, *, key: str, label: str, text: str | None, sheet: str, cell: str) -> bool:
        return self._faults(text_faults(key=key, label=label, text=text), sheet, lambda _field: cell)

    def _whole(
        self, *, value: object, label: str, sheet: str, cell: str, minimum: int, maximum: int | None
    ) -> int | None:
        try:
            number = parse_whole_number(value)
        except ValueError:
            self.error("not_whole_number", sheet, cell, field=label, value=_shown(value))
            return None
        if maximum is None and number < minimum:
            self.error("below_minimum", sheet, cell, field=label, value=number, minimum=minimum)
            return None
        if maximum is not None and not minimum <= number <= maximum:
            self.error(
                "out_of_range", sheet, cell, field=label, value=number, minimum=minimum, maximum=maximum
            )
            return None
        return number

    def _country(self, *, value: object, sheet: str, cell: str) -> str | None:
        code = (_text(value) or "").upper()
        if code not in COUNTRY_CODES:
            self.error("unknown_country", sheet, cell, value=_shown(value))
            return None
        return code

    def _columns(
        self, *, worksheet: Any, sheet: str, spec: Sequence[tuple[str, str, bool]], required: set[str]
    ) -> dict[str, int]:
        """The 1-based column of each known header of row 1; reports missing and duplicated headers."""
        index = {_header(header): key for key, header, _ in spec}
        header_row = next(iter(_raw_rows(worksheet, min_row=1, max_row=1, max_col=MAX_COLUMNS)), ())
        columns: dict[str, int] = {}
        for position, value in enumerate(header_row, start=1):
            key = index.get(_header(value))
            if key is None:
                continue
            if key in columns:
                first = f"{get_column_letter(columns[key])}1"
                self.error(
                    "duplicate_column",
                    sheet,
                    f"{get_column_letter(position)}1",
                    sheet=sheet,
                    column=_column_header(spec, key),
                    first_cell=first,
                )
                continue
            columns[key] = position
        for position, (key, header, _) in enumerate(spec, start=1):
            if key in required and key not in columns:
                self.error(
                    "missing_column", sheet, f"{get_column_letter(position)}1", sheet=sheet, column=header
                )
        return columns

    # -- Players

    def _read_players(self, worksheet: Any) -> None:
        sheet = "Players"
        required = {key for key, _, needed in PLAYER_COLUMNS if needed}
        columns = self._columns(worksheet=worksheet, sheet=sheet, spec=PLAYER_COLUMNS, required=required)
        self.player_columns = {key: get_column_letter(position) for key, position in columns.items()}
        if "id" not in columns:
            return
        self.players_read = True
        pools: dict[str, str] = {}  # casefolded pool -> the spelling first met, so 'a' and 'A' are one pool
        count = 0
        for number, values in _rows(
            worksheet, min_row=2, max_col=max(columns.values()), columns=[c - 1 for c in columns.values()]
        ):
            count += 1
            if count > MAX_PLAYERS:
                raise _Refused(_refusal("too_many_players", limit=MAX_PLAYERS))
            row = {key: values[position - 1] for key, position in columns.items()}

            def cell(key: str, number: int = number) -> str:
                return f"{self.player_columns.get(key, 'A')}{number}"

            raw_id = row["id"]
            if _is_blank(raw_id):
                self.error("missing_value", sheet, cell("id"), field="ID")
                continue
            try:
                key = parse_player_key(raw_id)
            except ValueError:
                self.error("bad_player_id", sheet, cell("id"), value=_shown(raw_id))
                continue
            if key in self.players:
                self.error("duplicate_player", sheet, cell("id"), key=key, first_row=self.players[key].row)
                continue

            texts: dict[str, str | None] = {}
            for text_key, header in (
                ("last_name", "Last name"),
                ("first_name", "First name"),
                ("club", "Club"),
                ("pool", "Pool"),
                ("army", "Army"),
                ("penalty_reason", "Penalty reason"),
            ):
                texts[text_key] = _text(row.get(text_key))
                self._text_ok(key=text_key, label=header, text=texts[text_key], sheet=sheet, cell=cell(text_key))
            last_name, first_name = texts["last_name"], texts["first_name"]
            if key.startswith("N"):
                for name_key, header in (("last_name", "Last name"), ("first_name", "First name")):
                    if name_key in columns and _text(row.get(name_key)) is None:
                        self.error("new_player_name_required", sheet, cell(name_key), key=key, field=header)

            country = None
            if not _is_blank(row.get("country")):
                country = self._country(value=row["country"], sheet=sheet, cell=cell("country"))

            pool_text = texts["pool"] or "A"
            pool = pools.setdefault(pool_text.casefold(), pool_text)

            penalty = 0
            if not _is_blank(row.get("penalty")):
                penalty = (
                    self._whole(
                        value=row["penalty"],
                        label="Penalty",
                        sheet=sheet,
                        cell=cell("penalty"),
                        minimum=0,
                        maximum=None,
                    )
                    or 0
                )
            reason = texts["penalty_reason"]
            if penalty > 0 and reason is None:
                place = "penalty_reason" if "penalty_reason" in columns else "penalty"
                self.error("penalty_reason_required", sheet, cell(place), key=key, penalty=penalty)

            self.players[key] = SheetPlayer(
                row=number,
                key=key,
                player_id=None if key.startswith("N") else int(key),
                last_name=last_name or "",
                first_name=first_name or "",
                club=texts["club"],
                country=country,
                pool=pool,
                army=texts["army"],
                penalty=penalty,
                penalty_reason=reason,
            )

    # -- Games

    def _read_games(self, worksheet: Any) -> None:
        sheet = "Games"
        system = self.fields.get("rating_system")
        required = {key for key, _, needed in GAME_COLUMNS if needed}
        if system == "adlg":
            required |= {"a_losses", "b_losses"}
        columns = self._columns(worksheet=worksheet, sheet=sheet, spec=GAME_COLUMNS, required=required)
        self.game_columns = {key: get_column_letter(position) for key, position in columns.items()}
        if not {"round", "a", "b"} <= columns.keys():
            return
        self.games_read = True
        rounds = self.fields.get("rounds")
        system_known = system if isinstance(system, str) else None
        tables_in_round: dict[int, int] = {}
        count = 0
        for number, values in _rows(
            worksheet, min_row=2, max_col=max(columns.values()), columns=[c - 1 for c in columns.values()]
        ):
            count += 1
            if count > MAX_GAMES:
                raise _Refused(_refusal("too_many_games", limit=MAX_GAMES))
            row = {key: values[position - 1] for key, position in columns.items()}

            def cell(key: str, number: int = number) -> str:
                return f"{self.game_columns.get(key, self.game_columns['round'])}{number}"

            round_number = self._round(row["round"], cell("round"), rounds)
            if round_number is not None:
                tables_in_round[round_number] = tables_in_round.get(round_number, 0) + 1

            table = None
            if "table" in columns and not _is_blank(row["table"]):
                table = self._whole(
                    value=row["table"],
                    label="Table",
                    sheet=sheet,
                    cell=cell("table"),
                    minimum=1,
                    maximum=None,
                )

            keys = []
            for side, header in (("a", "Player A"), ("b", "Player B")):
                if _is_blank(row[side]):
                    self.error("missing_value", sheet, cell(side), field=header)
                    keys.append(None)
                    continue
                try:
                    keys.append(parse_player_key(row[side]))
                except ValueError:
                    self.error("bad_player_id", sheet, cell(side), value=_shown(row[side]))
                    keys.append(None)

            result = ""
            if "result" in columns:
                if _is_blank(row["result"]):
                    self.error("missing_value", sheet, cell("result"), field="Result")
                else:
                    result = re.sub(r"\s+", "", str(_text(row["result"]))).upper()
                    self._faults(
                        result_faults(system=system_known, result=result, shown=_shown(row["result"])),
                        sheet,
                        cell,
                    )

            losses: dict[str, int | None] = {"a_losses": None, "b_losses": None}
            unreadable = set()
            for side, header in (("a_losses", "A losses %"), ("b_losses", "B losses %")):
                if side not in columns or _is_blank(row[side]):
                    continue
                try:
                    losses[side] = parse_whole_number(row[side])
                except ValueError:
                    self.error("not_whole_number", sheet, cell(side), field=header, value=_shown(row[side]))
                    unreadable.add(side)
            losses_problems = [
                fault
                for fault in losses_faults(
                    system=system_known, result=result, a_losses=losses["a_losses"], b_losses=losses["b_losses"]
                )
                # A missing column is reported once, at its header; an unreadable value at its cell.
                if fault.field in columns and fault.field not in unreadable
            ]
            if not self._faults(losses_problems, sheet, cell):
                for fault in losses_problems:
                    losses[fault.field] = None

            free = False
            if "free" in columns and not _is_blank(row["free"]):
                try:
                    free = parse_boolean(row["free"])
                except ValueError:
                    self.error(
                        "not_boolean", sheet, cell("free"), field="Free game", value=_shown(row["free"])
                    )

            if round_number is None or keys[0] is None or keys[1] is None:
                continue
            self.games.append(
                SheetGame(
                    row=number,
                    round=round_number,
                    table=table if table is not None else tables_in_round[round_number],
                    a=keys[0],
                    b=keys[1],
                    result=result,
                    a_losses=losses["a_losses"],
                    b_losses=losses["b_losses"],
                    free=free,
                )
            )

    def _round(self, value: object, cell: str, rounds: object) -> int | None:
        if _is_blank(value):
            self.error("missing_value", "Games", cell, field="Round")
            return None
        try:
            number = parse_whole_number(value)
        except ValueError:
            self.error("not_whole_number", "Games", cell, field="Round", value=_shown(value))
            return None
        if isinstance(rounds, int):
            if not self._faults(round_faults(round_number=number, rounds=rounds), "Games", lambda _field: cell):
                return None
        elif not 1 <= number <= 12:
            # Rounds itself is unreadable (reported on the Tournament sheet): the format's range holds.
            self.error("out_of_range", "Games", cell, field="Round", value=number, minimum=1, maximum=12)
            return None
        return number

    # -- consistency of the games with each other and with the players

    def _check_games(self) -> None:
        sheet = "Games"
        columns = self.game_columns
        rounds = self.fields.get("rounds")
        last_round = rounds if isinstance(rounds, int) else max((g.round for g in self.games), default=0)
        same_club_rounds = 2 if isinstance(rounds, int) and rounds >= 4 else 1
        seen_in_round: dict[tuple[int, str, str], int] = {}  # (round, key, pool of a spare's game) -> row
        met: dict[frozenset[str], int] = {}
        for game in self.games:
            a_cell, b_cell = f"{columns['a']}{game.row}", f"{columns['b']}{game.row}"
            listed = True
            for key, place in ((game.a, a_cell), (game.b, b_cell)):
                # The spare too: every player of a game is registered in the tournament, 99 included.
                if key not in self.players:
                    self.error("not_in_players", sheet, place, key=key)
                    listed = False
            if not self._faults(same_player_faults(a=game.a, b=game.b), sheet, lambda _field, b_cell=b_cell: b_cell):
                continue
            pool = self._game_pool(game)
            for key, place in ((game.a, a_cell), (game.b, b_cell)):
                # One spare may serve every pool (all use ID 99), so it is once per round *per pool*.
                slot = (game.round, key, pool if key == SPARE else "")
                if slot in seen_in_round:
                    self.error(
                        "player_twice_in_round",
                        sheet,
                        place,
                        key=key,
                        round=game.round,
                        first_row=seen_in_round[slot],
                    )
                else:
                    seen_in_round[slot] = game.row
            if not listed:
                continue
            # The spare has no pool and no club: it is left out of both checks.
            a = self.players.get(game.a) if game.a != SPARE else None
            b = self.players.get(game.b) if game.b != SPARE else None
            if a is not None and b is not None:
                if a.pool.casefold() != b.pool.casefold():
                    self.error(
                        "different_pools", sheet, b_cell, a=a.key, pool_a=a.pool, b=b.key, pool_b=b.pool
                    )
                if game.round <= same_club_rounds and a.club and b.club and _fold(a.club) == _fold(b.club):
                    self.warning(
                        "same_club_pairing", sheet, b_cell, a=a.key, b=b.key, club=a.club, round=game.round
                    )
            if SPARE not in (game.a, game.b):
                pair = frozenset((game.a, game.b))
                if pair in met:
                    self.error("players_met_twice", sheet, a_cell, a=game.a, b=game.b, first_row=met[pair])
                else:
                    met[pair] = game.row
        for game in self.games:
            place = f"{columns.get('free', columns['round'])}{game.row}"
            self._faults(
                free_game_faults(free=game.free, round_number=game.round, last_round=last_round),
                sheet,
                lambda _field, place=place: place,
            )

    def _game_pool(self, game: SheetGame) -> str:
        for key in (game.a, game.b):
            player = self.players.get(key)
            if key != SPARE and player is not None:
                return player.pool.casefold()
        return ""

    def _check_players_play(self) -> None:
        playing = {key for game in self.games for key in (game.a, game.b)}
        for player in self.players.values():
            if player.key != SPARE and player.key not in playing:
                self.warning(
                    "player_without_game",
                    "Players",
                    f"{self.player_columns['id']}{player.row}",
                    key=player.key,
                )

    def _check_charter(self) -> None:
        """The charter's conditions (App. 1 §3-4) as warnings. They decide whether an AdlG tournament counts
        for the championship, which Battle Empire does not have, so they are checked for AdlG only."""
        if self.fields.get("rating_system") != "adlg":
            return
        from rules.charter import CharterEntrant, charter_failures

        playing = {key for game in self.games for key in (game.a, game.b)}
        ranked = [p for p in self.players.values() if p.key != SPARE and p.key in playing]
        rounds_by_pool: dict[str, set[int]] = {p.pool: set() for p in ranked}
        spellings = {p.pool.casefold(): p.pool for p in ranked}
        for game in self.games:
            pool = spellings.get(self._game_pool(game))
            if pool is not None and not game.free:
                rounds_by_pool[pool].add(game.round)
        # One club however its name is cased or spaced: the first spelling met stands for all.
        clubs: dict[str, str] = {}
        entrants = [
            CharterEntrant(
                # A tag has no ID yet: it stands as -k for Nk, an ID the federation never gives.
                player=p.player_id if p.player_id is not None else -int(p.key[1:]),
                club=clubs.setdefault(_fold(p.club), p.club) if p.club else None,
                pool=p.pool,
            )
            for p in ranked
        ]
        failures = charter_failures(
            official=bool(self.fields.get("official", True)),
            entrants=entrants,
            rounds_by_pool={pool: len(rounds) for pool, rounds in rounds_by_pool.items()},
        )
        for failure in failures:
            place = {"not_official": "official", "too_few_rounds": "rounds"}.get(failure.code)
            cell = self.tournament_cells.get(place, "") if place else ""
            self.warning(failure.code, "Tournament", cell, **dict(failure.params))


def _rating_system(value: object) -> str | None:
    text = re.sub(r"[\s_]+", "-", (_text(value) or "").casefold())
    return {"adlg": "adlg", "battle-empire": "battle-empire", "battleempire": "battle-empire"}.get(text)


def _label(key: str) -> str:
    return next(label for k, label, _ in TOURNAMENT_LABELS if k == key)


def _column_header(spec: Sequence[tuple[str, str, bool]], key: str) -> str:
    return next(header for k, header, _ in spec if k == key)


def _raw_rows(worksheet: Any, *, min_row: int, max_row: int | None, max_col: int) -> Iterator[tuple]:
    # The declared dimension is ignored (reset) because it may lie either way: too small hides rows, too big
    # (A1:XFD1048576) would make openpyxl pad every row to 16,384 cells. max_col bounds the width instead.
    worksheet.reset_dimensions()
    return worksheet.iter_rows(min_row=min_row, max_row=max_row, min_col=1, max_col=max_col, values_only=True)


def _rows(
    worksheet: Any, *, min_row: int, max_col: int, columns: Sequence[int]
) -> Iterator[tuple[int, tuple]]:
    """(row number, values) of the rows not blank in the given 0-based columns, from min_row on, stopping
    after BLANK_RUN blank rows in a row."""
    blank_run = 0
    raw = _raw_rows(worksheet, min_row=min_row, max_row=None, max_col=max_col)
    for number, values in enumerate(raw, start=min_row):
        if all(_is_blank(values[c]) for c in columns if c < len(values)):
            blank_run += 1
            if blank_run >= BLANK_RUN:
                return
            continue
        blank_run = 0
        yield number, values


_SHEET_ORDER = {"": 0, "Tournament": 1, "Players": 2, "Games": 3}


def _issue_order(issue: Issue) -> tuple[int, int, int]:
    if not issue.cell:
        return (_SHEET_ORDER.get(issue.sheet, 4), 0, 0)
    try:
        column, row = coordinate_from_string(issue.cell)
        return (_SHEET_ORDER.get(issue.sheet, 4), row, column_index_from_string(column))
    except ValueError:  # pragma: no cover - cells are made here
        return (_SHEET_ORDER.get(issue.sheet, 4), 0, 0)


# ---------------------------------------------------------------------------- what was read, kept as JSON

READING_VERSION = 1


def report_as_json(report: Report) -> dict[str, Any]:
    """The issues of a report (not their messages, which are rendered in each reader's language)."""

    def issue(item: Issue) -> dict[str, Any]:
        return {"code": item.code, "sheet": item.sheet, "cell": item.cell, "params": dict(item.params)}

    return {
        "errors": [issue(i) for i in report.errors],
        "warnings": [issue(i) for i in report.warnings],
        "more_errors": report.more_errors,
        "more_warnings": report.more_warnings,
    }


def report_from_json(data: Mapping[str, Any]) -> Report:
    def issues(key: str, severity: Severity) -> list[Issue]:
        return [
            Issue(code=i["code"], sheet=i["sheet"], cell=i["cell"], params=i.get("params", {}), severity=severity)
            for i in data.get(key, [])
        ]

    return Report(
        errors=issues("errors", "error"),
        warnings=issues("warnings", "warning"),
        more_errors=int(data.get("more_errors", 0)),
        more_warnings=int(data.get("more_warnings", 0)),
    )


def _json_value(value: object) -> object:
    if isinstance(value, date):
        return {"date": value.isoformat()}
    return value


def _from_json_value(value: object) -> object:
    if isinstance(value, dict) and set(value) == {"date"}:
        return date.fromisoformat(value["date"])
    return value


def parsed_as_json(parsed: ParsedSheet) -> dict[str, Any]:
    """Everything read_sheet found, as JSON values: parsed_from_json gives it back, equal, without the file."""
    tournament = parsed.tournament
    return {
        "version": READING_VERSION,
        "content_hash": parsed.content_hash,
        "tournament": (
            {key: _json_value(value) for key, value in vars(tournament).items()} if tournament else None
        ),
        "players": [vars(player) for player in parsed.players],
        "games": [vars(game) for game in parsed.games],
        "report": report_as_json(parsed.report),
        "tournament_fields": {key: _json_value(value) for key, value in parsed.tournament_fields.items()},
        "tournament_cells": dict(parsed.tournament_cells),
        "player_columns": dict(parsed.player_columns),
        "game_columns": dict(parsed.game_columns),
    }


def parsed_from_json(data: Mapping[str, Any]) -> ParsedSheet | None:
    """The ParsedSheet parsed_as_json kept, or None when `data` is not such a reading (an older one, or none)."""
    if not data or data.get("version") != READING_VERSION:
        return None
    tournament = data["tournament"]
    return ParsedSheet(
        tournament=(
            SheetTournament(**{key: _from_json_value(value) for key, value in tournament.items()})
            if tournament
            else None
        ),
        players=[SheetPlayer(**player) for player in data["players"]],
        games=[SheetGame(**game) for game in data["games"]],
        report=report_from_json(data["report"]),
        content_hash=data["content_hash"],
        tournament_fields={key: _from_json_value(value) for key, value in data["tournament_fields"].items()},
        tournament_cells=dict(data["tournament_cells"]),
        player_columns=dict(data["player_columns"]),
        game_columns=dict(data["game_columns"]),
    )


# ------------------------------------------------------------------------------ checks against the database


def referenced_ids(parsed: ParsedSheet) -> set[int]:
    """The federation IDs the sheet mentions (players and games, the spare left out): the service loads these
    players, and no others, into SheetContext.players."""
    keys = {p.key for p in parsed.players} | {k for g in parsed.games for k in (g.a, g.b)}
    return {int(key) for key in keys if key.isdigit() and key != SPARE}


def check_sheet(parsed: ParsedSheet, context: SheetContext) -> Report:
    """parsed.report plus the checks that need the federation's data, as a new report (parsed is left as it
    is, so calling this twice does not repeat issues)."""
    report = Report(
        errors=list(parsed.report.errors),
        warnings=list(parsed.report.warnings),
        more_errors=parsed.report.more_errors,
        more_warnings=parsed.report.more_warnings,
    )
    if parsed.report.refused:
        return report

    def add(code: str, severity: Severity, sheet: str, cell: str, /, **params: object) -> None:
        report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity=severity))

    fields = parsed.tournament_fields
    cells = parsed.tournament_cells
    id_cell = cells.get("tournament_id", "B2")  # the template's Tournament ID row when the label is missing
    tournament_id = fields.get("tournament_id")
    if isinstance(tournament_id, int):
        known = context.tournament
        if known is None or known.id != tournament_id:
            add("unknown_tournament_id", "error", "Tournament", id_cell, id=tournament_id)
        elif fields.get("rating_system") in RATING_SYSTEMS and known.rating_system != fields["rating_system"]:
            add(
                "rating_system_mismatch",
                "error",
                "Tournament",
                cells.get("rating_system", id_cell),
                id=known.id,
                sheet_system=SYSTEM_NAMES.get(str(fields["rating_system"]), fields["rating_system"]),
                site_system=SYSTEM_NAMES.get(known.rating_system, known.rating_system),
            )
    elif "tournament_id" in fields and context.same_name_and_start is not None:
        # A blank Tournament ID (an unreadable one is absent from fields, and reported) on a sheet whose
        # tournament the site already has.
        same = context.same_name_and_start
        add(
            "tournament_already_on_site",
            "error",
            "Tournament",
            id_cell,
            id=same.id,
            name=same.name,
            start=same.start.isoformat(),
        )

    columns = parsed.player_columns
    for player in parsed.players:
        id_place = f"{columns.get('id', 'A')}{player.row}"
        if player.player_id is None:
            match = context.name_club_index.get(
                name_club_key(last_name=player.last_name, first_name=player.first_name, club=player.club)
            )
            if match is not None and player.last_name and player.first_name:
                add(
                    "new_player_matches_known",
                    "warning",
                    "Players",
                    id_place,
                    key=player.key,
                    id=match,
                    last_name=player.last_name,
                    first_name=player.first_name,
                )
            continue
        if player.key == SPARE:
            continue
        known_player = context.players.get(player.player_id)
        if player.player_id in context.retired_ids or (known_player is not None and known_player.excluded):
            add("excluded_player", "error", "Players", id_place, id=player.player_id)
        elif known_player is None:
            add("unknown_player_id", "error", "Players", id_place, id=player.player_id)
        elif (player.last_name or player.first_name) and (
            _fold(player.last_name) != _fold(known_player.last_name)
            or _fold(player.first_name) != _fold(known_player.first_name)
        ):
            add(
                "name_differs",
                "warning",
                "Players",
                f"{columns.get('last_name', columns.get('id', 'A'))}{player.row}",
                id=player.player_id,
                sheet_name=f"{player.first_name} {player.last_name}".strip(),
                site_name=f"{known_player.first_name} {known_player.last_name}".strip(),
            )
    report.sort()
    return report
