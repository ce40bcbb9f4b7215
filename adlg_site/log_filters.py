"""Logging filters. A player's private link (tournaments.live.links) is a secret in a URL's path: Django logs the
path of every answer of 400 and above (django.request) and the development server every request (django.server),
so the handlers' filter writes the link's token as "…" before any line leaves the process."""

from __future__ import annotations

import logging
import re

_PRIVATE_LINK = re.compile(r"(/live/me/)[^/\s\"']+")


def _hide(value):
    return _PRIVATE_LINK.sub(r"\1…", value) if isinstance(value, str) else value


class PrivateLinkFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _hide(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_hide(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _hide(arg) for key, arg in record.args.items()}
        return True
