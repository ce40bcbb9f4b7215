"""A sheet's report: every issue found, each with its place and the sentence a referee reads in their language.

Terms
-----
issue
    One problem, with its code, sheet, cell (``'E14'``), params and severity. An *error* blocks the import
    (import is all or nothing); a *warning* is shown and the import goes on.
reading order
    The file, then Tournament, Players and Games, each top to bottom, left to right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

from rules.sheet import messages
from rules.sheet.format import REFUSAL_CODES, REPORT_LIMIT, Severity
from rules.words import ENGLISH, Words


@dataclass(frozen=True)
class Issue:
    code: str
    sheet: str
    cell: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)
    severity: Severity = "error"

    def message(self, words: Words = ENGLISH) -> str:
        """A full sentence in the words given (the shell gives the referee's language): what is wrong and what
        to do."""
        return messages.render(code=self.code, params=self.params, words=words)

    @property
    def place(self) -> str:
        """'Games!E14' style, as the report shows it ('' for the file, 'Games' for a whole sheet)."""
        if not self.sheet:
            return ""
        return f"{self.sheet}!{self.cell}" if self.cell else self.sheet


@dataclass
class Report:
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    # Issues found beyond the REPORT_LIMIT kept of each severity (see bound).
    more_errors: int = 0
    more_warnings: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def refused(self) -> bool:
        """True when the file was refused as a whole (not a workbook, a bomb, over a limit...)."""
        return any(issue.code in REFUSAL_CODES for issue in self.errors)

    def add(self, issue: Issue) -> None:
        (self.errors if issue.severity == "error" else self.warnings).append(issue)

    def issues(self) -> list[Issue]:
        return [*self.errors, *self.warnings]

    @property
    def error_count(self) -> int:
        return len(self.errors) + self.more_errors

    @property
    def warning_count(self) -> int:
        return len(self.warnings) + self.more_warnings

    def summaries(self) -> tuple[Issue | None, Issue | None]:
        """The lines that say how many errors and warnings the report leaves out, when it leaves some out."""
        return (
            Issue("more_errors", "", "", {"count": self.more_errors, "limit": REPORT_LIMIT})
            if self.more_errors else None,
            Issue("more_warnings", "", "", {"count": self.more_warnings, "limit": REPORT_LIMIT}, "warning")
            if self.more_warnings else None,
        )

    def as_dict(self, words: Words = ENGLISH) -> dict[str, list[dict[str, str]]]:
        """Every issue kept, in the words given; when some are left out, a last line says how many."""

        def row(issue: Issue) -> dict[str, str]:
            return {
                "sheet": issue.sheet,
                "cell": issue.cell,
                "code": issue.code,
                "message": issue.message(words),
            }

        more_errors, more_warnings = self.summaries()
        return {
            "errors": [row(i) for i in self.errors] + ([row(more_errors)] if more_errors else []),
            "warnings": [row(i) for i in self.warnings] + ([row(more_warnings)] if more_warnings else []),
        }

    def sort(self) -> None:
        """Reading order: the file, then Tournament, Players and Games, each top to bottom, left to right."""
        self.errors.sort(key=issue_order)
        self.warnings.sort(key=issue_order)

    def bound(self, limit: int = REPORT_LIMIT) -> None:
        """Sorts, then keeps the first `limit` errors and warnings; the others are only counted."""
        self.sort()
        self.more_errors += max(0, len(self.errors) - limit)
        self.more_warnings += max(0, len(self.warnings) - limit)
        del self.errors[limit:], self.warnings[limit:]


_SHEET_ORDER = {"": 0, "Tournament": 1, "Players": 2, "Games": 3}


def issue_order(issue: Issue) -> tuple[int, int, int]:
    # A JSON document's issues found by its schema are placed by path ('$.games[3].a'), in the document's order.
    if not issue.cell or issue.cell.startswith("$"):
        return (_SHEET_ORDER.get(issue.sheet, 4), 0, 0)
    try:
        column, row = coordinate_from_string(issue.cell)
        return (_SHEET_ORDER.get(issue.sheet, 4), row, column_index_from_string(column))
    except ValueError:  # pragma: no cover - cells are made here
        return (_SHEET_ORDER.get(issue.sheet, 4), 0, 0)


def report_as_json(report: Report) -> dict[str, Any]:
    """The issues of a report (not their messages, which are rendered in each reader's language)."""

    def issue(item: Issue) -> dict[str, Any]:
        return {"code": item.code, "sheet": item.sheet, "cell": item.cell, "params": dict(item.params)}

    return {
        "errors": [issue(i) for i in report.errors],
        "warnings": [issue(i) for i in report.warnings],
        "more_errors": report.more_errors,
        "more_warnings": report.more_warnings,
    }


def report_from_json(data: Mapping[str, Any]) -> Report:
    def issues(key: str, severity: Severity) -> list[Issue]:
        return [
            Issue(code=i["code"], sheet=i["sheet"], cell=i["cell"], params=i.get("params", {}), severity=severity)
            for i in data.get(key, [])
        ]

    return Report(
        errors=issues("errors", "error"),
        warnings=issues("warnings", "warning"),
        more_errors=int(data.get("more_errors", 0)),
        more_warnings=int(data.get("more_warnings", 0)),
    )
