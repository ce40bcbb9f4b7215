"""The words people read, as the rules hold them: English sentences, each marked for Django's translation catalogue
(locale/fr/LC_MESSAGES/django.po) and filled with a code's params. The rules stay free of Django: a marked text is
the English itself; the shell (adlg_site.words) hands a rule's wording function Django's translation module, under
the reader's language, where these functions stand for English.

One catalogue: no French (or any other language) is written here or anywhere else in Python; a test looks for it.
"""

from __future__ import annotations

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
    Each kind of refusal names the wording of its codes (`wording`); the shell renders every kind the same way
    (adlg_site.words.refusal_text), for a page, the API or a command."""

    def __init__(self, reasons):
        self.reasons = [(code, dict(params)) for code, params in reasons]
        super().__init__("; ".join(code for code, _ in self.reasons))

    @classmethod
    def one(cls, code: str, **params):
        return cls([(code, params)])

    @staticmethod
    def wording(code: str, params: dict, words: Words, names=None) -> str:
        """The sentence for one reason; each kind of refusal words its own codes."""
        return words.gettext(code)


class Worded(Refused):
    """A refusal worded where it was raised (a service of the shell, in the reader's active language, from the
    catalogue): one reason, its sentence carried as the `message` param; `str()` gives the sentence."""

    def __init__(self, message: object, code: str = "refused", **params):
        super().__init__([(code, {**params, "message": str(message)})])
        self.args = (str(message),)
        self.message = str(message)

    @staticmethod
    def wording(code: str, params: dict, words: Words, names=None) -> str:
        return params["message"]
