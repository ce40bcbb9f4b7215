"""Template filters of the public pages: results in the reader's language.

result_words
    A sheet's result code in words ("A wins"; a code of no ruleset as it is). A filter, not an included template: the
    referee's results page writes it for every code of every table, 800 times for 64 tables, and the include's
    chain of conditions was a quarter of that page's time.
result_letter
    A result from one player's view (W, D, L; DD double demoralisation; FW, FL a forfeit won or lost; Battle
    Empire's W+, W++, L+, L++) as the page's language writes it: G/N/P in French (gagnée, nulle, perdue), FG/FP
    for a forfeit. Not V/N/D: the sheet's result code D (a draw, typed by referees in both languages) would then
    read as a defeat on the same page. The codes stay as the sheet writes them in the data, the API, the exports
    and the game lists.
percent
    A share (0.64) as a percentage ("64 %"), the number as the page's language writes it, a no-break space before
    the sign in both languages (the pages' own "95 %").
signed
    A rating change with its sign: + or the minus sign U+2212, decimals as the page's language writes them.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy, pgettext_lazy

register = template.Library()

LETTERS = {
    "W": pgettext_lazy("result letter", "W"),
    "D": pgettext_lazy("result letter", "D"),
    "L": pgettext_lazy("result letter", "L"),
    "DD": pgettext_lazy("result letter", "DD"),
    "FW": pgettext_lazy("result letter", "FW"),
    "FL": pgettext_lazy("result letter", "FL"),
}


RESULT_WORDS = {
    "A": gettext_lazy("A wins"),
    "B": gettext_lazy("B wins"),
    "D": gettext_lazy("draw"),
    "DD": gettext_lazy("double demoralisation (a draw)"),
    "FA": gettext_lazy("forfeit won by A (not rated)"),
    "FB": gettext_lazy("forfeit won by B (not rated)"),
    "A+": gettext_lazy("A wins, decisive victory"),
    "A++": gettext_lazy("A wins, overwhelming victory"),
    "B+": gettext_lazy("B wins, decisive victory"),
    "B++": gettext_lazy("B wins, overwhelming victory"),
}


@register.filter
def result_words(code) -> str:
    words = RESULT_WORDS.get(code)
    return str(code) if words is None else str(words)


@register.filter
def result_letter(code: str | None) -> str:
    if not code:
        return ""
    if code in LETTERS:
        return str(LETTERS[code])
    head, tail = code.rstrip("+"), code[len(code.rstrip("+")):]  # Battle Empire's W+, L++…
    return f"{LETTERS[head]}{tail}" if head in LETTERS else code



MINUS = "\u2212"


@register.filter
def signed(value, places: int | str = 0) -> str:
    """A change as both languages print it: "+12", "−3" (the minus sign U+2212, never a hyphen), "0"; `places`
    decimals with the language's separator (l10n: 23,1151 in French). None or text that is not a number: "".

    The one place a signed change is written, so that a page never mixes "-23,1151" and "−23"."""
    try:
        number = Decimal(str(value))
        places = int(places)
    except (InvalidOperation, TypeError, ValueError):
        return ""
    rounded = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) if places >= 0 else number
    if rounded == 0:
        return number_format(abs(rounded), decimal_pos=places)
    sign = "+" if rounded > 0 else MINUS
    return sign + number_format(abs(rounded), decimal_pos=places)


@register.filter
def percent(value, places: int | str = 0) -> str:
    """0.6432 -> "64 %" (places=1: "64.3 %", "64,3 %" in French). None or text that is not a number: ""."""
    try:
        number = Decimal(str(value)) * 100
        places = int(places)
    except (InvalidOperation, TypeError, ValueError):
        return ""
    rounded = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return number_format(rounded, decimal_pos=places) + "\u00a0%"
