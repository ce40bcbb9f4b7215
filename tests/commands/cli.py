"""The command line as a referee runs it: `python manage.py …` in a process of its own, on a SQLite file."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def run(*args) -> tuple[int, str, str]:
    """A command called in this process as the command line would end: (exit status, stdout, stderr). Django's
    call_command raises CommandError where the command line prints it and exits 1."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    except CommandError as exc:
        code, err = 1, io.StringIO(str(exc))
    return code, out.getvalue(), err.getvalue()


def command_env(db: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{db}",
            "DJANGO_SETTINGS_MODULE": "adlg_site.settings.local"}


def copy_database(template: Path, folder: Path) -> Path:
    """The file and its write-ahead log, if the migrating process left one (journal_mode=WAL)."""
    for part in template.parent.glob(f"{template.name}*"):
        shutil.copy(part, folder / part.name)
    return folder / template.name


# One process for several command lines, each as `python manage.py …` would run it: manage.main() with its own
# sys.argv, its own stdout and stderr (file descriptors 1 and 2, so that anything a logger or a library writes is
# caught too), and the exit status the process would have had: SystemExit's code, 1 with the traceback printed for
# any other exception. Starting Python and Django once instead of once a command line is what it saves.
_BATCH = r"""
import json, os, sys, tempfile, traceback
sys.path.insert(0, os.getcwd())
import manage

results = []
for argv in json.loads(sys.argv[1]):
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            sys.argv = ["manage.py", *argv]
            try:
                manage.main()
                code = 0
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
            except BaseException:
                traceback.print_exc()
                code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        out.seek(0)
        err.seek(0)
        results.append([code, out.read().decode(errors="replace"), err.read().decode(errors="replace")])
sys.stdout.write(json.dumps(results))
"""


def run_commands(argvs: list[list[str]], env: dict[str, str], timeout: int = 300) -> list[subprocess.CompletedProcess]:
    """Each argv run as `python manage.py *argv` (see _BATCH), all in one process; a CompletedProcess each."""
    batch = subprocess.run([sys.executable, "-c", _BATCH, json.dumps(argvs)], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=timeout)
    assert batch.returncode == 0, batch
    return [subprocess.CompletedProcess(["manage.py", *argv], code, out, err)
            for argv, (code, out, err) in zip(argvs, json.loads(batch.stdout), strict=True)]


def runs_by_command_line(lines: list[list[str]],
                         env: dict[str, str]) -> dict[tuple[str, ...], subprocess.CompletedProcess]:
    """Each command line's run (all of them in one process, run_commands), by its argv."""
    return {tuple(argv): result for argv, result in zip(lines, run_commands(lines, env), strict=True)}
