"""One reading of a result sheet: what the sheet readers share while they walk the workbook — the report they add
issues to, what each sheet gave, and the value checks that place an issue at its cell.

Terms
-----
reading
    One pass over one workbook: Tournament first (the Games sheet depends on its rating system and rounds),
    then Players and Games (rules.sheet.tournament_sheet, players_sheet, games_sheet), then the checks of the
    sheets against each other (rules.sheet.consistency).
fields
    The Tournament sheet's values by key (TOURNAMENT_LABELS), parsed. A value wrong or missing is absent, once
    reported; the optional ones take their default when blank.
places
    Where a sheet's values were found: the cell of each Tournament value (``'B12'``), the column letter of each
    Players and Games header (``'C'``). What the checks between the sheets, and later those against the
    federation (check_sheet), find is reported there.
read
    Players (Games) is read when its header row has the ID (Round, Player A, Player B) column: without it no row
    can be told apart, and the checks between the sheets are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rules.sheet.checks import Fault, country_faults, text_faults
from rules.sheet.parsed import SheetGame, SheetPlayer
from rules.sheet.report import Issue, Report
from rules.sheet.values import cell_text, parse_whole_number, shown_value


@dataclass
class Reading:
    today: date
    report: Report = field(default_factory=Report)
    fields: dict[str, Any] = field(default_factory=dict)
    tournament_cells: dict[str, str] = field(default_factory=dict)
    player_columns: dict[str, str] = field(default_factory=dict)
    # The workbook's own title of each sheet found ("Joueurs" for Players in a French template).
    sheet_titles: dict[str, str] = field(default_factory=dict)
    game_columns: dict[str, str] = field(default_factory=dict)
    players: dict[str, SheetPlayer] = field(default_factory=dict)
    games: list[SheetGame] = field(default_factory=list)
    players_read: bool = False
    games_read: bool = False

    # -- issues

    def error(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="error"))

    def warning(self, code: str, sheet: str, cell: str, /, **params: object) -> None:
        self.report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity="warning"))

    def faults(self, faults: list[Fault], sheet: str, cell_of: Callable[[str], str]) -> bool:
        """Reports each fault at the cell of its field; True when there was none."""
        for fault in faults:
            self.error(fault.code, sheet, cell_of(fault.field), **dict(fault.params))
        return not faults

    # -- values every sheet has

    def text_ok(self, *, key: str, label: str, text: str | None, sheet: str, cell: str) -> bool:
        return self.faults(text_faults(key=key, label=label, text=text), sheet, lambda _field: cell)

    def whole(
        self, *, value: object, label: str, sheet: str, cell: str, minimum: int, maximum: int | None
    ) -> int | None:
        try:
            number = parse_whole_number(value)
        except ValueError:
            self.error("not_whole_number", sheet, cell, field=label, value=shown_value(value))
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

    def country(self, *, value: object, sheet: str, cell: str) -> str | None:
        """The country's ISO code, checked as the tournament day checks a new player's (checks.country_faults)."""
        text = cell_text(value)
        if text is None:
            self.error("unknown_country", sheet, cell, value=shown_value(value))
            return None
        return text.upper() if self.faults(country_faults(value=text), sheet, lambda _field: cell) else None
