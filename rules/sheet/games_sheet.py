"""Reading the Games sheet: one game a row, under the header row (GAME_COLUMNS, in any order).

Terms
-----
game
    A row whose round and both players could be read; a row missing any of them is reported and left out, its
    other values still checked so that the referee sees every fault at once.
table
    The Table column, or when blank the row's rank among the rows of its round.
rating system
    The Tournament sheet's, which decides the results allowed and whether losses are required (AdlG, for its
    columns and for the results that set the scores). Unreadable there, it is no system: any result of either
    system is allowed and no losses are required.
"""

from __future__ import annotations

import re
from typing import Any

from openpyxl.utils.cell import get_column_letter

from rules.sheet.checks import losses_faults, result_faults, round_faults
from rules.sheet.format import GAME_COLUMNS, GAME_HEADER_ALIASES, MAX_GAMES
from rules.sheet.parsed import SheetGame
from rules.sheet.reading import Reading
from rules.sheet.rows import header_columns, records
from rules.sheet.values import cell_text, is_blank, parse_boolean, parse_player_key, parse_whole_number, shown_value

SHEET = "Games"


def read_games(reading: Reading, worksheet: Any) -> None:
    """The games into reading.games in row order, their columns into reading.game_columns."""
    system = reading.fields.get("rating_system")
    required = {key for key, _, needed in GAME_COLUMNS if needed}
    if system == "adlg":
        required |= {"a_losses", "b_losses"}
    columns = header_columns(reading, worksheet, sheet=SHEET, spec=GAME_COLUMNS, required=required,
                             aliases=GAME_HEADER_ALIASES)
    reading.game_columns = {key: get_column_letter(position) for key, position in columns.items()}
    if not {"round", "a", "b"} <= columns.keys():
        return
    reading.games_read = True
    rounds = reading.fields.get("rounds")
    system_known = system if isinstance(system, str) else None
    tables_in_round: dict[int, int] = {}
    for number, row in records(worksheet, columns, limit=MAX_GAMES, too_many="too_many_games"):

        def cell(key: str, number: int = number) -> str:
            return f"{reading.game_columns.get(key, reading.game_columns['round'])}{number}"

        round_number = _round(reading, row["round"], cell("round"), rounds)
        if round_number is not None:
            tables_in_round[round_number] = tables_in_round.get(round_number, 0) + 1

        table = None
        if "table" in columns and not is_blank(row["table"]):
            table = reading.whole(
                value=row["table"],
                label="Table",
                sheet=SHEET,
                cell=cell("table"),
                minimum=1,
                maximum=None,
            )

        keys = []
        for side, header in (("a", "Player A"), ("b", "Player B")):
            if is_blank(row[side]):
                reading.error("missing_value", SHEET, cell(side), field=header)
                keys.append(None)
                continue
            try:
                keys.append(parse_player_key(row[side]))
            except ValueError:
                reading.error("bad_player_id", SHEET, cell(side), value=shown_value(row[side]))
                keys.append(None)

        result = ""
        if "result" in columns:
            if is_blank(row["result"]):
                reading.error("missing_value", SHEET, cell("result"), field="Result")
            else:
                result = re.sub(r"\s+", "", str(cell_text(row["result"]))).upper()
                reading.faults(
                    result_faults(system=system_known, result=result, shown=shown_value(row["result"])),
                    SHEET,
                    cell,
                )

        losses: dict[str, int | None] = {"a_losses": None, "b_losses": None}
        unreadable = set()
        for side, header in (("a_losses", "A losses %"), ("b_losses", "B losses %")):
            if side not in columns or is_blank(row[side]):
                continue
            try:
                losses[side] = parse_whole_number(row[side])
            except ValueError:
                reading.error("not_whole_number", SHEET, cell(side), field=header, value=shown_value(row[side]))
                unreadable.add(side)
        losses_problems = [
            fault
            for fault in losses_faults(
                system=system_known, result=result, a_losses=losses["a_losses"], b_losses=losses["b_losses"]
            )
            # A missing column is reported once, at its header; an unreadable value at its cell.
            if fault.field in columns and fault.field not in unreadable
        ]
        if not reading.faults(losses_problems, SHEET, cell):
            for fault in losses_problems:
                losses[fault.field] = None

        free = False
        if "free" in columns and not is_blank(row["free"]):
            try:
                free = parse_boolean(row["free"])
            except ValueError:
                reading.error(
                    "not_boolean", SHEET, cell("free"), field="Free game", value=shown_value(row["free"])
                )

        if round_number is None or keys[0] is None or keys[1] is None:
            continue
        reading.games.append(
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


def _round(reading: Reading, value: object, cell: str, rounds: object) -> int | None:
    if is_blank(value):
        reading.error("missing_value", SHEET, cell, field="Round")
        return None
    try:
        number = parse_whole_number(value)
    except ValueError:
        reading.error("not_whole_number", SHEET, cell, field="Round", value=shown_value(value))
        return None
    if isinstance(rounds, int):
        if not reading.faults(round_faults(round_number=number, rounds=rounds), SHEET, lambda _field: cell):
            return None
    elif not 1 <= number <= 12:
        # Rounds itself is unreadable (reported on the Tournament sheet): the format's range holds.
        reading.error("out_of_range", SHEET, cell, field="Round", value=number, minimum=1, maximum=12)
        return None
    return number
