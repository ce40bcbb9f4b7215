"""Army lists sent before a tournament, checked, kept private, then published together (charter App. 1 §8, §11-12;
App. 7 §2).

Terms
-----
list
    What a player sends for an entry: the army's name and its number in the official army lists, and the list
    itself: the official list workbook (.xlsx) or a PDF, or a link to a list builder (https only). A file is
    checked before anything is stored: at most LIST_MAX_BYTES; a workbook passes the result sheet's guard
    (rules.sheet.guard: the zip's structure and sizes, no macros, no XML entities, bounded cells); a PDF starts
    with ``%PDF-``, is read by a PDF parser (pypdf; one it cannot read is refused), and declares no active
    content (JavaScript, launch actions, embedded files, rich media) in any of its objects, compressed ones
    included, its names read as a PDF reader reads them (``/J#61vaScript`` is ``/JavaScript``).
the entry's list
    Its latest list; the earlier ones are its history (a list returned, then sent again).
checked
    The checker marks the entry's list compliant, or returns it with a comment the player reads; the player then
    sends a new one. Only the entry's list is checked.
late
    A list sent after the deadline's day. **Decision**: only an entry's first list decides the late-list penalty
    (tournaments.before.entries): a list returned by the checker and sent again after the deadline was on time.
published
    App. 1 §12 forbids announcing the lists "partially" before the entries close and every list is checked. When
    the announcement says the lists are published before the start, they are shown on the tournament's page all
    together, once entries are closed (after the deadline's day) and every entered player's list is compliant; a
    list returned or missing hides them all again. Until then a list is seen only by its player, the
    tournament's referees, its list checker and the board.
identical
    rules.charter.identical_lists: lists of the same army number in one pool, beyond 2 in a tournament of under
    20 entered players, 3 from 20. Flagged for the checker, never refused: the charter leaves it to the organiser.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import PurePath

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.utils import timezone
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

from players import notices
from players.audit import audit_record
from players.permissions import can_check_lists, is_entry_player
from rules.charter import IdenticalLists, identical_lists
from rules.sheet.format import FORMULA_STARTS
from rules.sheet.guard import guard
from rules.words import Forbidden
from tournaments.before.entries import STARTED, EntryRefused, announcement_of, entries_phase
from tournaments.models import ArmyList, Entry, Tournament

LIST_MAX_BYTES = 2 * 1024 * 1024
MAX_LISTS_PER_ENTRY = 20  # what one entry may store in all, its history included
URL_LIMIT = 500
_ACTIVE_PDF = re.compile(rb"/(?:JavaScript|JS|Launch|EmbeddedFiles?|RichMedia)(?![A-Za-z])")
_ACTIVE_PDF_NAMES = frozenset({"/JavaScript", "/JS", "/Launch", "/EmbeddedFile", "/EmbeddedFiles", "/RichMedia"})
_https = URLValidator(schemes=["https"])


# --- the file or the link --------------------------------------------------------------------------------------


def list_file_refusal(*, name: str, data: bytes) -> EntryRefused | None:
    """Why a list file is refused, or None: its kind from its name, then checked on its bytes."""
    suffix = PurePath(name or "").suffix.lower()
    if suffix not in (".xlsx", ".pdf"):
        return EntryRefused("file_kind", "file")
    if not data:
        return EntryRefused("file_empty", "file")
    if len(data) > LIST_MAX_BYTES:
        return EntryRefused("file_too_large", "file", limit=LIST_MAX_BYTES // (1024 * 1024))
    if suffix == ".pdf":
        if not data.startswith(b"%PDF-"):
            return EntryRefused("not_pdf", "file")
        # The bytes first (quick, and they see what no object reaches), then the objects as a reader decodes them.
        if _ACTIVE_PDF.search(data):
            return EntryRefused("pdf_active", "file")
        try:
            active = _pdf_declares_active_content(data)
        except Exception:  # noqa: BLE001 - whatever a parser trips on, a PDF it cannot read is not accepted
            return EntryRefused("pdf_unreadable", "file")
        return EntryRefused("pdf_active", "file") if active else None
    issue = guard(data, max_bytes=LIST_MAX_BYTES)
    if issue is not None:
        return EntryRefused(f"xlsx_{issue.code}", "file", code=issue.code.replace("_", " "))
    return None


def _pdf_declares_active_content(data: bytes) -> bool:
    """Whether any object of the PDF (reachable from its trailer, or listed in its cross-reference tables and
    object streams) has an active-content name as a key or a value. Raises what pypdf raises on a PDF it cannot
    read."""
    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        reader.decrypt("")  # a PDF readable without a password opens so; any other raises below
    pending: list = [reader.trailer]
    pending += [IndirectObject(number, generation, reader)
                for generation, numbers in reader.xref.items() for number in numbers]
    pending += [IndirectObject(number, 0, reader) for number in reader.xref_objStm]
    seen: set[tuple[int, int]] = set()
    while pending:
        item = pending.pop()
        if isinstance(item, IndirectObject):
            if (item.idnum, item.generation) in seen:
                continue
            seen.add((item.idnum, item.generation))
            item = item.get_object()
        if isinstance(item, DictionaryObject):  # a stream's dictionary too
            if _ACTIVE_PDF_NAMES.intersection(item.keys()):
                return True
            pending.extend(item.values())
        elif isinstance(item, ArrayObject):
            pending.extend(item)
        elif isinstance(item, NameObject) and item in _ACTIVE_PDF_NAMES:
            return True
    return False


def list_url_refusal(url: str) -> EntryRefused | None:
    if len(url) > URL_LIMIT:
        return EntryRefused("url_too_long", "url", limit=URL_LIMIT)
    try:
        _https(url)
    except ValidationError:
        return EntryRefused("url_not_https", "url")
    return None


# --- services ------------------------------------------------------------------------------------------------


def army_list_submit(*, user, entry: Entry, army_name: str, army_number: str, file_name: str | None = None,
                     data: bytes | None = None, url: str | None = None, now: datetime | None = None) -> ArmyList:
    """The entry's player sends a list (a file or a link) until the first day; late after the deadline's day."""
    if not is_entry_player(user, entry):
        raise Forbidden()
    now = now or timezone.now()
    tournament = entry.tournament
    announcement = announcement_of(tournament)
    if entry.status != Entry.ENTERED or announcement is None:
        raise EntryRefused("not_entered", case="list")
    if entries_phase(tournament, today=timezone.localdate(now)) == STARTED:
        raise EntryRefused("started", case="list")
    army_name, army_number = " ".join((army_name or "").split()), " ".join((army_number or "").split())
    if not army_name:
        raise EntryRefused("army_required", "army_name")
    if len(army_name) > 120 or army_name.startswith(FORMULA_STARTS):
        raise EntryRefused("army_name", "army_name")
    if not army_number:
        raise EntryRefused("number_required", "army_number")
    if len(army_number) > 20 or army_number.startswith(FORMULA_STARTS):
        raise EntryRefused("army_number", "army_number")
    url = (url or "").strip()
    if url and (data or file_name):
        raise EntryRefused("file_and_link", "url")
    if not url and not (data or file_name):
        raise EntryRefused("file_or_link", "file")
    row = ArmyList(entry=entry, army_name=army_name, army_number=army_number, submitted_by=user, submitted_at=now)
    if url:
        refused = list_url_refusal(url)
        if refused:
            raise refused
        row.kind, row.url = ArmyList.LINK, url
    else:
        refused = list_file_refusal(name=file_name or "", data=data or b"")
        if refused:
            raise refused
        row.kind = ArmyList.PDF if PurePath(file_name).suffix.lower() == ".pdf" else ArmyList.XLSX
        row.file_name = _shown_name(file_name)
        row.content, row.size, row.sha256 = data, len(data), hashlib.sha256(data).hexdigest()
    row.late = timezone.localdate(now) > announcement.list_deadline
    with transaction.atomic():
        locked = Entry.objects.select_for_update().get(pk=entry.pk)
        sent = locked.army_lists.count()
        if sent >= MAX_LISTS_PER_ENTRY:
            raise EntryRefused("too_many_lists", count=sent)
        first = not sent
        row.save()
        if first and row.late:
            Entry.objects.filter(pk=entry.pk).update(list_late=True)
            entry.list_late = True
        audit_record(user=user, action="army_list_submit", obj=row,
                     summary=f"army list of {entry.player_id} for {tournament}",
                     changes={"entry": entry.pk, "army": army_name, "army_number": army_number, "kind": row.kind,
                              "sha256": row.sha256, "url": row.url, "late": row.late})
        notices.list_received(row)
    return row


def _shown_name(name: str) -> str:
    """The file's name as the player gave it, for display only (never in a header or a path)."""
    base = PurePath((name or "").replace("\\", "/")).name
    return "".join(ch for ch in base if ch.isprintable())[:200] or "list"


