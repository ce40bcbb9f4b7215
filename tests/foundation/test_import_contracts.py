"""The architecture's import contracts (pyproject.toml, import-linter): rules/ is pure, and imports flow one way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept():
    done = subprocess.run([Path(sys.executable).parent / "lint-imports", "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout
