"""A visitor's live page, as the hall opens it when a round is published: rendered once per version of the day and
language for every visitor, with what is each request's own put in when it is served.

What is each request's own, on the page of a visitor who is not signed in, has no search and no message waiting:
the CSRF token of the language switch, the time the page was read (the connection banner's) and the round clock (the
time left at this second). The page is rendered once with a mark in place of each (Marks), kept as its pieces, and
the marks are filled for each request.

Measured under a hall of phones (bench/live_load.py, 128 players, one core for the server): a 380-kilobyte page
cost 5 ms to render and 5 ms to compress for each phone, and 300 phones open it within seconds of a round's
publication. So the page after its last mark (the tables, standings and earlier rounds: nearly all of it) is also
compressed once, and each response is the compressed head, written for the request, followed by that compressed
rest: two deflate streams one after the other are one stream when the first ends on a sync flush (RFC 1951, as
pigz compresses in parallel). Like Django's gzip, each response carries random bytes in its gzip header (BREACH).
"""

from __future__ import annotations

import random
import re
import secrets
import struct
import zlib
from dataclasses import dataclass

from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.crypto import get_random_string

SLOT = "\x1e"  # a control character, left as it is by the template's escaping
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_LEVEL = 6  # Django's gzip level
_GZIP_MAGIC = b"\x1f\x8b\x08\x08" + b"\x00\x00\x00\x00" + b"\x00\xff"  # deflate, a file name, no time, unknown OS


@dataclass(frozen=True)
class KeptPage:
    """A page rendered once: its head as pieces (text, then a part's name, then text...), the rest after the last
    part as it is sent, uncompressed and compressed."""

    head: tuple[str, ...]
    rest: bytes
    rest_deflated: bytes


class Marks:
    """The marks of one rendering: SLOT, a random word, the part's name, SLOT (a name typed with that character in
    it cannot pass for a mark)."""

    def __init__(self):
        self.word = secrets.token_hex(8)

    def __call__(self, name: str) -> str:
        return f"{SLOT}{self.word}:{name}{SLOT}"

    def reading(self) -> dict:
        """The template context that marks the CSRF token and the time the page is read (templates/live/_offline)."""
        return {"csrf_token": self("csrf"), "read_at": {"hm": self("hm"), "unix": self("unix")}}

    def keep(self, html: str) -> KeptPage:
        pieces = re.split(f"{SLOT}{self.word}:(\\w+){SLOT}", html)  # text, name, text, ..., text
        rest = pieces[-1].encode()
        compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        return KeptPage(tuple(pieces[:-1]), rest, compressor.compress(rest) + compressor.flush())


def kept_page_applies(request) -> bool:
    """Whether this request gets the page every visitor gets: not signed in, no query, no message waiting."""
    return (not request.META.get("QUERY_STRING") and not request.user.is_authenticated
            and not len(get_messages(request)))


def serve(request, page: KeptPage, parts: dict[str, str]) -> HttpResponse:
    """The kept page with `parts` (by name), the request's CSRF token and the time put in, compressed when the
    client accepts it."""
    now = timezone.localtime()
    parts = {**parts, "csrf": get_token(request), "hm": now.strftime("%H:%M"), "unix": str(int(now.timestamp()))}
    head = "".join(parts[piece] if index % 2 else piece for index, piece in enumerate(page.head)).encode()
    if _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        crc = zlib.crc32(page.rest, zlib.crc32(head))
        size = (len(head) + len(page.rest)) & 0xFFFFFFFF
        body = b"".join((_GZIP_MAGIC, get_random_string(random.randint(1, 100)).encode(), b"\x00",
                         compressor.compress(head), compressor.flush(zlib.Z_SYNC_FLUSH), page.rest_deflated,
                         struct.pack("<II", crc, size)))
        response = HttpResponse(body)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(head + page.rest)
    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])
    return response