def army_list_check(*, user, army_list: ArmyList, compliant: bool, comment: str = "",
                    now: datetime | None = None) -> ArmyList:
    """The checker marks the entry's list compliant, or returns it with a comment the player reads."""
    entry = army_list.entry
    if not can_check_lists(user, entry.tournament):
        raise Forbidden()
    comment = (comment or "").strip()
    if not compliant and not comment:
        raise EntryRefused("comment_required", "comment")
    if len(comment) > 2000:
        raise EntryRefused("comment_too_long", "comment", limit=2000)
    with transaction.atomic():
        Entry.objects.select_for_update().get(pk=entry.pk)
        latest = current_list(entry)
        if latest is None or latest.pk != army_list.pk:
            raise EntryRefused("not_current")
        before = latest.status
        latest.status = ArmyList.COMPLIANT if compliant else ArmyList.RETURNED
        latest.comment, latest.checked_by, latest.checked_at = comment, user, now or timezone.now()
        latest.save(update_fields=["status", "comment", "checked_by", "checked_at"])
        audit_record(user=user, action="army_list_check", obj=latest,
                     summary=f"army list of {entry.player_id} for {entry.tournament_id}: {latest.status}",
                     changes={"status": [before, latest.status], **({"comment": comment} if comment else {})})
        notices.list_checked(latest)
    return latest


