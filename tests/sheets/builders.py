"""Builds result-sheet workbooks for the tests: a valid sheet, changed by one fault per test.

The valid sheet: an AdlG tournament of 10 players from four clubs and one independent, 3 rounds, no rematch,
no club paired with itself in round 1, every charter condition met. `two_pools=True` adds pool B: three
players and the spare 99, a round robin of 3 rounds.

Rows are kept as lists of cell values in sheet order, so a test can write anything a referee could: text for
numbers, a header renamed, a column moved. Cells are named the way the report names them (`player_cell`,
`game_cell`), so the tests never hard-code a column letter that a reordering would change.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from openpyxl import Workbook
from openpyxl.utils import get_column_letter

from adlg_site.words import words_in
from rules.sheet.parsed import ParsedSheet
from rules.sheet.reader import read_sheet
from rules.sheet.report import Issue, Report

TODAY = date(2024, 6, 1)

PLAYER_HEADERS = [
    "ID",
    "Last name",
    "First name",
    "Club",
    "Country",
    "Pool",
    "Army",
    "Penalty",
    "Penalty reason",
]
GAME_HEADERS = ["Round", "Table", "Player A", "Player B", "Result", "A losses %", "B losses %", "Free game"]

TOURNAMENT_ROWS: list[list[object]] = [
    ["Format", "adlg-result-sheet/1"],
    ["Tournament ID", None],
    ["Name", "Spring Clash"],
    ["Rating system", "adlg"],
    ["Start date", date(2024, 3, 16)],
    ["End date", date(2024, 3, 17)],
    ["City", "Lyon"],
    ["Country", "FR"],
    ["Organising club", "Alpha"],
    ["Referee", "Jean Arbitre"],
    ["Army points", 200],
    ["Rounds", 3],
    ["Worlds", "no"],
    ["Official", "yes"],
]

# ID, last name, first name, club, country, pool (army, penalty, reason filled in below)
PLAYERS: list[tuple[object, str, str, str | None, str | None, str]] = [
    (101, "Martin", "Paul", "Alpha", "FR", "A"),
    (102, "Bernard", "Luc", "Alpha", "FR", "A"),
    (103, "Dubois", "Marc", "Alpha", "FR", "A"),
    (104, "Smith", "John", "Beta", "GB", "A"),
    (105, "Jones", "Alan", "Beta", "GB", "A"),
    (106, "Brown", "Ian", "Beta", "GB", "A"),
    (107, "Garcia", "Ana", "Gamma", "ES", "A"),
    (108, "Lopez", "Juan", "Gamma", "ES", "A"),
    ("N1", "Nouveau", "Nina", None, "FR", "A"),
    ("N2", "Neuf", "Noé", "Delta", "BE", "A"),
]
POOL_B: list[tuple[object, str, str, str | None, str | None, str]] = [
    (201, "Rossi", "Marco", "Alpha", "IT", "B"),
    (202, "Weber", "Hans", "Beta", "DE", "B"),
    (203, "Silva", "Rui", "Gamma", "PT", "B"),
    (99, "Spare", "The", None, None, "B"),
]

# round, A, B, result, A losses, B losses
GAMES: list[tuple[int, object, object, str, int | None, int | None]] = [
    (1, 101, 104, "A", 20, 60),
    (1, 102, 107, "B", 55, 30),
    (1, 103, "N1", "D", 30, 40),
    (1, 105, 108, "DD", 50, 50),
    (1, 106, "N2", "A", 10, 45),
    (2, 101, 107, "A", 15, 70),
    (2, 102, 104, "D", 35, 35),
    (2, 103, 108, "B", 60, 25),
    (2, 105, "N2", "FA", None, None),
    (2, 106, "N1", "A", 5, 50),
    (3, 101, 105, "A", 25, 55),
    (3, 102, 106, "B", 45, 20),
    (3, 103, 104, "A", 30, 65),
    (3, 107, "N1", "D", 40, 30),
    (3, 108, "N2", "FB", None, None),
]
GAMES_B: list[tuple[int, object, object, str, int | None, int | None]] = [
    (1, 201, 202, "A", 20, 50),
    (1, 203, 99, "B", 40, 20),
    (2, 201, 203, "D", 30, 30),
    (2, 202, 99, "A", 10, 60),
    (3, 201, 99, "A", 15, 45),
    (3, 202, 203, "B", 55, 35),
]


@dataclass
class SheetBuilder:
    tournament: list[list[object]]
    player_headers: list[str]
    players: list[list[object]]
    game_headers: list[str]
    games: list[list[object]]
    # The title each of the three sheets gets in the workbook; None leaves the sheet out.
    titles: dict[str, str | None] = field(
        default_factory=lambda: {"Tournament": "Tournament", "Players": "Players", "Games": "Games"}
    )
    extra_sheets: dict[str, list[list[object]]] = field(default_factory=dict)

    @classmethod
    def valid(cls, *, two_pools: bool = False) -> SheetBuilder:
        players = PLAYERS + (POOL_B if two_pools else [])
        games = GAMES + (GAMES_B if two_pools else [])
        return cls(
            tournament=[list(row) for row in TOURNAMENT_ROWS],
            player_headers=list(PLAYER_HEADERS),
            players=[[*row, "Romans", None, None] for row in players],
            game_headers=list(GAME_HEADERS),
            games=[[r, None, a, b, res, la, lb, "no"] for r, a, b, res, la, lb in games],
        )

    # -- Tournament

    def set(self, label: str, value: object) -> SheetBuilder:
        """Sets the value of a Tournament label (adds the row if it is missing)."""
        for row in self.tournament:
            if row[0] == label:
                row[1] = value
                return self
        self.tournament.append([label, value])
        return self

    def drop_label(self, label: str) -> SheetBuilder:
        self.tournament = [row for row in self.tournament if row[0] != label]
        return self

    def tournament_cell(self, label: str) -> str:
        return f"B{self._tournament_row(label)}"

    def _tournament_row(self, label: str) -> int:
        return next(i for i, row in enumerate(self.tournament, start=1) if row[0] == label)

    # -- Players

    def player_row(self, key: object) -> int:
        """The sheet row of the (first) player whose ID cell is key."""
        return next(i for i, row in enumerate(self.players, start=2) if str(row[0]) == str(key))

    def set_player(self, key: object, header: str, value: object) -> SheetBuilder:
        self.players[self.player_row(key) - 2][self.player_headers.index(header)] = value
        return self

    def player_cell(self, key: object, header: str) -> str:
        return f"{get_column_letter(self.player_headers.index(header) + 1)}{self.player_row(key)}"

    def add_player(self, values: Sequence[object]) -> int:
        self.players.append(list(values) + [None] * (len(self.player_headers) - len(values)))
        return len(self.players) + 1

    def remove_player(self, key: object) -> SheetBuilder:
        del self.players[self.player_row(key) - 2]
        return self

    # -- Games

    def game_row(self, index: int) -> int:
        """The sheet row of the game at this position of GAMES (0-based)."""
        return index + 2

    def set_game(self, index: int, header: str, value: object) -> SheetBuilder:
        self.games[index][self.game_headers.index(header)] = value
        return self

    def game_cell(self, index: int, header: str) -> str:
        return f"{get_column_letter(self.game_headers.index(header) + 1)}{self.game_row(index)}"

    def add_game(self, values: Sequence[object]) -> int:
        """Appends a game row (values in header order, missing ones blank); returns its index."""
        self.games.append(list(values) + [None] * (len(self.game_headers) - len(values)))
        return len(self.games) - 1

    # -- columns

    def drop_column(self, sheet: str, header: str) -> SheetBuilder:
        headers, rows = self._table(sheet)
        position = headers.index(header)
        del headers[position]
        for row in rows:
            del row[position]
        return self

    def rename_column(self, sheet: str, header: str, new: str) -> SheetBuilder:
        headers, _ = self._table(sheet)
        headers[headers.index(header)] = new
        return self

    def move_column_first(self, sheet: str, header: str) -> SheetBuilder:
        headers, rows = self._table(sheet)
        position = headers.index(header)
        headers.insert(0, headers.pop(position))
        for row in rows:
            row.insert(0, row.pop(position))
        return self

    def _table(self, sheet: str) -> tuple[list[str], list[list[object]]]:
        if sheet == "Players":
            return self.player_headers, self.players
        return self.game_headers, self.games

    # -- output

    def build(self) -> bytes:
        workbook = Workbook()
        workbook.remove(workbook.active)
        for name, rows in (
            ("Tournament", self.tournament),
            ("Players", [self.player_headers, *self.players]),
            ("Games", [self.game_headers, *self.games]),
            *self.extra_sheets.items(),
        ):
            title = self.titles.get(name, name)
            if title is None:
                continue
            worksheet = workbook.create_sheet(title)
            for row in rows:
                worksheet.append(list(row))
                if any(isinstance(value, str) and value.startswith("=") for value in row):
                    # Text typed with a leading "=" (in a cell formatted as text, or after an apostrophe) is
                    # text in the file, not a formula: what a referee, or an attacker, can send.
                    for cell in worksheet[worksheet._current_row]:
                        if isinstance(cell.value, str) and cell.value.startswith("="):
                            cell.data_type = "s"
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()

    def read(self, *, today: date = TODAY) -> ParsedSheet:
        return read_sheet(self.build(), today=today)


def issues_of(report: Report, code: str) -> list[Issue]:
    return [issue for issue in report.issues() if issue.code == code]


def assert_issue(
    report: Report, *, code: str, sheet: str, cell: str, en: str, severity: str = "error"
) -> Issue:
    """The one issue of this code, checked in place, severity and exact English message; its French message
    must exist and differ."""
    found = issues_of(report, code)
    assert len(found) == 1, report.as_dict()
    issue = found[0]
    assert (issue.sheet, issue.cell, issue.severity) == (sheet, cell, severity)
    assert issue.message() == en
    french = issue.message(words_in("fr"))
    assert french and french != en
    return issue


def streamed_players_sheet(rows: int, *, junk_column: str | None = None, dimension: bool = True) -> bytes:
    """A workbook whose Players sheet holds `rows` more player rows (or, with junk_column, rows with a value
    only in that column, which the reader does not read), written in chunks. Without dimension, the sheet
    declares no size, as openpyxl's write-only mode does."""
    valid_data = SheetBuilder.valid().build()
    source = zipfile.ZipFile(io.BytesIO(valid_data))
    original = source.read("xl/worksheets/sheet2.xml").decode()
    if not dimension:
        original = re.sub(r'<dimension ref="[^"]*"\s*/>', "", original)
    head, tail = original.split("</sheetData>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != "xl/worksheets/sheet2.xml":
                target.writestr(info.filename, source.read(info))
        with target.open("xl/worksheets/sheet2.xml", "w", force_zip64=True) as part:
            part.write(head.encode())
            batch = []
            for number in range(12, 12 + rows):
                if junk_column:
                    batch.append(f'<row r="{number}"><c r="{junk_column}{number}"><v>1</v></c></row>')
                else:
                    batch.append(
                        f'<row r="{number}"><c r="A{number}"><v>{1000 + number}</v></c>'
                        f'<c r="B{number}" t="inlineStr"><is><t>P{number}</t></is></c>'
                        f'<c r="C{number}" t="inlineStr"><is><t>Q</t></is></c></row>'
                    )
                if len(batch) == 5000:
                    part.write("".join(batch).encode())
                    batch = []
            part.write(("".join(batch) + "</sheetData>" + tail).encode())
    return out.getvalue()
