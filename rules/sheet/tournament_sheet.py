"""Reading the Tournament sheet: one value per row, its label in column A and its value in column B.

Terms
-----
label
    The text of column A that names a value (TOURNAMENT_LABELS, or one of its ALIASES), whatever its case and
    spacing; rows of any other text are the referee's notes. Labels are looked for in any order in the first
    MAX_TOURNAMENT_ROWS rows; a label met twice is reported at its second row.
required
    A value whose label or value is missing is an error. An optional value left blank is absent, except four
    that take a default: no Tournament ID (a tournament new to the site), AdlG rating, not a Worlds, official.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from rules.sheet.format import ALIASES, FORMAT, LABEL_ALIASES, MAX_TOURNAMENT_ROWS, TOURNAMENT_LABELS, label_of
from rules.sheet.parsed import SheetTournament
from rules.sheet.reading import Reading
from rules.sheet.rows import rows
from rules.sheet.values import (
    cell_text,
    header_key,
    is_blank,
    parse_boolean,
    parse_date,
    rating_system,
    shown_value,
)

SHEET = "Tournament"


def read_tournament(reading: Reading, worksheet: Any) -> None:
    """The Tournament sheet's values into reading.fields, their cells into reading.tournament_cells."""
    index = ({header_key(label): key for key, label, _ in TOURNAMENT_LABELS} | ALIASES
             | {header_key(label): key for key, label in LABEL_ALIASES.items()})
    found: dict[str, tuple[int, object]] = {}
    for number, values in rows(worksheet, min_row=1, max_col=2, columns=(0, 1)):
        if number > MAX_TOURNAMENT_ROWS:
            break
        key = index.get(header_key(values[0]))
        if key is None:
            continue  # notes and unknown labels are the referee's business
        if key in found:
            reading.error(
                "duplicate_label",
                SHEET,
                f"A{number}",
                label=label_of(key),
                first_cell=f"A{found[key][0]}",
            )
            continue
        found[key] = (number, values[1])
        reading.tournament_cells[key] = f"B{number}"

    for position, (key, label, required) in enumerate(TOURNAMENT_LABELS, start=1):
        if key not in found:
            if required:
                reading.error("missing_label", SHEET, f"A{position}", label=label)
            continue
        number, value = found[key]
        cell = f"B{number}"
        if is_blank(value):
            if required:
                reading.error("missing_value", SHEET, cell, field=label)
            continue
        parsed = _value(reading, key=key, label=label, value=value, cell=cell)
        if parsed is not None:
            reading.fields[key] = parsed

    # Defaults of the optional values, applied only when the value is blank: an unreadable one has been
    # reported and stays absent. A blank Tournament ID is kept as None (a tournament new to the site),
    # which check_sheet tells apart from an unreadable one.
    defaults = {"tournament_id": None, "rating_system": "adlg", "worlds": False, "official": True}
    for key, default in defaults.items():
        if key not in found or is_blank(found[key][1]):
            reading.fields[key] = default
    start, end = reading.fields.get("start"), reading.fields.get("end")
    if isinstance(start, date) and isinstance(end, date) and start > end:
        reading.error(
            "start_after_end",
            SHEET,
            reading.tournament_cells["end"],
            start=start.isoformat(),
            end=end.isoformat(),
        )


def _value(reading: Reading, *, key: str, label: str, value: object, cell: str) -> object | None:
    """The parsed value, or None after reporting why it is wrong."""
    if key == "format":
        text = cell_text(value)
        if text != FORMAT:
            reading.error("unknown_format", SHEET, cell, value=shown_value(value), expected=FORMAT)
            return None
        return text
    if key in ("name", "city", "referee", "organising_club"):
        text = cell_text(value)
        return text if reading.text_ok(key=key, label=label, text=text, sheet=SHEET, cell=cell) else None
    if key == "rating_system":
        system = rating_system(value)
        if system is None:
            reading.error("unknown_rating_system", SHEET, cell, value=shown_value(value))
        return system
    if key in ("start", "end"):
        try:
            day = parse_date(value)
        except ValueError:
            reading.error("not_date", SHEET, cell, field=label, value=shown_value(value))
            return None
        if day > reading.today:
            reading.error(
                "date_in_future",
                SHEET,
                cell,
                field=label,
                value=day.isoformat(),
                today=reading.today.isoformat(),
            )
            return None
        return day
    if key == "country":
        return reading.country(value=value, sheet=SHEET, cell=cell)
    if key in ("worlds", "official"):
        try:
            return parse_boolean(value)
        except ValueError:
            reading.error("not_boolean", SHEET, cell, field=label, value=shown_value(value))
            return None
    bounds = {"tournament_id": (1, None), "army_points": (100, 300), "rounds": (1, 12)}[key]
    return reading.whole(
        value=value, label=label, sheet=SHEET, cell=cell, minimum=bounds[0], maximum=bounds[1]
    )


def sheet_tournament(fields: dict[str, Any]) -> SheetTournament | None:
    """The tournament the fields describe; only asked of a Tournament sheet read without error."""
    try:
        return SheetTournament(
            tournament_id=fields.get("tournament_id"),
            name=fields["name"],
            rating_system=fields["rating_system"],
            start=fields["start"],
            end=fields["end"],
            city=fields["city"],
            country=fields["country"],
            organising_club=fields.get("organising_club"),
            referee=fields["referee"],
            army_points=fields.get("army_points"),
            rounds=fields["rounds"],
            worlds=fields["worlds"],
            official=fields["official"],
        )
    except KeyError:  # pragma: no cover - every required field has been reported missing already
        return None
