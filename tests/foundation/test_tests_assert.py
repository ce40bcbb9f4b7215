"""Every test asserts something: a test that only runs code passes whatever the code does.

A test function (module level, or a method of a Test… class) in tests/**/test_*.py must contain, somewhere in its
body, one of:
- an `assert` statement;
- `pytest.raises(...)`, `pytest.warns(...)` or `pytest.deprecated_call(...)`;
- an assertion of a library the suite uses: Playwright's `expect(...)`, pytest-django's
  `django_assert_num_queries(...)` / `django_assert_max_num_queries(...)`, schemathesis' `case.validate_response(...)`;
- a call to a helper defined under tests/ that itself asserts (by the same rules, through any depth of helpers),
  named directly, imported from a tests module, or reached as `module.helper` of an imported tests module.
The file is read with `ast`, never imported: nothing runs.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
PYTEST_ASSERTIONS = {"raises", "warns", "deprecated_call"}
LIBRARY_ASSERTIONS = {"expect", "django_assert_num_queries", "django_assert_max_num_queries"}
METHOD_ASSERTIONS = {"validate_response"}


@dataclass
class Module:
    name: str  # tests.foo.bar
    tree: ast.Module
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)  # local name -> (module, function)
    modules: dict[str, str] = field(default_factory=dict)  # local name -> tests module


def _load() -> dict[str, Module]:
    modules = {}
    for path in sorted(TESTS.rglob("*.py")):
        name = ".".join(("tests", *path.relative_to(TESTS).with_suffix("").parts))
        module = Module(name, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for node in module.tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                module.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        module.functions[f"{node.name}.{item.name}"] = item
        for node in ast.walk(module.tree):  # imports inside functions count too
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tests"):
                for alias in node.names:
                    module.imported[alias.asname or alias.name] = (node.module, alias.name)
                    module.modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tests") and alias.asname:
                        module.modules[alias.asname] = alias.name
        modules[module.name] = module
    return modules


def _callee(call: ast.Call, module: Module) -> tuple[str, str] | None:
    """The (module, function) under tests/ that a call names, if it names one."""
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in module.functions:
            return module.name, func.id
        return module.imported.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in module.modules:
        return module.modules[func.value.id], func.attr
    return None


def _asserts_itself(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert):
            return True
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Attribute):
                if func.attr in PYTEST_ASSERTIONS and isinstance(func.value, ast.Name) and func.value.id == "pytest":
                    return True
                if func.attr in METHOD_ASSERTIONS:
                    return True
            elif isinstance(func, ast.Name) and func.id in LIBRARY_ASSERTIONS:
                return True
    return False


def _asserting(modules: dict[str, Module]) -> set[tuple[str, str]]:
    """Every (module, function) under tests/ that asserts, itself or through the helpers it calls."""
    found = {(m.name, name) for m in modules.values() for name, node in m.functions.items() if _asserts_itself(node)}
    changed = True
    while changed:
        changed = False
        for module in modules.values():
            for name, node in module.functions.items():
                if (module.name, name) in found:
                    continue
                calls = (_callee(sub, module) for sub in ast.walk(node) if isinstance(sub, ast.Call))
                if any(callee in found for callee in calls if callee):
                    found.add((module.name, name))
                    changed = True
    return found


def _tests(module: Module) -> list[str]:
    names = []
    for node in module.tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names += [f"{node.name}.{item.name}" for item in node.body
                      if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test")]
    return names


def unasserted_tests() -> list[str]:
    modules = _load()
    asserting = _asserting(modules)
    return [f"{module.name}::{name}" for module in modules.values()
            if module.name.rsplit(".", 1)[-1].startswith("test_")
            for name in _tests(module) if (module.name, name) not in asserting]


def test_every_test_asserts_something():
    assert unasserted_tests() == []


def test_the_check_finds_a_test_that_asserts_nothing(tmp_path, monkeypatch):
    """The check itself: a test that only calls code, or a helper that asserts nothing, is caught; a helper that
    asserts, pytest.raises and Playwright's expect are enough."""
    package = tmp_path / "tests"
    package.mkdir()
    (package / "helpers.py").write_text("def assert_ok(x):\n    assert x\n\ndef check_quietly(x):\n    return x\n")
    (package / "test_sample.py").write_text(
        "import pytest\nfrom playwright.sync_api import expect\nfrom tests.helpers import assert_ok, check_quietly\n"
        "from tests import helpers as h\n\n"
        "def test_runs_only():\n    int('1')\n\n"
        "def test_quiet_helper():\n    check_quietly(1)\n\n"
        "def _local(x):\n    assert_ok(x)\n\n"
        "def test_through_two_helpers():\n    _local(1)\n\n"
        "def test_module_helper():\n    h.assert_ok(1)\n\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        int('x')\n\n"
        "def test_expect(page):\n    expect(page).to_have_title('x')\n\n"
        "class TestGrouped:\n    def test_nothing(self):\n        pass\n")
    monkeypatch.setattr(sys.modules[__name__], "TESTS", package)
    assert unasserted_tests() == [
        "tests.test_sample::test_runs_only", "tests.test_sample::test_quiet_helper",
        "tests.test_sample::TestGrouped.test_nothing"]
