"""LiveRefused: what the referee can fix, as (code, params) reasons worded by rules.pairing.messages in the reader's
language (adlg_site.words). A service that raises it has changed nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adlg_site.words import refusal_text, say
from rules.pairing import PairingRefused
from rules.pairing import messages as pairing_messages
from rules.words import Refused


def notice_text(code: str, params: Mapping[str, object], lang: str | None = None,
                names: Callable[[object], str] | None = None) -> str:
    """A pairing notice or a live refusal in the reader's language (the active one by default)."""
    return say(pairing_messages.notice_text, code, params, names=names, lang=lang)


class LiveRefused(Refused):
    """What the referee can fix: one or more (code, params), worded by rules.pairing.messages."""

    @staticmethod
    def wording(code, params, words, names=None) -> str:
        return pairing_messages.notice_text(code, params, names, words)

    @property
    def notices(self) -> list[tuple[str, dict]]:
        return self.reasons

    def messages(self, lang: str | None = None, names=None) -> list[str]:
        return refusal_text(self, lang, names)

    @classmethod
    def from_pairing(cls, exc: PairingRefused) -> LiveRefused:
        """The pure rules' refusal, as the referee reads it."""
        return cls((n.code, n.params) for n in exc.notices)
