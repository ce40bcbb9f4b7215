"""Reads a result sheet: everything that can be checked without the federation's database — the guard, the
structure, the kinds and ranges of values, and the consistency of the sheet with itself.

Terms
-----
refused sheet
    A file the guard stops, that openpyxl cannot open, or that reaches a limit while it is read (too many
    players, too many games): its report holds the refusal alone, and nothing of the sheet is kept.
the three sheets
    Tournament, Players and Games (SHEETS), found by title whatever its case or surrounding spaces, the first
    of a title winning. Each is read by its own module (rules.sheet.tournament_sheet, players_sheet,
    games_sheet) into one reading (rules.sheet.reading); the checks between them are rules.sheet.consistency's.

`read_sheet` never raises, whatever the bytes: an unexpected failure becomes an ``unreadable`` refusal.
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from datetime import date
from typing import Any

from rules.sheet.consistency import check_charter, check_games, check_players_play
from rules.sheet.format import MAX_BYTES, SHEETS, sheet_titles
from rules.sheet.games_sheet import read_games
from rules.sheet.guard import Refused, guard, is_defused_error, refusal
from rules.sheet.naming import report_named, sheet_names
from rules.sheet.parsed import ParsedSheet
from rules.sheet.players_sheet import read_players
from rules.sheet.reading import Reading
from rules.sheet.report import Issue, Report
from rules.sheet.tournament_sheet import read_tournament, sheet_tournament
from rules.sheet.workbook import open_workbook, worksheets

logger = logging.getLogger(__name__)


def read_sheet(data: bytes, *, today: date, max_bytes: int = MAX_BYTES) -> ParsedSheet:
    """Everything that can be checked without the federation's database: the guard, the structure, the kinds
    and ranges of values, and the consistency of the sheet with itself. Never raises."""
    try:
        content_hash = hashlib.sha256(data).hexdigest()
    except Exception:  # not bytes at all: still a report, never an exception
        return _refused_sheet(refusal("unreadable"), "")
    try:
        stopped = guard(data, max_bytes=max_bytes)
        if stopped is not None:
            return _refused_sheet(stopped, content_hash)
        with warnings.catch_warnings():
            # openpyxl warns about features it drops (extensions, print settings); none matter here.
            warnings.simplefilter("ignore")
            workbook = open_workbook(data)
            try:
                parsed = _read(workbook, today=today, content_hash=content_hash)
            finally:
                workbook.close()
        return parsed
    except Refused as refused:
        return _refused_sheet(refused.issue, content_hash)
    except Exception as exc:
        if is_defused_error(exc):
            return _refused_sheet(refusal("xml_entities", part="?"), content_hash)
        if isinstance(exc, KeyError):
            # openpyxl looks parts up by name: a zip without the workbook's parts fails this way.
            return _refused_sheet(refusal("not_a_workbook"), content_hash)
        return _refused_sheet(refusal("unreadable"), content_hash)


def _refused_sheet(issue: Issue, content_hash: str) -> ParsedSheet:
    return ParsedSheet(
        tournament=None, players=[], games=[], report=Report(errors=[issue]), content_hash=content_hash
    )


def _read(workbook: Any, *, today: date, content_hash: str) -> ParsedSheet:
    reading = Reading(today=today)
    return read_worksheets(reading, _find_sheets(reading, workbook), content_hash=content_hash)


def read_worksheets(reading: Reading, sheets: dict[str, Any], *, content_hash: str) -> ParsedSheet:
    """The three sheets found (None for one missing, already reported) read and checked with each other. The
    tournament exchange format (rules.exchange) reads its JSON through here too, as worksheets of rows, so that
    both formats are held to the same checks."""
    tournament_errors = len(reading.report.errors)
    if sheets["Tournament"] is not None:
        read_tournament(reading, sheets["Tournament"])
    tournament_ok = sheets["Tournament"] is not None and len(reading.report.errors) == tournament_errors
    if sheets["Players"] is not None:
        read_players(reading, sheets["Players"])
    if sheets["Games"] is not None:
        read_games(reading, sheets["Games"])
    if reading.players_read and reading.games_read:
        check_games(reading)
        check_players_play(reading)
        if sheets["Tournament"] is not None:
            try:
                check_charter(reading)
            except Exception:
                # These are warnings only: a fault in the scoring module must not block an import. It is
                # logged, since it should never happen.
                logger.exception("charter conditions could not be checked")
    report_named(reading.report, sheet_names(reading.players))
    reading.report.bound()
    return ParsedSheet(
        tournament=sheet_tournament(reading.fields) if tournament_ok else None,
        players=list(reading.players.values()),
        games=reading.games,
        report=reading.report,
        content_hash=content_hash,
        tournament_fields=reading.fields,
        tournament_cells=reading.tournament_cells,
        player_columns=reading.player_columns,
        sheet_titles=reading.sheet_titles,
        game_columns=reading.game_columns,
    )


def _find_sheets(reading: Reading, workbook: Any) -> dict[str, Any]:
    by_name: dict[str, Any] = {}
    titles: dict[str, str] = {}
    for title, worksheet in worksheets(workbook):
        by_name.setdefault(title.strip().casefold(), worksheet)
        titles.setdefault(title.strip().casefold(), title.strip())
    found: dict[str, Any] = {}
    for name in SHEETS:
        # Tournament or Tournoi...: the first title of the name found, the English one before its aliases.
        found[name] = next((by_name[t.casefold()] for t in sheet_titles(name) if t.casefold() in by_name), None)
        if found[name] is None:
            reading.error("missing_sheet", name, "", sheet=name)
        else:
            title = next(t for t in sheet_titles(name) if t.casefold() in titles)
            reading.sheet_titles[name] = titles[title.casefold()]
    return found
