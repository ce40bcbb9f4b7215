"""The pins (requirements/*.txt, written by `make lock` from pyproject.toml's ranges): every dependency pyproject.toml
names is pinned to one version its range allows, the three files agree where they overlap (the image runs main.txt,
the tests test.txt), and `make setup` installs the pins again whenever they change."""

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)$")

# Each lock and the pyproject.toml lists it covers: main.txt the site's, test.txt with the test tools, bench.txt with
# the benchmarks' too.
LOCKS = {"main.txt": ["dependencies"], "test.txt": ["dependencies", "test"],
         "bench.txt": ["dependencies", "test", "bench"]}


def _requirements(lists: list[str]) -> list[Requirement]:
    named = [PROJECT["dependencies"] if name == "dependencies" else PROJECT["optional-dependencies"][name]
             for name in lists]
    return [Requirement(line) for requirements in named for line in requirements]


def _pins(lock: str) -> dict[str, str]:
    """The lock's pins by canonical name; every line that is not a comment is `name==version`."""
    pins = {}
    for line in (ROOT / "requirements" / lock).read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = PIN.match(line.strip())
        assert match, f"{lock}: not a pin: {line!r}"
        pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


@pytest.mark.parametrize("lock", LOCKS)
def test_every_dependency_pyproject_names_is_pinned_to_a_version_its_range_allows(lock):
    pins = _pins(lock)
    for requirement in _requirements(LOCKS[lock]):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is in pyproject.toml, not in requirements/{lock}: make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pins[name]}, outside pyproject.toml's {requirement}: make lock")


def test_the_locks_agree_where_they_overlap():
    main, test, bench = _pins("main.txt"), _pins("test.txt"), _pins("bench.txt")
    assert {name: test[name] for name in main} == main  # the image runs what the tests ran
    assert {name: bench[name] for name in test} == test  # make bench adds to make setup's, moves nothing


def test_the_image_installs_the_sites_pins_and_no_test_tool():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements/main.txt" in dockerfile
    assert "test.txt" not in dockerfile and ".[test]" not in dockerfile


def _setup_commands(project: Path) -> str:
    """What `make setup` would run in `project` (make -n: nothing runs)."""
    result = subprocess.run(["make", "-n", "setup"], cwd=project, capture_output=True, text=True, timeout=30,
                            check=True)
    return result.stdout


def test_make_setup_installs_the_pins_again_once_they_change(tmp_path):
    """On a copy of the Makefile and of what it reads, with the times of the files set: installed after the last
    change, nothing to do; then the lock changes (`make lock`, a pull), and the pins are installed again."""
    for name in ("Makefile", "pyproject.toml", "requirements/test.txt"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    stamp = tmp_path / ".venv" / ".installed"
    stamp.parent.mkdir()
    stamp.touch()
    for name, when in (("pyproject.toml", 1_000), ("requirements/test.txt", 1_000), (".venv/.installed", 2_000)):
        os.utime(tmp_path / name, (when, when))
    assert "pip install" not in _setup_commands(tmp_path)

    os.utime(tmp_path / "requirements" / "test.txt", (3_000, 3_000))
    commands = _setup_commands(tmp_path)
    assert "-r requirements/test.txt" in commands and "--no-deps -e ." in commands
    assert commands.index("-r requirements/test.txt") < commands.index("--no-deps -e .")
