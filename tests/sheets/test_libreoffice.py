"""A sheet saved by LibreOffice reads like the original the template wrote.

data/original.xlsx is a filled template (tests/sheets/test_template.py, filled_template()); data/
libreoffice_saved.xlsx is the same file opened and saved by LibreOffice 7.4 (headless --convert-to xlsx),
which writes dates, numbers, shared strings and dimensions its own way. Regenerate both with:

    .venv/bin/python -c "from tests.sheets.test_libreoffice import regenerate; regenerate()"
"""

from __future__ import annotations

from dataclasses import astuple
from pathlib import Path

from rules.sheet.parsed import ParsedSheet
from rules.sheet.reader import read_sheet
from tests.sheets.builders import TODAY
from tests.sheets.lo import libreoffice_saved, needs_libreoffice

DATA = Path(__file__).parent / "data"


def values(parsed: ParsedSheet) -> tuple:
    """What an import uses: everything but the file's hash."""
    return (
        parsed.tournament,
        [astuple(p) for p in parsed.players],
        [astuple(g) for g in parsed.games],
        parsed.report.as_dict(),
    )


def test_a_sheet_saved_by_libreoffice_reads_like_the_original():
    original = read_sheet((DATA / "original.xlsx").read_bytes(), today=TODAY)
    saved = read_sheet((DATA / "libreoffice_saved.xlsx").read_bytes(), today=TODAY)
    assert original.report.ok and original.report.warnings == []
    assert len(original.players) == 14 and len(original.games) == 21
    assert values(saved) == values(original)
    assert saved.content_hash != original.content_hash


@needs_libreoffice
def test_a_sheet_saved_by_the_installed_libreoffice_reads_like_the_original():
    data = (DATA / "original.xlsx").read_bytes()
    assert values(read_sheet(libreoffice_saved(data), today=TODAY)) == values(read_sheet(data, today=TODAY))


def regenerate() -> None:  # pragma: no cover - run by hand, see the module docstring
    from tests.sheets.test_template import filled_template

    original = filled_template()
    (DATA / "original.xlsx").write_bytes(original)
    (DATA / "libreoffice_saved.xlsx").write_bytes(libreoffice_saved(original))
