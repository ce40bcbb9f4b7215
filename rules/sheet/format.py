"""The official result sheet's format (RESULT_SHEET.md, format ``adlg-result-sheet/1``): its sheets, labels and
columns, its vocabularies and every limit the site holds a file to.

Terms
-----
sheet
    One of the three worksheets ``Tournament``, ``Players``, ``Games``, found by name with case and surrounding
    spaces ignored. Other sheets (the template's ``Standings``) are never read.
label
    The text in column A of the Tournament sheet naming the value in column B of the same row.
header
    The text in row 1 of Players or Games naming its column. Columns may come in any order; extra columns are
    ignored.
refusal
    An issue that stops the reading of a file (REFUSAL_CODES): the report then holds only that issue.
"""

from __future__ import annotations

from typing import Literal

from rules.rulesets import SPARE_ID, SYSTEM_NAMES, SYSTEM_RULESETS, get_ruleset
from rules.scoring import LOSSES_REQUIRED

__all__ = ["LOSSES_REQUIRED", "SYSTEM_NAMES"]

FORMAT = "adlg-result-sheet/1"
SPARE = str(SPARE_ID)  # the spare's key in a sheet
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

RATING_SYSTEMS = tuple(SYSTEM_RULESETS)
# The result codes each rating system's sheet takes: its ruleset's (RESULT_SHEET.md `Result`).
RESULTS = {system: get_ruleset(code).result_codes for system, code in SYSTEM_RULESETS.items()}
# Every code some system takes, the rating systems' in turn: what a game of an unknown system may hold.
ALL_RESULTS = tuple(dict.fromkeys(code for codes in RESULTS.values() for code in codes))

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
# The losses columns are required in AdlG only (see rules.sheet.games_sheet).
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
ALIASES = {"organizing club": "organising_club"}

# The names the template carries on the French site (the template writes them from the translation catalogue,
# msgctxt "result sheet"; tests/sheets/test_template_languages.py holds the two to the same words). RESULT_SHEET.md
# names the English ones; a referee's sheet may use either, or mix them: the reader takes both.
SHEET_ALIASES = {"Tournament": ("Tournoi",), "Players": ("Joueurs",), "Games": ("Parties",)}
LABEL_ALIASES = {
    "tournament_id": "ID du tournoi", "name": "Nom", "rating_system": "Système Elo", "start": "Date de début",
    "end": "Date de fin", "city": "Ville", "country": "Pays", "organising_club": "Club organisateur",
    "referee": "Arbitre", "army_points": "Points d’armée", "rounds": "Rondes", "worlds": "Mondial",
    "official": "Officiel",
}
PLAYER_HEADER_ALIASES = {
    "last_name": "Nom", "first_name": "Prénom", "country": "Pays", "pool": "Poule", "army": "Armée",
    "penalty": "Pénalité", "penalty_reason": "Motif de la pénalité",
}
GAME_HEADER_ALIASES = {
    "round": "Ronde", "a": "Joueur A", "b": "Joueur B", "result": "Résultat", "a_losses": "Pertes A %",
    "b_losses": "Pertes B %", "free": "Partie libre",
}

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
        # a tournament in the exchange format (rules.exchange)
        "json_too_large",
        "json_not_utf8",
        "json_syntax",
        "json_syntax_constant",
        "json_duplicate_key",
        "json_too_deep",
        "json_not_object",
        "json_unknown_format",
        "json_too_many_players",
        "json_too_many_games",
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
        "json_too_large",
        "json_too_deep",
        "json_too_many_players",
        "json_too_many_games",
    }
)
# A tournament in the exchange format whose values its schema refuses (rules.exchange.reader): each issue names the
# value's path, and nothing of the file is read, so nothing is checked against the federation either.
JSON_SCHEMA_CODES = frozenset(
    {
        "json_missing_field",
        "json_unknown_field",
        "json_wrong_type",
        "json_not_allowed",
        "json_below_minimum",
        "json_above_maximum",
        "json_too_long",
        "json_bad_value",
    }
)

Severity = Literal["error", "warning"]


def label_of(key: str) -> str:
    """The Tournament sheet's label of a key."""
    return next(label for k, label, _ in TOURNAMENT_LABELS if k == key)


def sheet_titles(name: str) -> tuple[str, ...]:
    """Every title one of SHEETS may have, its English name first."""
    return (name, *SHEET_ALIASES.get(name, ()))


def header_of(spec, key: str) -> str:
    """The header of a key in a column spec (PLAYER_COLUMNS, GAME_COLUMNS)."""
    return next(header for k, header, _ in spec if k == key)
