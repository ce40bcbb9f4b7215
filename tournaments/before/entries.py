"""Players' entries into an announced tournament, before the day (charter App. 1 §9, §11-12; App. 7 §2).

Terms
-----
announced
    A tournament with an Announcement (tournaments.before.announcement.announcement_save): its pools, its lists'
    deadline, its list checker.
entries open
    From the announcement to the end of the lists' deadline day, and never on or after the first day. A player
    enters, and withdraws, only while entries are open. **Decision**: entries close with the lists' deadline, so
    that once entries close the checker has every list to check (the charter's "closing the entries and checking
    all the lists", App. 1 §12). A list may still be sent after the deadline, until the first day: it is late.
entered
    An entry neither withdrawn nor refused. A refused entry stays refused and its player reads the referee's
    reason; a withdrawn one may be entered again while entries are open.
the spare
    App. 1 §9: "referees and those who have had access to player's army lists cannot participate in a
    tournament, except as a spare player". A referee of the tournament and its list checker may enter only as the
    spare, who plays under ID 99 and is never one of the day's entrants.
listed without the name
    The player asked that the public entry list show neither their name nor their club before the first day; the
    player, the referees, the list checker and the board still see them.
checkers
    Who checks the lists (App. 1 §11) and sees them before publication: the announcement's list checker (the
    tournament's referees when none is named, and they may always), and the technical board
    (players.permissions.can_check_lists, beside the other rules of who may do what).
late-list penalty
    App. 7 §2: 20 points off the tournament score of a player whose first list arrived after the deadline, unless
    a referee lifts it with a reason. It reaches the tournament's facts through the Players sheet's Penalty and
    Penalty reason: in the workbook the tournament day publishes (tournaments.live.publication) and in the
    pre-filled sheet a referee downloads (`sheet_player_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils import timezone

from players import notices
from players.audit import audit_record
from players.models import Player
from players.permissions import can_check_lists, can_manage_entries, is_entry_player, player_of, spare_only
from rules.charter import LATE_LIST_PENALTY
from rules.words import Forbidden, Refused, gettext_noop
from tournaments.models import Announcement, ArmyList, Entry, Registration, Tournament

UNANNOUNCED, OPEN, CLOSED, STARTED = "unannounced", "open", "closed", "started"
REASON_LIMIT = 300


class EntryRefused(Refused):
    """What the person can fix: one `code` and its params, `field` the form's field it belongs beside (None: the
    whole form). A code said two ways names its `case`; the workbook's refusals (xlsx_…) share one sentence."""

    sentences = {
        "not_a_player": gettext_noop("Your account is not linked to a federation player: link it first, then enter."),
        "not_announced": gettext_noop("The referee has not announced this tournament yet: entries are not open."),
        "entries_closed": gettext_noop("Entries closed on %(date)s. Ask the referee."),
        "entries_closed/withdraw": gettext_noop(
            "Entries closed on %(date)s: you can no longer withdraw on the site. Tell the referee."),
        "not_a_player/record": gettext_noop("This federation record cannot enter a tournament."),
        "unknown_pool": gettext_noop("Choose one of the tournament's pools."),
        "spare_only": gettext_noop("You referee this tournament or check its lists: the charter lets you play only "
                                   "as the spare (App. 1 §9)."),
        "already_entered": gettext_noop("You are already entered."),
        "refused": gettext_noop("The referee refused your entry: %(reason)s"),
        "not_entered": gettext_noop("This entry is not entered."),
        "reason_required": gettext_noop("Give the reason: the player reads it."),
        "reason_required/lift": gettext_noop("Give the reason for lifting the penalty."),
        "reason_too_long": gettext_noop("At most %(limit)s characters."),
        "started": gettext_noop("The tournament has started: entries are the tournament day's now."),
        "no_penalty": gettext_noop("This entry has no late-list penalty to lift."),
        # the army lists (tournaments.before.army_lists)
        "file_kind": gettext_noop("Send the official list workbook (.xlsx) or a PDF, or give a link."),
        "file_empty": gettext_noop("The file is empty."),
        "file_too_large": gettext_noop("The file is over %(limit)s MB: send a smaller one, or a link."),
        "not_pdf": gettext_noop("This file is not a PDF: save the list as PDF again, or send the workbook."),
        "pdf_active": gettext_noop("This PDF carries scripts, actions or attached files: print the list to a plain "
                                   "PDF and send that."),
        "pdf_unreadable": gettext_noop("This PDF cannot be read: print the list to a plain PDF and send that."),
        "xlsx": gettext_noop("This workbook cannot be accepted (%(code)s): save it again as .xlsx from your "
                             "spreadsheet, without macros, or send a PDF."),
        "url_too_long": gettext_noop("At most %(limit)s characters."),
        "url_not_https": gettext_noop("Give the list builder's address, starting with https://."),
        "not_entered/list": gettext_noop("Only an entered player sends a list."),
        "started/list": gettext_noop("The tournament has started: give your list to the referee."),
        "army_required": gettext_noop("Give the army's name."),
        "army_name": gettext_noop("At most 120 characters, not starting with =, +, - or @."),
        "number_required": gettext_noop("Give the army's number in the official army lists."),
        "army_number": gettext_noop("At most 20 characters, not starting with =, +, - or @."),
        "file_and_link": gettext_noop("Send either a file or a link, not both."),
        "file_or_link": gettext_noop("Send the list: a file, or a link to a list builder."),
        "too_many_lists": gettext_noop("You have sent %(count)s lists for this tournament: ask the referee."),
        "comment_required": gettext_noop("Say what to change: the player reads your comment."),
        "comment_too_long": gettext_noop("At most %(limit)s characters."),
        "not_current": gettext_noop("The player has sent a newer list: check that one."),
    }

    def __init__(self, code: str, field: str | None = None, /, **params):
        super().__init__([(code, params)])
        self.field = field

    @classmethod
    def wording(cls, code: str, params: dict, words, names=None) -> str:
        key = "xlsx" if code.startswith("xlsx_") else f"{code}/{params['case']}" if "case" in params else code
        return words.gettext(cls.sentences[key]) % params


