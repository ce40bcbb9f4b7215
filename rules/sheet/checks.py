"""The result sheet's rules on its facts: those shared with the admin's forms (a fact the sheet refuses, the
admin refuses too, through these same functions), and the checks against what the federation already knows.

Terms
-----
fault
    One rule a fact breaks: `field` names what is wrong (a key of TEXT_LIMITS, or a game's a, b, result,
    a_losses, b_losses, round, free); `code` and `params` make its message (rules.sheet.messages).
context
    What the site knows of the IDs and the tournament a sheet names (rules.sheet.parsed.SheetContext), loaded by
    the import service.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.sheet.format import (
    ALL_RESULTS,
    COUNTRY_CODES,
    FORMULA_STARTS,
    LOSSES_REQUIRED,
    RATING_SYSTEMS,
    RESULTS,
    SPARE,
    SYSTEM_NAMES,
    TEXT_LIMITS,
    Severity,
)
from rules.sheet.naming import report_named, sheet_names
from rules.sheet.parsed import ParsedSheet, SheetContext
from rules.sheet.report import Issue, Report
from rules.sheet.values import fold, name_club_key, shown_value


@dataclass(frozen=True)
class Fault:
    """One rule a fact breaks: `field` names what is wrong (a key of TEXT_LIMITS, or a game's a, b, result,
    a_losses, b_losses, round, free), `code` and `params` make its message (rules.sheet.messages). The sheet check and
    the admin's forms call the same functions below, so the admin refuses what the sheet refuses."""

    field: str
    code: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)


def text_faults(*, key: str, label: str, text: str | None) -> list[Fault]:
    """A text over its field's length (TEXT_LIMITS) or one a spreadsheet would run as a formula."""
    if not text:
        return []
    faults = []
    limit = TEXT_LIMITS.get(key)
    if limit is not None and len(text) > limit:
        faults.append(Fault(key, "text_too_long", {"field": label, "length": len(text), "limit": limit}))
    if text.startswith(FORMULA_STARTS):
        faults.append(Fault(key, "formula_text", {"field": label, "value": shown_value(text), "start": text[0]}))
    return faults


def country_faults(*, value: str | None) -> list[Fault]:
    """A country that is not an ISO 3166-1 alpha-2 code (checked upper-cased: "fr" is FR). Blank is no country."""
    text = (value or "").strip()
    if not text or text.upper() in COUNTRY_CODES:
        return []
    return [Fault("country", "unknown_country", {"value": shown_value(text)})]


def same_player_faults(*, a: object, b: object) -> list[Fault]:
    """A player against himself, or the spare against the spare (keys or IDs alike)."""
    if a is None or b is None or str(a) != str(b):
        return []
    if str(a) == SPARE:
        return [Fault("b", "spare_against_spare", {})]
    return [Fault("b", "player_against_himself", {"key": str(a)})]


def result_faults(*, system: str | None, result: str, shown: str | None = None) -> list[Fault]:
    """A result code the rating system does not have (an unknown system: one that neither has). `shown` is the
    value as the referee wrote it, when it differs from the code read."""
    allowed = RESULTS.get(system, ALL_RESULTS) if system else ALL_RESULTS
    if result in allowed:
        return []
    return [
        Fault(
            "result",
            "unknown_result",
            {
                "value": shown if shown is not None else shown_value(result),
                "system": SYSTEM_NAMES.get(system or "", "AdlG / Battle Empire"),
                "allowed": ", ".join(allowed),
            },
        )
    ]


def losses_faults(*, system: str | None, result: str, a_losses: int | None, b_losses: int | None) -> list[Fault]:
    """Losses are whole percentages 0-100, and AdlG needs both for A, B and D (they set the scores)."""
    faults = []
    for key, header, value in (("a_losses", "A losses %", a_losses), ("b_losses", "B losses %", b_losses)):
        if value is None:
            if system == "adlg" and result in LOSSES_REQUIRED:
                faults.append(Fault(key, "losses_required", {"field": header, "result": result}))
        elif not 0 <= value <= 100:
            faults.append(
                Fault(key, "out_of_range", {"field": header, "value": value, "minimum": 0, "maximum": 100})
            )
    return faults


def round_faults(*, round_number: int, rounds: int) -> list[Fault]:
    if 1 <= round_number <= rounds:
        return []
    return [Fault("round", "round_out_of_range", {"value": round_number, "rounds": rounds})]


def free_game_faults(*, free: bool, round_number: int, last_round: int) -> list[Fault]:
    """A free game is allowed in the last round only (charter App. 2 §5)."""
    if not free or round_number == last_round:
        return []
    return [Fault("free", "free_game_not_last_round", {"round": round_number, "last_round": last_round})]


