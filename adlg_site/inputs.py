"""What the site reads from a user (a query string, a form, an API parameter), checked before it reaches int() or
the database. Plain Python: the services and selectors use it as the views do.

Terms
-----
whole number
    Digits 0-9 only, at most ``MAX_WHOLE``. ``str.isdigit`` also accepts ``²`` (which int() refuses) and
    ``str.isdecimal`` other scripts' digits (which int() reads, ``٣`` is 3): neither is what a visitor typing an
    ID means, so both are refused. The bound is the largest value of a database integer column (an ID, a year):
    a bigger number would fail in the database, not be looked up.

A text with the character NUL never gets this far: PostgreSQL refuses it, and a request that carries one is
refused whole (``adlg_site.middleware.refuse_nul``).
"""

from __future__ import annotations

MAX_WHOLE = 2**31 - 1


def whole_number(text: object, *, minimum: int = 0, maximum: int = MAX_WHOLE) -> int | None:
    """The whole number `text` writes (spaces around it allowed), or None when it writes none within the bounds."""
    if not isinstance(text, str | int) or isinstance(text, bool):
        return None
    stripped = str(text).strip()
    if not stripped or not (stripped.isascii() and stripped.isdecimal()) or len(stripped) > len(str(maximum)):
        return None
    number = int(stripped)
    return number if minimum <= number <= maximum else None

