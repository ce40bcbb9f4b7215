"""bench/replay.py runs end to end and prints the figures bench/README.md records: a tiny federation on the real
PostgreSQL, in the bench's own database, so that a change to the replay cannot quietly break its benchmark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIGURES = {
    "games", "tournaments", "players", "listed_players", "events", "replay_s", "replay_games_per_s", "rescratch_s",
    "append_s", "old_correction_s", "corrected_end", "calibration_s", "open_data_s",
}


def _bench(database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run([sys.executable, str(ROOT / "bench" / "replay.py"), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_replay_bench_refuses_anything_but_postgresql(tmp_path):
    done = _bench(f"sqlite:///{tmp_path / 'x.sqlite3'}", "--games", "100")
    assert done.returncode != 0
    assert "PostgreSQL only" in done.stderr
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.services
def test_the_replay_bench_prints_every_figure_as_one_json_object_on_its_last_line():
    url = os.environ["DATABASE_URL"]
    done = _bench(url, "--games", "3000", "--players", "600", "--json")
    try:
        assert done.returncode == 0, done.stderr[-3000:]
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        assert set(figures) == FIGURES
        assert 2500 < figures["games"] <= 3100  # the synthetic draw rates about the games asked for
        for name in FIGURES - {"corrected_end"}:
            assert figures[name] > 0, name
        assert figures["replay_games_per_s"] == pytest.approx(figures["games"] / figures["replay_s"], rel=0.01)
        assert figures["events"] > figures["games"]  # an event per real player of each rated game
    finally:
        parts = urlsplit(url)
        admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))
        import psycopg

        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}_bench" WITH (FORCE)')
