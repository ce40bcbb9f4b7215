"""What the reader found in a sheet, as plain values, and what the site knows that the checks compare it with.

A reading is kept with the upload as JSON (`parsed_as_json`), so that the preview, the confirmation and the
annotated copy never parse the file again (`parsed_from_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rules.sheet.report import Report, report_as_json, report_from_json


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
    # The workbook's own title of each sheet (the report names sheets by their English names, as the API does).
    sheet_titles: dict[str, str] = field(default_factory=dict)
    # The file's format: "xlsx" (the result sheet) or "json" (rules.exchange, read as the same three sheets: its
    # issues' cells are those of rules.exchange.layout, which names them by JSON path).
    source: str = "xlsx"


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


# --- what was read, kept as JSON

READING_VERSION = 1


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
        "sheet_titles": dict(parsed.sheet_titles),
        "source": parsed.source,
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
        sheet_titles=dict(data.get("sheet_titles") or {}),  # a reading kept before titles were
        source=data.get("source") or "xlsx",  # a reading kept before JSON files were taken
    )
