"""The official result sheet (format ``adlg-result-sheet/1``, RESULT_SHEET.md), read and checked without a
database: the import service reads a workbook (`read_sheet`), loads what the site knows of the IDs and the
tournament it names (`referenced_ids`), checks it against that (`check_sheet`), and writes it all or nothing.

Modules: format (sheets, labels, columns, vocabularies, limits), values (cells as numbers, booleans, dates,
keys, texts), guard (the raw file's checks before any parsing), reader (`read_sheet`: the three sheets read and
checked with each other), workbook (opening the file with openpyxl), reading (what the sheet readers share),
rows (a worksheet's rows and records), tournament_sheet, players_sheet and games_sheet (each sheet read),
consistency (the sheets checked against each other), report (issues, their places and order), parsed (what was
read, kept as JSON), checks (the rules shared with the admin, and the checks against the federation), messages
(every issue's sentence in English and French).
"""

from rules.sheet.checks import Fault, check_sheet, game_faults, referenced_ids, text_faults
from rules.sheet.format import FORMAT, LIMIT_CODES, MAX_BYTES, REFUSAL_CODES, SHEETS, TOURNAMENT_LABELS
from rules.sheet.guard import guard, workbook_cells
from rules.sheet.parsed import (
    KnownPlayer,
    KnownTournament,
    ParsedSheet,
    SheetContext,
    SheetGame,
    SheetPlayer,
    SheetTournament,
    parsed_as_json,
    parsed_from_json,
)
from rules.sheet.reader import read_sheet
from rules.sheet.report import Issue, Report
from rules.sheet.values import name_club_key

__all__ = [
    "FORMAT", "LIMIT_CODES", "MAX_BYTES", "REFUSAL_CODES", "SHEETS", "TOURNAMENT_LABELS", "Fault", "Issue",
    "KnownPlayer", "KnownTournament", "ParsedSheet", "Report", "SheetContext", "SheetGame", "SheetPlayer",
    "SheetTournament", "check_sheet", "game_faults", "guard", "name_club_key", "parsed_as_json",
    "parsed_from_json", "read_sheet", "referenced_ids", "text_faults", "workbook_cells",
]
