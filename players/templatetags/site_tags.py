"""Template filters of the public pages: results in the reader's language.

result_letter
    A result from one player's view (W, D, L; DD double demoralisation; FW, FL a forfeit won or lost; Battle
    Empire's W+, W++, L+, L++) as the page's language writes it: G/N/P in French (gagnée, nulle, perdue), FG/FP
    for a forfeit. Not V/N/D: the sheet's result code D (a draw, typed by referees in both languages) would then
    read as a defeat on the same page. The codes stay as the sheet writes them in the data, the API, the exports
    and the game lists.
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

