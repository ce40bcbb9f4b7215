"""LiveRefused: what the referee can fix, as (code, params) pairs worded by rules.pairing.messages in the reader's
language. A service that raises it has changed nothing."""

from __future__ import annotations

from collections.abc import Iterable

from rules.pairing import PairingRefused
from rules.pairing.messages import notice_text


class LiveRefused(Exception):  # noqa: N818 - a refusal the referee reads, not a crash
    """What the referee can fix: one or more (code, params), worded by rules.pairing.messages."""

    def __init__(self, notices: Iterable[tuple[str, dict]]):
        self.notices = [(code, dict(params)) for code, params in notices]
        super().__init__("; ".join(code for code, _ in self.notices))

    @classmethod
    def one(cls, code: str, **params) -> LiveRefused:
        return cls([(code, params)])

    def messages(self, lang: str = "en", names=None) -> list[str]:
        return [notice_text(code, params, lang, names) for code, params in self.notices]

    @classmethod
    def from_pairing(cls, exc: PairingRefused) -> LiveRefused:
        """The pure rules' refusal, as the referee reads it."""
        return cls((n.code, n.params) for n in exc.notices)
