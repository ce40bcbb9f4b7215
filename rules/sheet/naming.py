"""People by name in a sheet's report: the name written on the Players sheet added to each issue about a player,
so a referee reads "Benoît Moreau (229) plays two games" and sees a typo at once, not "player 229".

Terms
-----
player reference
    A param that holds a player's ID or tag as the sheet writes it: ``key`` (every code that has it), ``a`` and
    ``b`` (a game's two players), and ``id`` for the codes in ID_CODES only (elsewhere ``id`` is a tournament's).
name param
    ``name`` for ``key`` or ``id``, ``a_name`` for ``a``, ``b_name`` for ``b``: "First Last" as the Players sheet
    writes them, added only when the sheet gives a name. The references stay as they are (the API, the commands'
    JSON and the stored reports keep reading them); rules.sheet.messages builds the words from both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.sheet.parsed import ParsedSheet, SheetPlayer
from rules.sheet.report import Issue, Report

# Codes whose ``id`` is a player's federation ID (in the others it is a tournament's).
ID_CODES = frozenset({"excluded_player", "unknown_player_id"})

_REFERENCES = (("key", "name"), ("a", "a_name"), ("b", "b_name"))


def sheet_names(players: Mapping[str, SheetPlayer] | list[SheetPlayer]) -> dict[str, str]:
    """Each player's key (ID or tag as text) -> the name the Players sheet gives, when it gives one."""
    rows = players.values() if isinstance(players, Mapping) else players
    names = {}
    for player in rows:
        name = f"{player.first_name or ''} {player.last_name or ''}".strip()
        if name:
            names.setdefault(player.key, name)
    return names


def issue_named(issue: Issue, names: Mapping[str, str]) -> Issue:
    """The issue with the name params of its player references (see the module); itself when none applies."""
    params = dict(issue.params)
    added = False
    references = [*_REFERENCES, *((("id", "name"),) if issue.code in ID_CODES else ())]
    for reference, name_param in references:
        if reference in params and name_param not in params:
            name = names.get(str(params[reference]))
            if name:
                params[name_param] = name
                added = True
    return replace(issue, params=params) if added else issue


def report_named(report: Report, names: Mapping[str, str]) -> None:
    """Names every issue of the report about a player (in place)."""
    report.errors[:] = [issue_named(issue, names) for issue in report.errors]
    report.warnings[:] = [issue_named(issue, names) for issue in report.warnings]


def cell_subjects(parsed: ParsedSheet) -> dict[tuple[str, int], tuple[str, dict[str, object]]]:
    """What each row of Players and Games is about, for a page that names things rather than cells (a tournament
    day's referee never saw the workbook the site built): ("Players", row) -> ("player", {"name", "key"}),
    ("Games", row) -> ("game", {"round", "table"})."""
    subjects: dict[tuple[str, int], tuple[str, dict[str, object]]] = {}
    names = sheet_names(parsed.players)
    for player in parsed.players:
        subjects[("Players", player.row)] = ("player", {"name": names.get(player.key, ""), "key": player.key})
    for game in parsed.games:
        subjects[("Games", game.row)] = ("game", {"round": game.round, "table": game.table})
    return subjects


def issue_subject(issue_sheet: str, cell: str, subjects: Mapping[tuple[str, int], tuple[str, dict[str, object]]]
                  ) -> tuple[str, dict[str, object]] | None:
    """The subject of the row of an issue's cell ('D9' -> row 9), or None (the Tournament sheet, the file)."""
    digits = "".join(c for c in cell if c.isdigit())
    return subjects.get((issue_sheet, int(digits))) if digits else None
