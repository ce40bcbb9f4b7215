"""Words in the reader's language, from Django's one translation catalogue: the only place that decides which
language a text is in. The rules word their codes with `rules.words` (English, marked for the catalogue); this
module runs a wording under the reader's language with Django's translation functions, for a page, the API, a
command or an email alike."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format

from rules.words import Refused


def language(requested: str | None = None) -> str:
    """One of the site's languages (settings.LANGUAGES) for a requested one: 'fr-FR' and 'FR_ca' give 'fr'; none
    given, the active language; anything unknown, the first (English)."""
    code = (requested or translation.get_language() or "").strip().lower().replace("_", "-")
    for known, _name in settings.LANGUAGES:
        if code == known or code.startswith(known + "-"):
            return known
    return settings.LANGUAGES[0][0]


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def say(wording: Callable[..., str], *args, lang: str | None = None, **kwargs) -> str:
    """`wording(*args, words=…, **kwargs)` in the language asked for (the active one by default)."""
    with translation.override(language(lang)):
        return wording(*args, words=translation, **kwargs)


def in_each_language(wording: Callable[..., str], *args, **kwargs) -> dict[str, str]:
    """The same text in every language of the site: {"en": …, "fr": …}, for what is stored or sent in both."""
    return {code: say(wording, *args, lang=code, **kwargs) for code in languages()}


def refusal_text(refusal: Refused, lang: str | None = None, names: Callable[[object], str] | None = None) -> list[str]:
    """Every reason of a refusal of any kind, one sentence each, in the language asked for (the active one by
    default), dates as the reader writes them; players named by `names`. The one wording of refusals for pages,
    the API and commands."""
    with translation.override(language(lang)):
        return [refusal.wording(code, _dates_localised(params), translation, names)
                for code, params in refusal.reasons]


def refusal_sentence(refusal: Refused | None, lang: str | None = None) -> str | None:
    """A refusal (or none) as one line of a page: its reasons' sentences, in the reader's language."""
    return " ".join(refusal_text(refusal, lang)) if refusal is not None else None


def refusal_on(form, refused: Refused) -> list[str]:
    """A refusal shown where it belongs: beside its field when the form shows that field (`refused.field`), else
    returned to be shown above the form."""
    field = getattr(refused, "field", None)
    if field and field in form.fields:
        form.add_error(field, refusal_text(refused))
        return []
    return refusal_text(refused)


def _dates_localised(params: dict) -> dict:
    return {key: _day(value) if isinstance(value, date) else value for key, value in params.items()}


def _day(value: date) -> str:
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value)


class _WordsIn:
    """Django's translation functions fixed to one language, for a rules' wording called with `words=`."""

    def __init__(self, lang: str):
        self.lang = language(lang)

    def gettext(self, message: str) -> str:
        with translation.override(self.lang):
            return translation.gettext(message)

    def ngettext(self, singular: str, plural: str, number: int) -> str:
        with translation.override(self.lang):
            return translation.ngettext(singular, plural, number)


def words_in(lang: str | None = None) -> _WordsIn:
    """The words of one language (the active one by default): `issue.message(words_in("fr"))`."""
    return _WordsIn(lang or language())
