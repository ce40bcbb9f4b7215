"""One catalogue: every word a person reads is in Django's translation catalogue, the rules' messages
included; the rules hold English marked for it (rules.words) and the shell picks the language in one place
(adlg_site.words); every refusal is one type, worded the same way by the pages, the API and the commands."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from adlg_site.words import in_each_language, language, refusal_text, say
from rules import clock
from rules.charter import CharterFailure, charter_failure_message
from rules.pairing import PairingRefused
from rules.pairing import messages as pairing_messages
from rules.sheet import messages as sheet_messages
from rules.sheet.guard import Refused as SheetRefused
from rules.sheet.report import Issue
from rules.words import ENGLISH, Refused
from tournaments.before import conditions
from tournaments.live.refusals import LiveRefused, notice_text

ROOT = Path(__file__).resolve().parents[2]
APPS = ("adlg_site", "players", "ratings", "tournaments", "championship", "rules")
NBSP = "\u00a0"


def _python_sources():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or path.name == "words.py" and app == "adlg_site":
                continue
            if path.parent.name == "settings":
                continue
            yield path


# What a hand-written bilingual text or a language test looks like in Python.
LANGUAGE_IN_PYTHON = re.compile(
    r"""["'](fr|en)["']\s*:"""                 # {"en": ..., "fr": ...}
    r"""|startswith\(\s*["'](fr|en)"""         # language.startswith("fr")
    r"""|[!=]=\s*["'](fr|en)["']"""            # lang == "fr"
    r"""|["'](fr|en)["']\s*(if|else)\b"""      # "fr" if ... else "en"
    r"""|\bin\s*\(\s*["'](fr|en)["']"""        # lang in ("fr", ...)
    r"""|\[:2\]\s*[!=]=\s*["']"""           # lang[:2] == "fr"
)


def test_no_hand_written_language_dictionary_or_language_test_outside_the_catalogue():
    found = []
    for path in _python_sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if LANGUAGE_IN_PYTHON.search(line.split("#", 1)[0]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_templates_never_test_the_language():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""LANGUAGE_CODE\s*[!=]=\s*["']|["'](fr|en)["']\s*[!=]=\s*LANGUAGE_CODE""", line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


def test_makemessages_leaves_no_empty_or_fuzzy_entry(tmp_path):
    """Collect every marked text of the site (the rules' too) as the maintainers do (`make messages`), in a copy of
    the code: each has its French already."""
    copy = tmp_path / "site"
    ignore = shutil.ignore_patterns(".venv", ".git", "node_modules", "staticfiles", "test-artifacts", "__pycache__",
                                    "*.sqlite3", ".pytest_cache", ".ruff_cache", "data")
    shutil.copytree(ROOT, copy, ignore=ignore)
    done = subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-location", "--no-obsolete"],
                          cwd=copy, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "adlg_site.settings.test",
                               "SECRET_KEY": "catalogue-test"})
    assert done.returncode == 0, done.stderr
    source = (copy / "locale" / "fr" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    body = source.split("\n\n", 1)[1]
    empty = re.findall(r'\nmsgid "(.*)"\n(?:".*"\n)*msgstr ""\n\n', "\n" + body + "\n")
    assert [e for e in empty if e] == []
    assert "#, fuzzy" not in body
    assert "#~" not in body


def _rules_texts() -> list[str]:
    texts = [*pairing_messages.MESSAGES.values(), *pairing_messages.SYSTEM_WORDS.values(),
             *sheet_messages.MESSAGES.values(), sheet_messages._UNNAMED, *clock.CLOCK_WORDS.values(),
             *conditions.MESSAGES.values()]
    return texts


def test_every_rules_message_has_its_french_in_the_catalogue():
    with translation.override("fr"):
        untranslated = [text for text in _rules_texts() if translation.gettext(text) == text]
    assert untranslated == []


def test_the_rules_hold_english_and_the_shell_gives_french():
    failure = CharterFailure("too_few_rounds", {"pool": "B", "players": 1, "rounds": 0, "minimum": 3})
    assert charter_failure_message(failure) == "Pool B: 0 rounds for 1 player; at least 3 are needed."
    assert say(charter_failure_message, failure, lang="fr") == (
        f"Poule B{NBSP}: 0 ronde pour 1 joueur{NBSP}; il en faut au moins 3.")
    many = CharterFailure("too_few_players", {"players": 5, "minimum": 8})
    assert in_each_language(charter_failure_message, many) == {
        "en": "The tournament ranks 5 players; at least 8 are needed.",
        "fr": f"Le tournoi classe 5 joueurs{NBSP}; il en faut au moins 8.",
    }


def test_a_pairing_notice_names_players_and_systems_in_french():
    names = {1: "Ann Dupont", 2: "Hugo Martin"}.get
    text = notice_text("reason_required", {"warnings": [{"code": "club_mates_by_hand", "params": {"a": 1, "b": 2}}]},
                       "fr", names)
    assert "Ann Dupont et Hugo Martin sont du même club" in text
    system = notice_text("system_charter", {"system": "adapted", "players": 26, "ideal": 32}, "fr")
    assert system.startswith(f"À partir de la ronde 2{NBSP}: suisse adapté,")


def test_a_sheet_message_names_the_player_in_the_readers_language():
    issue = Issue("player_without_game", "Players", "A5", {"key": "N1"})
    assert issue.message() == "Player N1 is registered but plays no game. Add the player's games or remove the row; " \
                              "the import goes on."
    assert say(issue.message, lang="fr").startswith("Le joueur N1 est inscrit")


@pytest.mark.parametrize(("requested", "expected"), [
    ("fr", "fr"), ("fr-FR", "fr"), ("FR_ca", "fr"), ("en-GB", "en"), ("de", "en"), ("", "en")])
def test_the_language_asked_for_becomes_one_of_the_sites(requested, expected):
    with translation.override("en"):
        assert language(requested) == expected


def test_every_kind_of_refusal_is_one_type_worded_in_both_languages():
    refusals = [
        LiveRefused.one("no_such_pool", pool="B"),
        PairingRefused.one("spare_not_needed"),
        clock.ClockRefused("clock_paused"),
        SheetRefused(Issue("not_xlsx", "", "")),
        conditions.CharterRefused([("pool_name", {"pool": "A"})]),
    ]
    for refusal in refusals:
        assert isinstance(refusal, Refused)
        english, french = refusal_text(refusal, "en"), refusal_text(refusal, "fr")
        assert len(english) == len(french) == len(refusal.reasons) == 1
        assert english != french and refusal.reasons[0][0] not in english[0]
        assert refusal.wording(*refusal.reasons[0], ENGLISH) == english[0]