# --- reads ---------------------------------------------------------------------------------------------------


def _without_content(qs):
    return qs.defer("content")


def current_list(entry: Entry) -> ArmyList | None:
    return _without_content(ArmyList.objects.filter(entry=entry)).order_by("-submitted_at", "-id").first()


def current_lists(entries) -> dict[int, ArmyList]:
    """Each entry's list (its latest), by entry ID, without the files' bytes."""
    latest: dict[int, ArmyList] = {}
    for row in _without_content(ArmyList.objects.filter(entry__in=entries)).order_by("entry_id", "submitted_at",
                                                                                      "id"):
        latest[row.entry_id] = row
    return latest


def lists_waiting(tournaments) -> dict[int, int]:
    """How many entered players' lists wait for the check, by tournament ID (a tournament with none is absent):
    an entry whose latest list is waiting, one query."""
    latest = ArmyList.objects.filter(entry=OuterRef("pk")).order_by("-submitted_at", "-id").values("status")[:1]
    rows = (Entry.objects.filter(tournament__in=tournaments, status=Entry.ENTERED)
            .alias(latest=Subquery(latest)).filter(latest=ArmyList.PENDING)
            .values("tournament_id").annotate(waiting=Count("pk")).order_by())
    return {row["tournament_id"]: row["waiting"] for row in rows}


def list_history(entry: Entry) -> list[ArmyList]:
    return list(_without_content(ArmyList.objects.filter(entry=entry)).select_related("checked_by")
                .order_by("-submitted_at", "-id"))


def lists_published(*, tournament: Tournament, today: date | None = None) -> bool:
    """Whether the lists are public (see the module's terms): announced as published, entries closed, every
    entered player's list compliant."""
    announcement = announcement_of(tournament)
    if announcement is None or not announcement.lists_published:
        return False
    if entries_phase(tournament, today=today) not in ("closed", STARTED):
        return False
    entered = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED))
    if not entered:
        return False
    latest = current_lists(entered)
    return all(e.pk in latest and latest[e.pk].status == ArmyList.COMPLIANT for e in entered)


def list_visible(user, army_list: ArmyList, *, today: date | None = None) -> bool:
    """Whether `user` may see this list: its player, the checkers (players.permissions), or anyone once the lists
    are published (then only each entered player's current list)."""
    entry = army_list.entry
    if is_entry_player(user, entry) or can_check_lists(user, entry.tournament):
        return True
    if entry.status != Entry.ENTERED or not lists_published(tournament=entry.tournament, today=today):
        return False
    latest = current_list(entry)
    return latest is not None and latest.pk == army_list.pk


@dataclass(frozen=True)
class PublishedList:
    entry: Entry
    army_list: ArmyList
    named: bool  # False: the player asked to be listed without the name, and the tournament has not started


def published_lists(*, tournament: Tournament, today: date | None = None) -> list[PublishedList] | None:
    """The lists as the tournament's page shows them once published; None while they are not."""
    today = today or timezone.localdate()
    if not lists_published(tournament=tournament, today=today):
        return None
    entries = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED)
                   .select_related("player", "player__club").order_by("pool", "as_spare", "entered_at", "id"))
    latest = current_lists(entries)
    started = today >= tournament.start_date
    return [PublishedList(e, latest[e.pk], started or not e.listed_without_name) for e in entries]


def identical_flags(*, tournament: Tournament) -> list[IdenticalLists]:
    """The identical lists beyond the charter's limit (rules.charter.identical_lists), entries as Entry rows."""
    entries = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED).select_related("player"))
    latest = current_lists(entries)
    players = sum(1 for e in entries if not e.as_spare)
    return identical_lists([(e, e.pool, latest[e.pk].army_number) for e in entries if e.pk in latest],
                           players=players)
