"""French as the French write it: every string translated, a non-breaking space before : ; ? ! and inside « », and
one date format per language (months written out in French)."""

from __future__ import annotations

import gettext
import re
from datetime import date
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.formats import date_format

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES"
NBSP = "\u00a0"


def french_strings() -> list[tuple[str, str]]:
    with open(CATALOGUE / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    return [(str(key), value) for key, value in catalogue.items() if key and value]


def test_the_catalogue_is_compiled_and_every_string_is_translated():
    source = (CATALOGUE / "django.po").read_text(encoding="utf-8")
    empty = re.findall(r'\nmsgid "(.+)"\nmsgstr ""\n\n', source)
    assert not empty, empty[:5]
    assert "#, fuzzy" not in source.split("\n\n", 1)[1]
    assert (CATALOGUE / "django.mo").stat().st_mtime >= (CATALOGUE / "django.po").stat().st_mtime - 5


def test_french_puts_a_non_breaking_space_before_double_punctuation():
    wrong = []
    for _msgid, text in french_strings():
        plain = re.sub(r"&#?\w+;|https?://\S+", "", text)
        if re.search(rf"[^{NBSP}][:;?!]", plain) or re.search(rf"«[^{NBSP}]|[^{NBSP}]»", plain):
            wrong.append(text)
    assert not wrong, wrong[:5]


def apostrophes(texts) -> dict[str, list[str]]:
    """The French texts holding each kind of apostrophe: the typewriter one (') and the typographic one (’)."""
    texts = [re.sub(r"&#?\w+;|<[^>]*>|\{[^}]*\}|%\(\w+\)\w", "", text) for text in texts]
    return {kind: [t for t in texts if re.search(rf"\w{kind}\w", t)] for kind in ("'", "’")}


def test_french_uses_one_kind_of_apostrophe_the_typographic_one():
    """The catalogue mostly wrote ’ (l’ID, n’est): a straight ' among them reads as a typo. The French of the
    templates is the catalogue's, so this is every French word the site shows."""
    found = apostrophes(text for _msgid, text in french_strings())
    assert found["’"], "the catalogue's French has no apostrophe at all: this test checks nothing"
    assert not found["'"], found["'"][:5]


def test_the_apostrophe_check_fails_on_a_mix():
    assert apostrophes(["l’ID", "n'est pas"]) == {"'": ["n'est pas"], "’": ["l’ID"]}
    assert apostrophes(["<a href='x'>l’ID</a>"])["'"] == []  # an attribute's quote is no apostrophe


@pytest.mark.parametrize("language,expected", [("en", "9 Mar 2024"), ("fr", "9 mars 2024")])
def test_one_date_format_per_language(language, expected):
    with translation.override(language):
        assert date_format(date(2024, 3, 9)) == expected


def test_french_months_are_written_out():
    with translation.override("fr"):
        assert [date_format(date(2024, month, 1)).split()[1] for month in (2, 7, 8, 12)] == [
            "février", "juillet", "août", "décembre"]


def test_the_public_and_board_pages_use_the_sites_date_format():
    """No template of these pages writes its own date format (Y-m-d, j M Y…): |date alone, or DATETIME_FORMAT."""
    folders = [ROOT / "templates" / "public", ROOT / "templates" / "board", ROOT / "templates" / "referee",
               ROOT / "templates"]
    own_format = re.compile(r'\|date:"(?!DATETIME_FORMAT|DATE_FORMAT)[^"]*"')
    offenders = []
    for folder in folders:
        for template in folder.glob("*.html"):
            offenders += [f"{template.name}: {m}" for m in own_format.findall(template.read_text(encoding="utf-8"))]
    assert not offenders, offenders


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_date_field_shows_an_iso_value_its_browser_accepts(language):
    from django import forms

    class DateForm(forms.Form):
        day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))

    with translation.override(language):
        assert 'value="2024-03-09"' in str(DateForm(initial={"day": date(2024, 3, 9)})["day"])
        assert DateForm({"day": "2024-03-09"}).is_valid()
