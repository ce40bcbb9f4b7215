"""Reading the Players sheet: one player a row, under the header row (PLAYER_COLUMNS, in any order).

Terms
-----
key
    The player's identity in the sheet (rules.sheet.values): a federation ID, the spare's 99 or a tag ``N1``
    for a player new to the federation. A key met twice is reported at its second row, which is not read.
tag
    A new player has no record to take a name from, so both names are required of a tag's row.
pool
    The Pool column, ``A`` when blank; ``a`` and ``A`` are one pool, spelt as first met.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils.cell import get_column_letter

from rules.sheet.format import MAX_PLAYERS, PLAYER_COLUMNS, PLAYER_HEADER_ALIASES
from rules.sheet.parsed import SheetPlayer
from rules.sheet.reading import Reading
from rules.sheet.rows import header_columns, records
from rules.sheet.values import cell_text, is_blank, parse_player_key, shown_value

SHEET = "Players"
_TEXTS = (
    ("last_name", "Last name"),
    ("first_name", "First name"),
    ("club", "Club"),
    ("pool", "Pool"),
    ("army", "Army"),
    ("penalty_reason", "Penalty reason"),
)


def read_players(reading: Reading, worksheet: Any) -> None:
    """The players into reading.players by key, their columns into reading.player_columns."""
    required = {key for key, _, needed in PLAYER_COLUMNS if needed}
    columns = header_columns(reading, worksheet, sheet=SHEET, spec=PLAYER_COLUMNS, required=required,
                             aliases=PLAYER_HEADER_ALIASES)
    reading.player_columns = {key: get_column_letter(position) for key, position in columns.items()}
    if "id" not in columns:
        return
    reading.players_read = True
    pools: dict[str, str] = {}  # casefolded pool -> the spelling first met
    for number, row in records(worksheet, columns, limit=MAX_PLAYERS, too_many="too_many_players"):

        def cell(key: str, number: int = number) -> str:
            return f"{reading.player_columns.get(key, 'A')}{number}"

        raw_id = row["id"]
        if is_blank(raw_id):
            reading.error("missing_value", SHEET, cell("id"), field="ID")
            continue
        try:
            key = parse_player_key(raw_id)
        except ValueError:
            reading.error("bad_player_id", SHEET, cell("id"), value=shown_value(raw_id))
            continue
        if key in reading.players:
            reading.error("duplicate_player", SHEET, cell("id"), key=key, first_row=reading.players[key].row)
            continue

        texts: dict[str, str | None] = {}
        for text_key, header in _TEXTS:
            texts[text_key] = cell_text(row.get(text_key))
            reading.text_ok(key=text_key, label=header, text=texts[text_key], sheet=SHEET, cell=cell(text_key))
        last_name, first_name = texts["last_name"], texts["first_name"]
        if key.startswith("N"):
            for name_key, header in (("last_name", "Last name"), ("first_name", "First name")):
                if name_key in columns and cell_text(row.get(name_key)) is None:
                    reading.error("new_player_name_required", SHEET, cell(name_key), key=key, field=header)

        country = None
        if not is_blank(row.get("country")):
            country = reading.country(value=row["country"], sheet=SHEET, cell=cell("country"))

        pool_text = texts["pool"] or "A"
        pool = pools.setdefault(pool_text.casefold(), pool_text)

        penalty = 0
        if not is_blank(row.get("penalty")):
            penalty = (
                reading.whole(
                    value=row["penalty"],
                    label="Penalty",
                    sheet=SHEET,
                    cell=cell("penalty"),
                    minimum=0,
                    maximum=None,
                )
                or 0
            )
        reason = texts["penalty_reason"]
        if penalty > 0 and reason is None:
            place = "penalty_reason" if "penalty_reason" in columns else "penalty"
            reading.error("penalty_reason_required", SHEET, cell(place), key=key, penalty=penalty)

        reading.players[key] = SheetPlayer(
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
