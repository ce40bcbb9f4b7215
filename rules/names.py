"""Names as a search compares them: "Benoit" finds Benoît, "alvarez" Álvarez, "STEPHANE" Stéphane.

Terms
-----
folded name
    A name with every Latin letter written as its plain lower-case ASCII letters (É → e, ø → o, æ → ae, ß → ss,
    Ł → l, ș → s), the typographic apostrophe as ', and every other character left as it is. FOLDS is the whole
    table. The database keeps each player's folded name in a column computed from this same table
    (players.models.Player.search_name: one REPLACE per entry, on SQLite as on PostgreSQL), and a search folds
    its words with `fold_name`: both sides fold alike, on both engines, by construction.
search words
    What a typed query is searched for: its words, folded, without control characters (a NUL byte, which
    PostgreSQL refuses in a string), at most MAX_WORDS of them, each at most MAX_WORD characters.
"""

from __future__ import annotations

import unicodedata

MAX_QUERY = 80  # characters of a query read; the rest is ignored
MAX_WORDS = 6
MAX_WORD = 40

# Letters that Unicode's compatibility decomposition does not turn into ASCII letters.
_SPECIAL = {
    "Æ": "ae", "æ": "ae", "Ø": "o", "ø": "o", "Œ": "oe", "œ": "oe", "ß": "ss", "Ð": "d", "ð": "d",
    "Þ": "th", "þ": "th", "Đ": "d", "đ": "d", "Ħ": "h", "ħ": "h", "ı": "i", "ĸ": "k", "Ŀ": "l", "ŀ": "l",
    "Ł": "l", "ł": "l", "ŉ": "n", "Ŋ": "n", "ŋ": "n", "Ŧ": "t", "ŧ": "t", "\u2019": "'", "\u02bc": "'",
}
# Latin-1's letters, Latin Extended-A, and the Romanian comma-below letters (Ș ș Ț ț).
_LATIN = [*range(0xC0, 0x180), *range(0x218, 0x21C)]


def _plain(char: str) -> str | None:
    if char in _SPECIAL:
        return _SPECIAL[char]
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    return base.lower() if base.isascii() and base.isalpha() else None


def _table() -> dict[str, str]:
    table = {chr(c): chr(c).lower() for c in range(ord("A"), ord("Z") + 1)}
    for code in _LATIN:
        plain = _plain(chr(code))
        if plain is not None and plain != chr(code):
            table[chr(code)] = plain
    table.update({k: v for k, v in _SPECIAL.items() if k not in table})
    return table


FOLDS: dict[str, str] = _table()
_TRANSLATION = str.maketrans(FOLDS)


def fold_name(text: str) -> str:
    """The folded name (see the module's terms): what the database's search_name column holds for a name."""
    return (text or "").translate(_TRANSLATION)


def name_key(text: str) -> str:
    """A name compared in Python only (a club among the clubs, a table's players on the live page): folded,
    lower case in every script, spaces collapsed."""
    return " ".join(fold_name(text).casefold().split())


def search_words(query: str) -> list[str]:
    """The folded words a query searches for (see the module's terms)."""
    text = "".join(c if c.isprintable() else " " for c in (query or "")[:MAX_QUERY])
    return [fold_name(word)[:MAX_WORD] for word in text.split()][:MAX_WORDS]


