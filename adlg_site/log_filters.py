"""Logging filters. A secret handed to a person travels in a URL's path: a player's private link
(/tournaments/<id>/live/me/<token>/, tournaments.live.links) and a claim token (/accounts/claim/token/<token>/,
players.claims). Django logs the path of every answer of 400 and above (django.request), the development server
every request (django.server) and gunicorn every request in its access log when one is kept (gunicorn.access):
the filter writes such a token as "…" before any line leaves the process. It is set on those loggers (settings'
LOGGING) and, for gunicorn's own loggers, by ``GunicornLogger`` (gunicorn.conf.py's ``logger_class``)."""

from __future__ import annotations

import logging
import re

# The token is the path's part after its prefix; in a query string (a `next` parameter) it may be percent-encoded.
_SECRET_PATHS = re.compile(r"((?:/|%2F)(?:live(?:/|%2F)me|claim(?:/|%2F)token)(?:/|%2F))[^/\s\"'&?%]+",
                           re.IGNORECASE)


def hide_secrets(value):
    return _SECRET_PATHS.sub(r"\1…", value) if isinstance(value, str) else value


class PrivateLinkFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = hide_secrets(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide_secrets(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            # In place: gunicorn's access log passes its own mapping, which answers "-" for a header the request
            # did not send; a plain dict in its stead would drop that request's line with a KeyError.
            for key, arg in record.args.items():
                record.args[key] = hide_secrets(arg)
        return True


try:  # gunicorn is the production server; the tests and the development server run without it
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = None

if _GunicornLogger is not None:

    class GunicornLogger(_GunicornLogger):
        """gunicorn's logger with the filter on its error and access logs (the access log's atoms, a dict, hold
        the request line and the path)."""

        def setup(self, cfg):
            super().setup(cfg)
            for log in (self.error_log, self.access_log):
                if not any(isinstance(f, PrivateLinkFilter) for f in log.filters):
                    log.addFilter(PrivateLinkFilter())
