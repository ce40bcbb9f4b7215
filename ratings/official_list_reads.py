"""Reading the official lists: which one is in force on a day, their rows, their downloads, and what changed
between two of them (who, how much, and why: the tournaments imported or corrected in between).

A list's rows are frozen (ratings.official_lists); what a reader sees of them is the frozen copy, but for one
thing: the name of a player excluded since the list was issued is withheld (RULES.md §8: an excluded player is
never named in public), their figures kept under their ID.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime

from players.models import Player, RetiredId
from ratings.models import ClosedYear, OfficialList, OfficialListRow, ReplayRequest
from rules.spreadsheet import neutralised_row
from tournaments.models import Registration, Sheet, Tournament

# The columns of a list's downloads, in order (the same in CSV and JSON, whatever the reader's language, so that a
# list's files are the same bytes every time they are downloaded).
LIST_COLUMNS = ("position", "id", "last_name", "first_name", "country", "club", "rating", "rank", "games",
                "last_played")
WITHHELD = "—"


def official_lists(system_code: str) -> list[OfficialList]:
    """Every list of a system, the newest first."""
    return list(OfficialList.objects.filter(system_id=system_code).order_by("-number"))


def official_list(system_code: str, number: int) -> OfficialList | None:
    return OfficialList.objects.filter(system_id=system_code, number=number).first()


def list_in_force(system_code: str, day: date) -> OfficialList | None:
    """The list in force on `day`: the latest dated on or before it (of one date, the last issued)."""
    return (OfficialList.objects.filter(system_id=system_code, valid_from__lte=day)
            .order_by("-valid_from", "-number").first())


def last_rated_tournament(system_code: str) -> Tournament | None:
    """The live ratings are those after this tournament: the last rated in history order."""
    return (Tournament.objects.filter(system_id=system_code, status=Tournament.RATED)
            .order_by("-end_date", "-start_date", "-id").only("id", "name", "end_date").first())


def latest_lists(system_codes: list[str]) -> dict[str, OfficialList]:
    """The newest list of each system, in one query."""
    latest: dict[str, OfficialList] = {}
    for official in OfficialList.objects.filter(system_id__in=system_codes).order_by("system_id", "-number"):
        latest.setdefault(official.system_id, official)
    return latest


def excluded_ids() -> set[int]:
    """The players excluded now (a short list: every exclusion retires the ID, players.governance)."""
    return set(Player.objects.filter(pk__in=RetiredId.objects.values("id"), excluded_at__isnull=False)
               .values_list("id", flat=True))


def shown(rows: list[OfficialListRow], withheld: set[int] | None = None) -> list[OfficialListRow]:
    """The rows as a reader sees them: the name of a player excluded since the list withheld."""
    withheld = excluded_ids() if withheld is None else withheld
    for row in rows:
        row.withheld = row.player_id in withheld
        if row.withheld:
            row.last_name, row.first_name = WITHHELD, ""
    return rows


def list_page_rows(official: OfficialList, start: int, stop: int) -> list[OfficialListRow]:
    return shown(list(official.rows.order_by("position", "player_id")[start:stop]))


def player_official(player_id: int, system_codes: list[str]) -> dict[str, tuple[OfficialList, OfficialListRow | None]]:
    """The newest list of each system and the player's row in it (None: not listed), in two queries."""
    latest = latest_lists(system_codes)
    rows = {row.official_list_id: row for row in OfficialListRow.objects.filter(
        official_list__in=[official.pk for official in latest.values()], player_id=player_id)}
    return {code: (official, rows.get(official.pk)) for code, official in latest.items()}


def list_table(official: OfficialList) -> list[list]:
    """The list's rows as its downloads write them (LIST_COLUMNS), the rank as its code (RULES.md §4)."""
    withheld = excluded_ids()
    rows = []
    for row in official.rows.order_by("position", "player_id").iterator(chunk_size=2000):
        shown([row], withheld)
        rows.append([row.position, row.player_id, row.last_name, row.first_name, row.country_code, row.club_name,
                     row.rating, row.rank_code, row.games, row.last_played.isoformat() if row.last_played else ""])
    return rows


def list_document(official: OfficialList) -> dict:
    """The list as its JSON download: what it is, then its rows."""
    return {
        "system": official.system_id,
        "number": official.number,
        "date": official.valid_from.isoformat(),
        "issued_at": official.issued_at.isoformat(),
        "players": official.players,
        "columns": list(LIST_COLUMNS),
        "rows": list_table(official),
    }


