"""LibreOffice for the tests: opens a workbook, recalculates its formulas and saves it again as .xlsx.

Used to check the template's Standings formulas against rules.standings and that a sheet saved by
LibreOffice reads like the original. Tests that need it are skipped where LibreOffice is not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

BINARY = shutil.which("libreoffice") or shutil.which("soffice")

needs_libreoffice = pytest.mark.skipif(BINARY is None, reason="LibreOffice is not installed")


def libreoffice_saved(data: bytes) -> bytes:
    """The workbook as LibreOffice saves it (formulas recalculated), converted headless."""
    assert BINARY is not None
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "in", "sheet.xlsx")
        source.parent.mkdir()
        source.write_bytes(data)
        out = Path(folder, "out")
        subprocess.run(  # noqa: S603 - a fixed binary on a file of our own
            [
                BINARY,
                # A profile of its own: tests may run in parallel.
                f"-env:UserInstallation=file://{folder}/profile",
                "--headless",
                "--calc",
                "--convert-to",
                "xlsx",
                "--outdir",
                str(out),
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        return (out / "sheet.xlsx").read_bytes()
