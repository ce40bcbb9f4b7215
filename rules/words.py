"""The words people read, as the rules hold them: English sentences, each marked for Django's translation catalogue
(locale/fr/LC_MESSAGES/django.po) and filled with a code's params. The rules stay free of Django: a marked text is
the English itself; the shell (adlg_site.words) hands a rule's wording function Django's translation module, under
the reader's language, where these functions stand for English.

One catalogue: no French (or any other language) is written here or anywhere else in Python; a test looks for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


def gettext_noop(text: str) -> str:
    """Mark a sentence for the catalogue. Named as Django's own, so that `makemessages` collects it."""
    return text


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a sentence with a count for the catalogue (`makemessages` is told this name: players' command)."""
    return singular, plural


class Words(Protocol):
    """What a wording function needs: Django's `django.utils.translation` is one, `ENGLISH` below another."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int) -> str: ...


class English:
    """The rules' own words: the marked English, with English plurals. Tests of the pure rules read these."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> str:
        return singular if number == 1 else plural


ENGLISH = English()


class Refused(Exception):  # noqa: N818 - a refusal a person reads and can act on, not a crash
    """Refused, and why: one or more reasons, each a code and its params; whoever raises it has changed nothing.
    Each kind of refusal words its own codes (`wording`): by default its `sentences`, code to English sentence
    marked for the catalogue and filled with the params. The shell words every kind the same way, in the reader's
    language (adlg_site.words.refusal_text), for a page, the API or a command; `str()` is the English, for logs
    and tests."""

    sentences: Mapping[str, str] = {}

    def __init__(self, reasons):
        self.reasons = [(code, dict(params)) for code, params in reasons]
        super().__init__("; ".join(code for code, _ in self.reasons))

    @classmethod
    def one(cls, code: str, **params):
        return cls([(code, params)])

    @classmethod
    def wording(cls, code: str, params: dict, words: Words, names=None) -> str:
        """The sentence for one reason, filled with its params."""
        return words.gettext(cls.sentences.get(code, code)) % params

    @property
    def code(self) -> str:
        """The first reason's code (most refusals have one)."""
        return self.reasons[0][0]

    def __str__(self) -> str:
        try:
            return " ".join(self.wording(code, params, ENGLISH) for code, params in self.reasons)
        except (KeyError, TypeError, ValueError):  # a reason missing a param: its codes still say what it was
            return super().__str__()


class Forbidden(Refused):
    """This person may not do this (not a fault of the input): the shell answers as Django's PermissionDenied would,
    a 403 page or an API 403; a kind of its own names which rule refused when the person can be told more."""

    sentences = {"forbidden": gettext_noop("This page is not for your account")}

    def __init__(self, reasons=(("forbidden", {}),)):
        super().__init__(reasons)
