"""Shared output of the export commands: CSV with a header row, or JSON, exactly as COMMANDS.md says."""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Iterable, Sequence

from rules.spreadsheet import neutralised_row

FORMATS = ("csv", "json")


def write_report_issues(command, report: dict) -> None:
    """A sheet report's issues, one line each with its cell: errors on stderr, warnings on stdout (import_results
    and live_publish print them alike)."""
    for issue in report["errors"]:
        command.stderr.write(f"  error {issue['sheet']}!{issue['cell']}: {issue['message']}")
    for issue in report["warnings"]:
        command.stdout.write(f"  warning {issue['sheet']}!{issue['cell']}: {issue['message']}")


def write_table(stream, *, columns: Sequence[str], rows: Iterable[Sequence], fmt: str) -> None:
    try:
        _write(stream, columns=columns, rows=rows, fmt=fmt)
    except BrokenPipeError:
        # The reader stopped early (`| head`): not an error of ours, and no traceback for it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write(stream, *, columns: Sequence[str], rows: Iterable[Sequence], fmt: str) -> None:
    if fmt == "json":
        stream.write(json.dumps([dict(zip(columns, row, strict=True)) for row in rows], ensure_ascii=False))
        stream.write("\n")
        return
    # A CSV is opened in a spreadsheet: no stored text may reach it as a formula (rules.spreadsheet). JSON is data.
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(neutralised_row(row) for row in rows)