def game_faults(
    *,
    system: str | None,
    a: object,
    b: object,
    result: str,
    a_losses: int | None,
    b_losses: int | None,
    round_number: int,
    rounds: int,
    free: bool,
) -> list[Fault]:
    """Every rule one game of a tournament of `rounds` rounds breaks, as the sheet check finds them."""
    return [
        *same_player_faults(a=a, b=b),
        *result_faults(system=system, result=result),
        *losses_faults(system=system, result=result, a_losses=a_losses, b_losses=b_losses),
        *round_faults(round_number=round_number, rounds=rounds),
        *free_game_faults(free=free, round_number=round_number, last_round=rounds),
    ]


# --- checks against the federation's data


def referenced_ids(parsed: ParsedSheet) -> set[int]:
    """The federation IDs the sheet mentions (players and games, the spare left out): the service loads these
    players, and no others, into SheetContext.players."""
    keys = {p.key for p in parsed.players} | {k for g in parsed.games for k in (g.a, g.b)}
    # isdecimal and ASCII: "²" is a digit to str.isdigit but no number to int().
    return {int(key) for key in keys if key.isascii() and key.isdecimal() and key != SPARE}


def check_sheet(parsed: ParsedSheet, context: SheetContext) -> Report:
    """parsed.report plus the checks that need the federation's data, as a new report (parsed is left as it
    is, so calling this twice does not repeat issues)."""
    report = Report(
        errors=list(parsed.report.errors),
        warnings=list(parsed.report.warnings),
        more_errors=parsed.report.more_errors,
        more_warnings=parsed.report.more_warnings,
    )
    if parsed.report.refused:
        return report

    def add(code: str, severity: Severity, sheet: str, cell: str, /, **params: object) -> None:
        report.add(Issue(code=code, sheet=sheet, cell=cell, params=params, severity=severity))

    fields = parsed.tournament_fields
    cells = parsed.tournament_cells
    id_cell = cells.get("tournament_id", "B2")  # the template's Tournament ID row when the label is missing
    tournament_id = fields.get("tournament_id")
    if isinstance(tournament_id, int):
        known = context.tournament
        if known is None or known.id != tournament_id:
            add("unknown_tournament_id", "error", "Tournament", id_cell, id=tournament_id)
        elif fields.get("rating_system") in RATING_SYSTEMS and known.rating_system != fields["rating_system"]:
            add(
                "rating_system_mismatch",
                "error",
                "Tournament",
                cells.get("rating_system", id_cell),
                id=known.id,
                sheet_system=SYSTEM_NAMES.get(str(fields["rating_system"]), fields["rating_system"]),
                site_system=SYSTEM_NAMES.get(known.rating_system, known.rating_system),
            )
    elif "tournament_id" in fields and context.same_name_and_start is not None:
        # A blank Tournament ID (an unreadable one is absent from fields, and reported) on a sheet whose
        # tournament the site already has.
        same = context.same_name_and_start
        add(
            "tournament_already_on_site",
            "error",
            "Tournament",
            id_cell,
            id=same.id,
            name=same.name,
            start=same.start.isoformat(),
        )

    columns = parsed.player_columns
    for player in parsed.players:
        id_place = f"{columns.get('id', 'A')}{player.row}"
        if player.player_id is None:
            match = context.name_club_index.get(
                name_club_key(last_name=player.last_name, first_name=player.first_name, club=player.club)
            )
            if match is not None and player.last_name and player.first_name:
                add(
                    "new_player_matches_known",
                    "warning",
                    "Players",
                    id_place,
                    key=player.key,
                    id=match,
                    last_name=player.last_name,
                    first_name=player.first_name,
                )
            continue
        if player.key == SPARE:
            continue
        known_player = context.players.get(player.player_id)
        if player.player_id in context.retired_ids or (known_player is not None and known_player.excluded):
            add("excluded_player", "error", "Players", id_place, id=player.player_id)
        elif known_player is None:
            add("unknown_player_id", "error", "Players", id_place, id=player.player_id)
        elif (player.last_name or player.first_name) and (
            fold(player.last_name) != fold(known_player.last_name)
            or fold(player.first_name) != fold(known_player.first_name)
        ):
            add(
                "name_differs",
                "warning",
                "Players",
                f"{columns.get('last_name', columns.get('id', 'A'))}{player.row}",
                id=player.player_id,
                sheet_name=f"{player.first_name} {player.last_name}".strip(),
                site_name=f"{known_player.first_name} {known_player.last_name}".strip(),
            )
    report_named(report, sheet_names(parsed.players))
    report.sort()
    return report
