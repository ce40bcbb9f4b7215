"""Numbers as each language writes them: one minus sign (U+2212) for every signed change, decimals with the
language's separator."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation

from players.templatetags.site_tags import signed
from tests.public.conftest import text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
LOSS = {"system": "adlg", "rating_a": 1000, "games_a": 0, "rating_b": 1200, "games_b": 10, "result": "B"}


@pytest.mark.parametrize("language,value,places,expected", [
    ("en", 12, 0, "+12"), ("en", -3, 0, "\u22123"), ("en", 0, 0, "0"), ("fr", -3, 0, "\u22123"),
    ("en", -23.11514, 4, "\u221223.1151"), ("fr", -23.11514, 4, "\u221223,1151"), ("fr", Decimal("8.5"), 4, "+8,5000"),
    ("fr", -0.00001, 4, "0,0000"), ("en", None, 0, ""), ("en", "abc", 0, ""), ("en", 5, "x", ""),
])
def test_signed_writes_one_minus_sign_and_the_languages_decimals(language, value, places, expected):
    with translation.override(language):
        assert signed(value, places) == expected


def test_no_template_writes_a_change_without_the_signed_filter():
    """A change printed raw shows a hyphen-minus ("-23"); `|signed` or public/_change.html write "−23"."""
    raw = re.compile(r"\{\{\s*(?:\w+\.)*(change(?:_[ab])?|raw_[ab]|elo_[ab])\s*(\|(?!signed)[^}]*)?\}\}")
    offenders = [f"{path.relative_to(TEMPLATES)}: {m.group(0)}" for path in TEMPLATES.rglob("*.html")
                 for m in raw.finditer(path.read_text(encoding="utf-8"))]
    assert not offenders, offenders


@pytest.mark.parametrize("language,decimal", [("en", "."), ("fr", ",")])
def test_the_calculator_writes_a_loss_with_the_minus_sign(client, db, language, decimal):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    page = text(client.get("/rules/", LOSS))
    calc = page[page.index('id="calculation"'):page.index("</table>", page.index('id="calculation"'))]
    assert re.search(r'id="calc-change-a"><span class="down">\u2212\d+</span>', calc)
    assert re.search(rf"<td class=\"num\">\u2212\d+\{decimal}\d{{4}}</td>", calc)  # raw change, 4 decimals
    assert not re.search(r"[>\s]-\d", calc)  # no hyphen-minus before a figure
