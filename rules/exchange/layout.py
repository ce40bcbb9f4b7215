"""The tournament exchange format laid out as the result sheet's three sheets, and back: how a JSON document is read
by the sheet's own readers, and how the report's cells name the JSON fields.

Terms
-----
layout
    The Tournament sheet holds one label a row in the order of TOURNAMENT_LABELS (row n, the n-th label; its
    value in column B); Players and Games hold the header row of PLAYER_COLUMNS and GAME_COLUMNS in their order,
    then ``players[i]`` (``games[i]``) on row i + 2. So ``Games!E14`` is ``games[12].result``.
field
    A key of the sheet's format (``tournament_id``, ``a_losses``...) and its name in JSON: the same, but for the
    tournament's ``id`` and the document's top-level ``format``.
path
    Where a value is in the document, JSONPath-style: ``$.tournament.start``, ``$.players[3].id``. The JSON
    sender reads the report by these; the sheet's cells stay the issues' places (for their order and the
    preview's subjects).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import Any

from openpyxl.utils.cell import column_index_from_string, get_column_letter

from rules.sheet.format import FORMAT, GAME_COLUMNS, PLAYER_COLUMNS, TOURNAMENT_LABELS

# The sheet's key -> the JSON field, where they differ.
_TOURNAMENT_NAMES = {"tournament_id": "id"}
_PLAYER_NAMES: dict[str, str] = {}
_GAME_NAMES: dict[str, str] = {}

# What a JSON reading's sheets are called in the report (the issues keep the English sheet names).
JSON_TITLES = {"Tournament": "tournament", "Players": "players", "Games": "games"}

_CELL = re.compile(r"^([A-Z]{1,3})([0-9]+)$")


def tournament_field(key: str) -> str:
    return _TOURNAMENT_NAMES.get(key, key)


def player_field(key: str) -> str:
    return _PLAYER_NAMES.get(key, key)


def game_field(key: str) -> str:
    return _GAME_NAMES.get(key, key)


class RowsWorksheet:
    """Rows of values standing for a worksheet, with just what rules.sheet.rows asks of openpyxl's read-only one."""

    def __init__(self, rows: Sequence[Sequence[object]]) -> None:
        self._rows = rows

    def reset_dimensions(self) -> None:
        return None

    def iter_rows(self, *, min_row: int, max_row: int | None, min_col: int, max_col: int,
                  values_only: bool = True) -> Iterator[tuple]:
        last = len(self._rows) if max_row is None else min(max_row, len(self._rows))
        for number in range(min_row, last + 1):
            row = tuple(self._rows[number - 1][min_col - 1:max_col])
            yield row + (None,) * (max_col - min_col + 1 - len(row))


def worksheets(document: Mapping[str, Any]) -> dict[str, RowsWorksheet]:
    """The document (valid against the schema) as the three sheets of the layout."""
    tournament = document["tournament"]
    tournament_rows = []
    for key, label, _required in TOURNAMENT_LABELS:
        # The document's own format was checked already: the sheet's reader is given the sheet's.
        value = FORMAT if key == "format" else tournament.get(tournament_field(key))
        tournament_rows.append((label, value))
    players = [tuple(header for _, header, _ in PLAYER_COLUMNS)]
    players += [tuple(player.get(player_field(key)) for key, _, _ in PLAYER_COLUMNS) for player in document["players"]]
    games = [tuple(header for _, header, _ in GAME_COLUMNS)]
    games += [tuple(game.get(game_field(key)) for key, _, _ in GAME_COLUMNS) for game in document["games"]]
    return {"Tournament": RowsWorksheet(tournament_rows), "Players": RowsWorksheet(players),
            "Games": RowsWorksheet(games)}


def json_path(sheet: str, cell: str) -> str:
    """The path in the document of a cell of the layout ('' for an issue about the whole file)."""
    match = _CELL.match(cell or "")
    if sheet == "Tournament":
        if match is None:
            return "$.tournament"
        row = int(match[2])
        if not 1 <= row <= len(TOURNAMENT_LABELS):
            return "$.tournament"
        key = TOURNAMENT_LABELS[row - 1][0]
        return "$.format" if key == "format" else f"$.tournament.{tournament_field(key)}"
    specs = {"Players": ("players", PLAYER_COLUMNS, player_field), "Games": ("games", GAME_COLUMNS, game_field)}
    if sheet not in specs:
        return ""
    name, spec, field_name = specs[sheet]
    if match is None or int(match[2]) < 2:
        return f"$.{name}"
    index = int(match[2]) - 2
    column = column_index_from_string(match[1])
    if not 1 <= column <= len(spec):
        return f"$.{name}[{index}]"
    return f"$.{name}[{index}].{field_name(spec[column - 1][0])}"


def player_cell(index: int, key: str) -> str:
    """The layout's cell of a player's field (the inverse of json_path, for tests and the writer's checks)."""
    position = next(i for i, (k, _, _) in enumerate(PLAYER_COLUMNS, start=1) if k == key)
    return f"{get_column_letter(position)}{index + 2}"


def game_cell(index: int, key: str) -> str:
    position = next(i for i, (k, _, _) in enumerate(GAME_COLUMNS, start=1) if k == key)
    return f"{get_column_letter(position)}{index + 2}"


def iso(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value