# --- the announcement, as entries read it -----------------------------------------------------------------------


def announcement_of(tournament: Tournament) -> Announcement | None:
    try:
        return tournament.announcement
    except Announcement.DoesNotExist:
        return None


def entries_phase(tournament: Tournament, *, today: date | None = None) -> str:
    """unannounced, open, closed (after the deadline) or started (on or after the first day)."""
    today = today or timezone.localdate()
    if today >= tournament.start_date:
        return STARTED
    announcement = announcement_of(tournament)
    if announcement is None:
        return UNANNOUNCED
    return OPEN if today <= announcement.list_deadline else CLOSED


def pool_names(tournament: Tournament) -> list[str]:
    announcement = announcement_of(tournament)
    names = [p.name for p in announcement.pool_themes.all()] if announcement else []
    return names or ["A"]


def entry_of(*, user, tournament: Tournament) -> Entry | None:
    player = player_of(user)
    if player is None:
        return None
    return Entry.objects.filter(tournament=tournament, player=player).first()


# --- services ------------------------------------------------------------------------------------------------


def entry_register(*, user, tournament: Tournament, pool: str, listed_without_name: bool = False,
                   as_spare: bool = False, today: date | None = None) -> Entry:
    """Enter the player linked to `user` into `tournament`'s `pool` (or enter them again after a withdrawal)."""
    today = today or timezone.localdate()
    player = player_of(user)
    if player is None:
        raise EntryRefused("not_a_player")
    phase = entries_phase(tournament, today=today)
    if phase == UNANNOUNCED:
        raise EntryRefused("not_announced")
    if phase != OPEN:
        raise EntryRefused("entries_closed", date=tournament.announcement.list_deadline)
    if player.excluded_at is not None or player.merged_into_id is not None:
        raise EntryRefused("not_a_player", case="record")
    if pool not in pool_names(tournament):
        raise EntryRefused("unknown_pool", "pool")
    if spare_only(user, tournament) and not as_spare:
        raise EntryRefused("spare_only", "as_spare")
    with transaction.atomic():
        entry = Entry.objects.select_for_update().filter(tournament=tournament, player=player).first()
        if entry is not None and entry.status == Entry.ENTERED:
            raise EntryRefused("already_entered")
        if entry is not None and entry.status == Entry.REFUSED:
            raise EntryRefused("refused", reason=entry.reason)
        before = None if entry is None else entry.status
        entry = entry or Entry(tournament=tournament, player=player)
        entry.pool, entry.status, entry.reason = pool, Entry.ENTERED, ""
        entry.listed_without_name, entry.as_spare = listed_without_name, as_spare
        entry.entered_at = timezone.now()
        entry.save()
        audit_record(user=user, action="entry_register", obj=entry,
                     summary=f"{player} enters {tournament} (pool {pool})",
                     changes={"status": [before, Entry.ENTERED], "pool": pool, "as_spare": as_spare,
                              "listed_without_name": listed_without_name})
        notices.entry_recorded(entry)
    return entry


