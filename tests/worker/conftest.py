"""A real Celery worker, as a separate process, on the local Redis and the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


class Worker:
    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.process = env, log, None

    def start(self) -> Worker:
        handle = self.log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "adlg_site", "worker", "--pool=solo", "--concurrency=1",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
            cwd=ROOT, env=self.env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if b"ready." in self.log.read_bytes():
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"worker died at start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.2)
        raise RuntimeError("worker not ready after 60 s")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no chance to acknowledge or roll back anything itself."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    """Starts workers bound to the test database; every one is stopped before the database is flushed."""
    from adlg_site.celery import app

    settings = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/"
                        f"{settings['NAME']}",
        "DJANGO_SETTINGS_MODULE": "adlg_site.settings.test",
    }
    app.control.purge()
    workers: list[Worker] = []

    def start() -> Worker:
        worker = Worker(env, tmp_path / f"worker{len(workers)}.log").start()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
    app.control.purge()
    # A SIGKILLed worker's database session can outlive it a moment; end it so the flush and the final
    # DROP DATABASE of the test run are not refused.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
