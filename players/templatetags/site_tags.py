"""Template filters of the public pages: results in the reader's language.

result_code
    A result code of the sheet (A, B, D, DD, FA, FB, A+…) as shown on the page: the same codes, but the draw's D
    reads N (nul) in French, where D is a defeat.
result_letter
    A result from one player's view (W, D, L; DD double demoralisation; FW, FL a forfeit won or lost; Battle
    Empire's W+, W++, L+, L++) as the page's language writes it: V/N/D in French (victoire, nul, défaite), FG/FP
    for a forfeit (gagné, perdu). The codes stay in English in the data, the API and the exports.
"""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

register = template.Library()

LETTERS = {
    "W": pgettext_lazy("result letter", "W"),
    "D": pgettext_lazy("result letter", "D"),
    "L": pgettext_lazy("result letter", "L"),
    "DD": pgettext_lazy("result letter", "DD"),
    "FW": pgettext_lazy("result letter", "FW"),
    "FL": pgettext_lazy("result letter", "FL"),
}


@register.filter
def result_letter(code: str | None) -> str:
    if not code:
        return ""
    if code in LETTERS:
        return str(LETTERS[code])
    head, tail = code.rstrip("+"), code[len(code.rstrip("+")):]  # Battle Empire's W+, L++…
    return f"{LETTERS[head]}{tail}" if head in LETTERS else code


@register.filter
def result_code(code: str | None) -> str:
    return str(pgettext_lazy("result code", "D")) if code == "D" else (code or "")
