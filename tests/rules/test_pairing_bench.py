"""bench/pairing.py runs end to end on a small pool and prints its figures as one JSON object on its last line,
so that a change to the pairing cannot quietly break its benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_pairing_bench_prints_every_figure_as_json_on_its_last_line():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "pairing.py"), "--players", "40", "--repeat", "1",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["players"] == 40 and figures["repeat"] == 1
    assert {"after_five_rounds_s", "after_five_rounds_classic_s", "worst_case", "worst_case_s",
            "impossible_barrier_s", "target_s", "cases_s"} <= set(figures)
    assert figures["worst_case"] in figures["cases_s"]