def list_csv_rows(official: OfficialList) -> list[list]:
    """The CSV download's rows, the header first, every text made safe for a spreadsheet (rules.spreadsheet)."""
    return [list(LIST_COLUMNS), *(neutralised_row(row) for row in list_table(official))]


# --- what changed between two lists -------------------------------------------------------------------------

IMPORTED = "imported"
CORRECTED = "corrected"


@dataclass
class ChangedTournament:
    id: int
    name: str
    end_date: date
    kind: str  # IMPORTED or CORRECTED
    at: datetime


@dataclass
class ListChange:
    player_id: int
    name: str
    before: OfficialListRow | None
    after: OfficialListRow | None
    tournaments: list[ChangedTournament] = field(default_factory=list)

    @property
    def withheld(self) -> bool:
        return bool(getattr(self.after or self.before, "withheld", False))

    @property
    def change(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.after.rating - self.before.rating

    @property
    def moved(self) -> int | None:
        """Places gained (positive) or lost."""
        if self.before is None or self.after is None:
            return None
        return self.before.position - self.after.position


@dataclass
class ListComparison:
    older: OfficialList
    newer: OfficialList
    changes: list[ListChange]
    tournaments: list[ChangedTournament]
    years_closed: list[int]
    other_changes: int  # changes of the facts that were no sheet: the board's corrections, exclusions, merges


def lists_compared(older: OfficialList, newer: OfficialList) -> ListComparison:
    """Who changed between two lists of a system (rating, position, entering or leaving), by how much, and why."""
    withheld = excluded_ids()
    before = {row.player_id: row for row in shown(list(older.rows.all()), withheld)}
    after = {row.player_id: row for row in shown(list(newer.rows.all()), withheld)}
    tournaments, other = _changes_between(older, newer)
    played: dict[int, list[ChangedTournament]] = defaultdict(list)
    by_id = {t.id: t for t in tournaments}
    for player_id, tournament_id in (Registration.objects.filter(tournament_id__in=by_id)
                                     .order_by("tournament__end_date", "tournament_id")
                                     .values_list("player_id", "tournament_id")):
        played[player_id].append(by_id[tournament_id])
    changes = []
    for player_id in before.keys() | after.keys():
        old, new = before.get(player_id), after.get(player_id)
        if old is not None and new is not None and (old.rating, old.position, old.games, old.rank_code) == (
                new.rating, new.position, new.games, new.rank_code):
            continue
        named = new or old
        name = named.last_name + (f", {named.first_name}" if named.first_name else "")
        changes.append(ListChange(player_id, name, old, new, played.get(player_id, [])))
    changes.sort(key=lambda c: (-abs(c.change) if c.change is not None else 0, c.after is None, c.name, c.player_id))
    years = sorted(ClosedYear.objects.filter(system_id=newer.system_id, closed_at__gt=older.issued_at,
                                             closed_at__lte=newer.issued_at).values_list("year", flat=True))
    return ListComparison(older, newer, changes, tournaments, years, other)


def _changes_between(older: OfficialList, newer: OfficialList) -> tuple[list[ChangedTournament], int]:
    """The tournaments whose sheet was imported between the two lists (a correction when the tournament had an
    earlier sheet), and how many other changes of the facts came between them."""
    low, high = sorted((older.last_request or 0, newer.last_request or 0))
    requests = set(ReplayRequest.objects.filter(system_id=newer.system_id, id__gt=low, id__lte=high)
                   .values_list("id", flat=True))
    sheets = list(Sheet.objects.filter(replay_request_id__in=requests, tournament__isnull=False,
                                       imported_at__isnull=False)
                  .select_related("tournament").order_by("imported_at", "id"))
    tournament_ids = {s.tournament_id for s in sheets}
    first_import = {}
    for tournament_id, at in (Sheet.objects.filter(tournament_id__in=tournament_ids, imported_at__isnull=False)
                              .order_by("imported_at", "id").values_list("tournament_id", "imported_at")):
        first_import.setdefault(tournament_id, at)
    found: dict[int, ChangedTournament] = {}
    for sheet in sheets:  # the first sheet of the window says imported or corrected; the last one says when
        kind = IMPORTED if first_import[sheet.tournament_id] >= sheet.imported_at else CORRECTED
        known = found.setdefault(sheet.tournament_id, ChangedTournament(
            sheet.tournament_id, sheet.tournament.name, sheet.tournament.end_date, kind, sheet.imported_at))
        known.at = sheet.imported_at
    with_sheet = {s.replay_request_id for s in sheets}
    tournaments = sorted(found.values(), key=lambda t: (t.end_date, t.id))
    return tournaments, len(requests - with_sheet)
