"""The federation's specification the code follows, copied into the repository so that a reader of the code finds
what it cites: docs/spec/ (RULES.md, RESULT_SHEET.md, COMMANDS.md, PAIRING.md) and its test vectors,
tests/data/vectors.json. Where the federation's own copy sits beside the project (../shared/spec, as on the
federation's machines), the copies are held equal to it: a change of the spec fails here until it is copied, and the
code checked against it."""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FEDERATION = ROOT.parent / "shared" / "spec"
COPIES = {"RULES.md": "docs/spec/RULES.md", "RESULT_SHEET.md": "docs/spec/RESULT_SHEET.md",
          "COMMANDS.md": "docs/spec/COMMANDS.md", "PAIRING.md": "docs/spec/PAIRING.md",
          "vectors.json": "tests/data/vectors.json"}
CITED = re.compile(r"\b([A-Z][A-Z_]*\.md)\b")
READ = (".py", ".html", ".js", ".css", ".md", ".toml", ".txt", ".yml")


@pytest.mark.parametrize("name", COPIES)
def test_the_copy_equals_the_federations_spec(name):
    if not FEDERATION.is_dir():
        pytest.skip(f"no federation copy of the spec at {FEDERATION} to compare with")
    assert (ROOT / COPIES[name]).read_bytes() == (FEDERATION / name).read_bytes(), (
        f"{COPIES[name]} differs from {FEDERATION / name}: copy the spec again and check the code against the change")


# Not the repository's: walking the virtual environment alone took seconds.
NOT_OURS = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", "test-artifacts",
            "staticfiles", ".hypothesis"}


def _repository_files() -> list[Path]:
    files = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in NOT_OURS]
        files += [Path(folder) / name for name in names]
    return files


def test_every_document_the_code_and_docs_cite_by_name_is_in_the_repository():
    """A comment citing RULES.md §5 sends its reader to a file: it must be one they have, not a federation copy."""
    files = _repository_files()
    present = {path.name for path in files if path.suffix == ".md"}
    cited = {}
    for path in files:
        if path.suffix in READ or path.name in {"Makefile", "run"}:
            for name in CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(name, str(path.relative_to(ROOT)))
    assert {"RULES.md", "RESULT_SHEET.md", "COMMANDS.md", "PAIRING.md"} <= set(cited)
    assert {name: where for name, where in cited.items() if name not in present} == {}
