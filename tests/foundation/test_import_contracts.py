"""The architecture's import contracts (pyproject.toml, import-linter): rules/ is pure, the apps depend on each
other one way, the domain never imports the shell (named by pattern, tests/shell_contract.py); and every import of
rules/ and the apps sits at the top of its module, but for the one documented cycle and Django's start-up idiom."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("rules", "players", "tournaments", "ratings", "championship", "adlg_site")
# (module, what it imports inside a function), and why:
ALLOWED_LATE_IMPORTS = {
    # The one cycle: a replay request enqueues the worker's task once its transaction commits, and the task
    # module imports the services that import the requests.
    ("ratings/requests.py", "ratings.tasks"),
    # Django's start-up idiom: signal handlers are connected in AppConfig.ready(), once the models are loaded.
    ("ratings/apps.py", "django.db.models.signals"),
    ("ratings/apps.py", "players.models"),
    ("ratings/apps.py", "ratings.selectors"),
    ("tournaments/apps.py", "django.db.models.signals"),
    ("tournaments/apps.py", "tournaments.live.hall_row"),
    ("tournaments/apps.py", "tournaments.models"),
}
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
# The shell as the contract names it (pages, the API, forms, the admin, commands, URLs), and what else sits above
# every layer: the tasks and the start-up. Everything else is in a layer.
SHELL = [re.compile(pattern) for pattern in next(c for c in CONFIG["contracts"] if c["type"] == "shell")["shell"]]
ABOVE_THE_LAYERS = {"apps", "tasks"}


def test_the_import_contracts_are_kept():
    done = subprocess.run([Path(sys.executable).parent / "lint-imports", "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def _modules(app: str):
    for path in sorted((ROOT / app).rglob("*.py")):
        relative = path.relative_to(ROOT)
        if "migrations" in relative.parts or "management" in relative.parts or "templatetags" in relative.parts:
            continue
        yield relative


def _late_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse((ROOT / path).read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    found.append((inner.lineno, inner.module or ""))
                elif isinstance(inner, ast.Import):
                    found += [(inner.lineno, alias.name) for alias in inner.names]
    return found


def test_imports_sit_at_the_top_of_modules_but_for_the_documented_exceptions():
    late = [f"{path}:{line} imports {module}" for app in APPS for path in _modules(app)
            for line, module in _late_imports(path) if (str(path), module) not in ALLOWED_LATE_IMPORTS]
    assert late == [], "an import inside a function hides a dependency: move it to the top of the module"


def test_the_shell_contract_tells_the_shell_by_its_name():
    def shell(name):
        return any(pattern.fullmatch(name) for pattern in SHELL)

    assert all(shell(name) for name in ("views", "referee_views", "urls", "board_urls", "api", "forms",
                                        "admin_actions", "management"))
    assert not any(shell(name) for name in ("services", "selectors", "entries", "interviews", "preview", "words"))


def test_every_domain_module_is_in_a_layer_of_the_app_contract():
    layers = next(c for c in CONFIG["contracts"] if c["type"] == "layers")["layers"]
    named = {part.strip().strip("()") for layer in layers for part in layer.replace("|", ":").split(":")}
    unplaced = []
    for app in ("players", "tournaments", "ratings", "championship"):
        for path in _modules(app):
            module = ".".join(path.with_suffix("").parts)
            if path.stem == "__init__" or path.stem in ABOVE_THE_LAYERS or any(p.fullmatch(path.stem) for p in SHELL):
                continue
            if not any(module == name or module.startswith(name + ".") for name in named):
                unplaced.append(module)
    assert unplaced == [], "place each new module in a layer of the app contract (pyproject.toml)"