def entry_withdraw(*, user, entry: Entry, today: date | None = None) -> Entry:
    """The player withdraws their entry, while entries are open."""
    if not is_entry_player(user, entry):
        raise Forbidden()
    if entry.status != Entry.ENTERED:
        raise EntryRefused("not_entered")
    if entries_phase(entry.tournament, today=today) != OPEN:
        raise EntryRefused("entries_closed", case="withdraw", date=entry.tournament.announcement.list_deadline)
    return _status_change(user=user, entry=entry, status=Entry.WITHDRAWN, reason="", action="entry_withdraw")


def entry_refuse(*, user, entry: Entry, reason: str, today: date | None = None) -> Entry:
    """A referee refuses an entry, with the reason its player reads."""
    if not can_manage_entries(user, entry.tournament):
        raise Forbidden()
    reason = " ".join((reason or "").split())
    if not reason:
        raise EntryRefused("reason_required", "reason")
    if len(reason) > REASON_LIMIT:
        raise EntryRefused("reason_too_long", "reason", limit=REASON_LIMIT)
    if entries_phase(entry.tournament, today=today) == STARTED:
        raise EntryRefused("started")
    if entry.status != Entry.ENTERED:
        raise EntryRefused("not_entered")
    return _status_change(user=user, entry=entry, status=Entry.REFUSED, reason=reason, action="entry_refuse")


def _status_change(*, user, entry: Entry, status: str, reason: str, action: str) -> Entry:
    with transaction.atomic():
        locked = Entry.objects.select_for_update().get(pk=entry.pk)
        before = locked.status
        locked.status, locked.reason = status, reason
        locked.save(update_fields=["status", "reason", "changed_at"])
        audit_record(user=user, action=action, obj=locked, summary=f"{locked.player_id} in {locked.tournament_id}: "
                     f"{status}", changes={"status": [before, status], **({"reason": reason} if reason else {})})
        if status == Entry.REFUSED:
            notices.entry_refused(locked)
    return locked


def entry_penalty(entry: Entry) -> tuple[int, str]:
    """The late-list penalty of an entry and its reason for the Players sheet; (0, "") when none or lifted."""
    if entry.list_late and not entry.penalty_lifted_reason:
        return LATE_LIST_PENALTY, "late army list (charter App. 7 §2)"
    return 0, ""


def late_penalty_lift(*, user, entry: Entry, reason: str) -> Entry:
    """A referee lifts the late-list penalty of an entry, with a reason (audited)."""
    if not can_manage_entries(user, entry.tournament):
        raise Forbidden()
    reason = " ".join((reason or "").split())
    if not reason:
        raise EntryRefused("reason_required", "reason", case="lift")
    if len(reason) > REASON_LIMIT:
        raise EntryRefused("reason_too_long", "reason", limit=REASON_LIMIT)
    if not entry.list_late or entry.penalty_lifted_reason:
        raise EntryRefused("no_penalty")
    with transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(penalty_lifted_reason=reason, changed_at=timezone.now())
        entry.penalty_lifted_reason = reason
        audit_record(user=user, action="entry_penalty_lift", obj=entry,
                     summary=f"late-list penalty of {entry.player_id} in {entry.tournament_id} lifted",
                     changes={"penalty": [LATE_LIST_PENALTY, 0], "reason": reason})
    return entry


