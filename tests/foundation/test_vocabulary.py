"""The federation's French words, one per thing (docs/GLOSSARY.md): a banned translation in the catalogue fails here."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import pgettext

from rules.rulesets import RULESETS
from rules.sheet.format import GAME_COLUMNS, PLAYER_COLUMNS, TOURNAMENT_LABELS

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.mo"


def entries() -> list[tuple[str, str]]:
    """(msgid, msgstr) of every French entry, each plural form on its own."""
    with open(CATALOGUE, "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    pairs = []
    for key, value in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid:
            # "context\x04msgid" for pgettext entries; placeholders (%(rating)s, {seed}) are names, not words
            pairs.append((msgid.split("\x04")[-1], re.sub(r"%\(\w+\)s|\{\w*\}|" + TEMPLATE_NAMES, "", value)))
    return pairs


# The official template's English names (a French message names them beside the French ones, "Système Elo (Rating
# system)", for a referee filling the English template): names of cells, not words of the French text.
TEMPLATE_NAMES = "|".join(
    rf"\({re.escape(english)}\)" for _key, english, *_ in (*TOURNAMENT_LABELS, *PLAYER_COLUMNS, *GAME_COLUMNS))


RATING = re.compile(r"\b(ratings?|rated|Elo)\b", re.IGNORECASE)
STANDING = re.compile(r"\b(standings?|rank|ranking|rankings|ranked)\b", re.IGNORECASE)


def test_classement_never_translates_a_rating():
    """A text about the rating figure and not about a ranking says "cote" (or Elo), never "classement"."""
    wrong = [(msgid, text) for msgid, text in entries()
             if RATING.search(msgid) and not STANDING.search(msgid) and re.search(r"\bclass(ement|é)", text, re.I)]
    assert not wrong, wrong[:5]


def test_rating_is_cote():
    with translation.override("fr"):
        assert translation.gettext("rating") == "cote"
        assert translation.gettext("Rated games") == "Parties Elo"


# "commission": the technical board is the "bureau technique" (docs/GLOSSARY.md), one name for one body.
@pytest.mark.parametrize("banned", [r"\bgraines?\b", r"\bnon class", r"\bcharter\b", r"\bseeds?\b", r"\bratings?\b",
                                    r"\bcommission\b"])
def test_no_banned_word_in_a_french_text(banned):
    wrong = [(msgid, text) for msgid, text in entries() if re.search(banned, text, re.IGNORECASE)]
    assert not wrong, wrong[:5]


def test_the_french_result_letters_never_read_as_a_result_code_of_another_meaning():
    """The sheet's D is a draw in both languages: a French D for "défaite" would read the other way round."""
    codes = {code for ruleset in RULESETS.values() for code in ruleset.result_values} | {"FA", "FB"}
    with translation.override("fr"):
        letters = {code: pgettext("result letter", code) for code in ("W", "D", "L", "FW", "FL")}
    assert letters == {"W": "G", "D": "N", "L": "P", "FW": "FG", "FL": "FP"}
    assert not ({letters["W"], letters["L"], letters["FW"], letters["FL"]} & codes)