# --- reads ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedEntry:
    """One line of a tournament's public entry list. `player` None: listed without the name."""

    pool: str
    player: Player | None
    as_spare: bool
    mine: bool


def entry_listing(*, tournament: Tournament, viewer=None, today: date | None = None) -> list[ListedEntry]:
    """The entered players as the viewer may see them: before the first day, a player listed without the name is
    shown without it to everyone but themselves, the referees, the list checker and the board."""
    today = today or timezone.localdate()
    everything = today >= tournament.start_date or can_check_lists(viewer, tournament)
    own = player_of(viewer)
    rows = []
    for entry in (Entry.objects.filter(tournament=tournament, status=Entry.ENTERED)
                  .select_related("player", "player__club").order_by("pool", "as_spare", "entered_at", "id")):
        mine = own is not None and own.pk == entry.player_id
        named = everything or mine or not entry.listed_without_name
        rows.append(ListedEntry(pool=entry.pool, player=entry.player if named else None, as_spare=entry.as_spare,
                                mine=mine))
    return rows


def tournament_entries(*, tournament: Tournament):
    """Every entry of a tournament, for its referees and list checker: entered first, then the others."""
    return (Entry.objects.filter(tournament=tournament).select_related("player", "player__club")
            .order_by("status", "pool", "entered_at", "id"))


@dataclass(frozen=True)
class DayPlayer:
    """A player who starts the tournament day: registered in the calendar, or entered on the site."""

    player_id: int
    pool: str


def day_players(*, tournament: Tournament) -> list[DayPlayer]:
    """Who starts the tournament day (tournaments.live): the calendar's registrations and the entered entries
    (not the spare's: the spare plays under ID 99), each player once, a registration's pool first."""
    players = {r.player_id: r.pool for r in Registration.objects.filter(tournament=tournament)}
    for player_id, pool in (Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, as_spare=False)
                            .values_list("player_id", "pool")):
        players.setdefault(player_id, pool)
    return [DayPlayer(player_id, pool) for player_id, pool in players.items()]


def sheet_columns(*, tournament: Tournament) -> dict[int, tuple[str | None, int | None, str | None]]:
    """Per entered player, the Players sheet's Army, Penalty and Penalty reason (None where blank): the army of
    the entry's list, the late-list penalty."""
    entries = list(Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, as_spare=False))
    armies = dict(ArmyList.objects.filter(entry__in=entries).order_by("entry_id", "submitted_at", "id")
                  .values_list("entry_id", "army_name"))  # the latest of each entry wins
    columns = {}
    for entry in entries:
        points, reason = entry_penalty(entry)
        columns[entry.player_id] = (armies.get(entry.pk) or None, points or None, reason or None)
    return columns


def sheet_player_rows(*, tournament: Tournament) -> list[tuple]:
    """The Players sheet of the pre-filled result sheet: the calendar's registrations, then the entered players
    not registered, each with their army and late-list penalty (ID, last name, first name, club, country, pool,
    army, penalty, penalty reason)."""
    columns = sheet_columns(tournament=tournament)
    rows, seen = [], set()
    for r in (Registration.objects.filter(tournament=tournament).select_related("player", "player__club", "club")
              .order_by("pool", "row", "player_id")):
        army, points, reason = columns.get(r.player_id, (None, None, None))
        if r.penalty:  # a penalty already in the facts stands
            points, reason = r.penalty, r.penalty_reason or reason
        rows.append((r.player_id, r.player.last_name, r.player.first_name,
                     getattr(r.club or r.player.club, "name", None), r.player.country_id, r.pool,
                     r.army or army, points, reason))
        seen.add(r.player_id)
    for entry in (Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, as_spare=False)
                  .exclude(player_id__in=seen).select_related("player", "player__club")
                  .order_by("pool", "entered_at", "id")):
        army, points, reason = columns[entry.player_id]
        player = entry.player
        rows.append((player.pk, player.last_name, player.first_name, getattr(player.club, "name", None),
                     player.country_id, entry.pool, army, points, reason))
    return rows
