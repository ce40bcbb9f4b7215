"""Result-sheet import: check a workbook against the federation, preview it, then write it all or nothing.

The pure reader (rules.sheet) finds everything wrong inside the file; this module adds what only the
database knows (IDs, excluded players, tournaments already on the site), keeps every upload, and writes an
accepted sheet's tournament, players, registrations and games in one transaction together with the replay
request that brings ratings up to date.

A tournament run live on the site (a LiveTournament not yet published) gets its results from its tournament day,
whose publication imports its own workbook through this module: a sheet a referee sends for it meanwhile (the
upload page, the API, import_results: ``refuse_if_live=True``) is refused, or it would be rated while the live
page still says the tournament is running — unless the referee handed the day over to the spreadsheet
(tournaments.live.handover): then the sheet is the tournament's results, as any upload.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from adlg_site.words import in_each_language, language, languages, say
from players import permissions
from players.audit import audit_record
from players.models import SPARE_ID, IdAllocator, Player, RetiredId
from players.services import club_for_name, player_ids_allocate
from ratings.models import RatingSystem
from ratings.requests import replay_request
from ratings.selectors import filter_choices_forget
from rules.exchange.upload import Kind, file_kind, read_upload
from rules.sheet.checks import check_sheet, referenced_ids
from rules.sheet.format import JSON_SCHEMA_CODES
from rules.sheet.parsed import KnownPlayer, KnownTournament, ParsedSheet, SheetContext, parsed_as_json, parsed_from_json
from rules.sheet.report import Issue, Report, report_as_json, report_from_json
from rules.sheet.values import name_club_key
from rules.words import Forbidden, gettext_noop
from tournaments.models import Game, Registration, Sheet, Tournament


@dataclass
class SheetOutcome:
    """What happened to one uploaded file; `as_json` is the line `import_results --json` prints."""

    sheet: Sheet | None
    report: Report
    tournament_id: int | None = None
    new_players: dict[str, int] = field(default_factory=dict)
    unchanged: bool = False

    @property
    def ok(self) -> bool:
        return self.report.ok

    def as_json(self, lang: str | None = None) -> dict:
        report = say(self.report.as_dict, lang=lang)
        return {
            "ok": self.ok,
            "tournament_id": self.tournament_id,
            "new_players": dict(self.new_players),
            "errors": report["errors"],
            "warnings": report["warnings"],
        }


def _context(parsed: ParsedSheet) -> SheetContext:
    ids = referenced_ids(parsed)
    known = {
        p.id: KnownPlayer(p.id, p.last_name, p.first_name, p.club.name if p.club else None, p.is_excluded)
        for p in Player.objects.filter(id__in=ids).select_related("club")
    }
    new_last_names = {p.last_name.casefold() for p in parsed.players if p.player_id is None and p.last_name}
    name_club_index = {}
    if new_last_names:
        candidates = (
            Player.objects.public().annotate(lower_last=Lower("last_name"))
            .filter(lower_last__in=new_last_names).select_related("club")
        )
        for p in candidates:
            key = name_club_key(last_name=p.last_name, first_name=p.first_name, club=p.club.name if p.club else None)
            name_club_index[key] = p.id
    # The values that could be read, even when others of the Tournament sheet are wrong, so the referee
    # hears about unknown IDs and duplicates in the same report as a blank City.
    fields = parsed.tournament_fields
    tournament = same = None
    if isinstance(fields.get("tournament_id"), int):
        tournament = _known_tournament(Tournament.objects.filter(pk=fields["tournament_id"]).first())
    elif fields.get("name") and fields.get("start"):
        row = (
            Tournament.objects.filter(start_date=fields["start"], name__iexact=str(fields["name"]).strip())
            .exclude(status=Tournament.REGISTERED)
            .first()
        )
        same = _known_tournament(row)
    retired = frozenset(RetiredId.objects.filter(id__in=ids).values_list("id", flat=True))
    return SheetContext(players=known, name_club_index=name_club_index, tournament=tournament,
                        same_name_and_start=same, retired_ids=retired)


def _known_tournament(row: Tournament | None) -> KnownTournament | None:
    if row is None:
        return None
    return KnownTournament(row.id, row.name, row.start_date, row.system_id)


def sheet_check(*, data: bytes, today: date | None = None, kind: Kind | None = None) -> tuple[ParsedSheet, Report]:
    """Read and check a workbook, or a tournament in the exchange format (rules.exchange: `kind` "json", or found
    by content): the file's own problems, then the federation's. Writes nothing."""
    parsed = read_upload(data, today=today or timezone.localdate(), kind=kind)
    return parsed, _checked(parsed)


def _checked(parsed: ParsedSheet) -> Report:
    """The reader's report plus the federation's checks, made now against the database."""
    if parsed.report.refused or _sheet_missing(parsed.report):
        return parsed.report
    return check_sheet(parsed, _context(parsed))


def sheet_reading(sheet: Sheet) -> ParsedSheet:
    """What the reader found in the sheet's file when it was uploaded: the file is parsed once per upload. (A
    sheet kept before readings were stored is read again.)"""
    parsed = parsed_from_json(sheet.reading or {})
    if parsed is None:
        content = bytes(sheet.content)
        parsed = read_upload(content, today=timezone.localdate(), kind=file_kind(content, file_name=sheet.file_name))
    return parsed


def sheet_recheck(sheet: Sheet, *, refuse_if_live: bool = False) -> tuple[ParsedSheet, Report]:
    """The stored reading, checked again against the federation as it is now (for the preview and the import)."""
    parsed = sheet_reading(sheet)
    report = _checked(parsed)
    return parsed, _refused_if_live(parsed, report) if refuse_if_live else report


def running_live(parsed: ParsedSheet) -> Tournament | None:
    """The tournament of the site the sheet is for (by its Tournament ID, else by its name and first day) when it
    is being run live on the site: its LiveTournament exists, is not published nor handed over to the sheet."""
    fields = parsed.tournament_fields
    running = Tournament.objects.filter(live__isnull=False, live__published_at__isnull=True,
                                        live__handed_over_at__isnull=True)
    if isinstance(fields.get("tournament_id"), int):
        return running.filter(pk=fields["tournament_id"]).first()
    if fields.get("name") and isinstance(fields.get("start"), date):
        return running.filter(start_date=fields["start"], name__iexact=str(fields["name"]).strip()).first()
    return None


def _refused_if_live(parsed: ParsedSheet, report: Report) -> Report:
    """The report, with first an error when the sheet's tournament is being run live (see the module)."""
    if report.refused or _sheet_missing(report):
        return report
    tournament = running_live(parsed)
    if tournament is None:
        return report
    cells = parsed.tournament_cells
    issue = Issue(code="tournament_running_live", sheet="Tournament",
                  cell=cells.get("tournament_id") or cells.get("name") or "B2",
                  params={"id": tournament.pk, "name": tournament.name})
    return Report(errors=[issue, *report.errors], warnings=list(report.warnings), more_errors=report.more_errors,
                  more_warnings=report.more_warnings)


def sheet_report(sheet: Sheet) -> Report:
    """The report as it was stored with the sheet (at upload, or at the import's last check)."""
    checked = (sheet.reading or {}).get("checked")
    if checked is not None:
        return report_from_json(checked)
    return sheet_recheck(sheet)[1]


def stored_report(sheet: Sheet, lang: str | None = None) -> dict:
    """The sheet's stored report ({"errors", "warnings"}) in the language asked for (the reader's by default), or in
    the site's first language when it was stored without that one."""
    report = sheet.report or {}
    return report.get(language(lang)) or report.get(languages()[0]) or {"errors": [], "warnings": []}


def _stored(parsed: ParsedSheet, report: Report) -> dict:
    """The Sheet fields that keep a reading and its report: bounded (REPORT_LIMIT issues of each severity)."""
    return {
        "report": {
            **in_each_language(report.as_dict),
            "counts": {"errors": report.error_count, "warnings": report.warning_count},
        },
        "reading": {**parsed_as_json(parsed), "checked": report_as_json(report)},
    }


def _sheet_missing(report: Report) -> bool:
    """A workbook without one of the three sheets, or a tournament in JSON whose schema refuses it (nothing of it was
    read): checking it against the database would only add noise."""
    return any(issue.code == "missing_sheet" or issue.code in JSON_SCHEMA_CODES for issue in report.errors)


def sheet_receive(*, data: bytes, file_name: str, user=None, refuse_if_live: bool = False,
                  kind: Kind | None = None) -> tuple[Sheet, ParsedSheet, Report]:
    """Keep an uploaded file and its report (status rejected or checked). The referee confirms afterwards. The file
    is a result sheet or a tournament in the exchange format: `kind`, else its name's extension, else its content.

    A file identical to one already imported is not stored again: the earlier sheet is returned as it is,
    since the same sheet twice changes nothing.
    """
    sha256 = hashlib.sha256(data).hexdigest()
    previous = _already_imported(sha256)
    if previous is not None:
        parsed = sheet_reading(previous)
        return previous, parsed, parsed.report
    parsed, report = sheet_check(data=data, kind=kind or file_kind(data, file_name=file_name))
    if refuse_if_live:
        report = _refused_if_live(parsed, report)
    sheet = Sheet.objects.create(
        file_name=file_name[:200], content=data, sha256=sha256, size=len(data),
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
        status=Sheet.CHECKED if report.ok else Sheet.REJECTED,
        tournament_id=parsed.tournament.tournament_id if parsed.tournament and report.ok else None,
        **_stored(parsed, report),
    )
    return sheet, parsed, report


def _already_imported(sha256: str) -> Sheet | None:
    """The imported sheet of this content that its tournament holds now, if any. One a correction replaced since,
    or whose results the board withdrew, is not: sent again, it is imported again (a referee taking a correction
    back, or the results returned after a withdrawal), instead of being told that nothing changes."""
    sheet = (
        Sheet.objects.filter(sha256=sha256, status__in=Sheet.ACCEPTED, tournament__isnull=False)
        .select_related("tournament").defer("content").order_by("-imported_at", "-pk").first()
    )
    if sheet is None or sheet.tournament.status == Tournament.REGISTERED:
        return None
    held = (
        Sheet.objects.filter(tournament_id=sheet.tournament_id, status__in=Sheet.ACCEPTED)
        .order_by("-imported_at", "-pk").values_list("sha256", flat=True).first()
    )
    return sheet if held == sha256 else None


def sheet_import_committed(*, sheet: Sheet | None = None, data: bytes | None = None, user=None) -> Sheet | None:
    """After a fault of the site during an import: the sheet, if its import committed before the fault (a cache or
    the broker failing in an on-commit hook), else None (everything was rolled back). The upload page asks about
    the sheet it confirmed; the API, which had no sheet yet, about the file this user sent."""
    imported = Sheet.objects.filter(status__in=Sheet.ACCEPTED).defer("content")
    if sheet is not None:
        return imported.filter(pk=sheet.pk).first()
    sha256 = hashlib.sha256(data or b"").hexdigest()
    return imported.filter(sha256=sha256, uploaded_by=user).order_by("-imported_at").first()


def sheet_import(*, sheet: Sheet, user=None, refuse_if_live: bool = False) -> SheetOutcome:
    """Import a received sheet all or nothing; the same content twice changes nothing the second time.
    `refuse_if_live`: a referee's sheet, refused for a tournament being run live (see the module)."""
    with transaction.atomic():
        # One import at a time: the allocator row is the federation-wide lock for new IDs and new tournaments,
        # so two referees importing at once end as if one had gone first.
        IdAllocator.objects.get_or_create(pk=1)
        IdAllocator.objects.select_for_update().get(pk=1)
        previous = _already_imported(sheet.sha256)
        if previous is not None:
            parsed = sheet_reading(previous)
            Sheet.objects.filter(pk=sheet.pk).update(
                status=previous.status, tournament=previous.tournament, new_players=previous.new_players,
                replay_request=previous.replay_request, imported_at=previous.imported_at)
            return SheetOutcome(sheet=sheet, report=parsed.report, tournament_id=previous.tournament_id,
                                new_players=dict(previous.new_players), unchanged=True)
        # Checked again, now under the lock: since the upload was checked, another import may have added the
        # same tournament or changed the players it names. The file itself is not read again.
        parsed, report = sheet_recheck(sheet, refuse_if_live=refuse_if_live)
        if not report.ok:
            Sheet.objects.filter(pk=sheet.pk).update(status=Sheet.REJECTED, **_stored(parsed, report))
            return SheetOutcome(sheet=sheet, report=report)
        tournament, new_players, since = _write_tournament(parsed, user=user)
        if getattr(user, "is_authenticated", False) and not tournament.referees.filter(pk=user.pk).exists():
            tournament.referees.add(user)  # whoever sent it may correct it later
        request = replay_request(system=tournament.system, since=since,
                                 reason=f"sheet {sheet.file_name} for tournament {tournament.pk}")
        sheet.tournament = tournament
        sheet.status = Sheet.IMPORTED
        sheet.new_players = new_players
        sheet.replay_request = request
        sheet.imported_at = timezone.now()
        stored = _stored(parsed, report)
        sheet.report, sheet.reading = stored["report"], stored["reading"]
        sheet.save(update_fields=["tournament", "status", "new_players", "replay_request", "imported_at",
                                  "report", "reading"])
        audit_record(user=user, action="import_sheet", obj=tournament,
                     summary=f"{sheet.file_name}: {len(parsed.games)} games, {len(new_players)} new players",
                     changes={"sheet": sheet.pk, "sha256": sheet.sha256, "new_players": new_players})
    return SheetOutcome(sheet=sheet, report=report, tournament_id=tournament.pk, new_players=new_players)


def sheet_import_bytes(*, data: bytes, file_name: str, user=None, refuse_if_live: bool = False,
                       kind: Kind | None = None) -> SheetOutcome:
    """Receive and import in one step (the `import_results` command; the tournament day's publication)."""
    with transaction.atomic():
        sheet, _, report = sheet_receive(data=data, file_name=file_name, user=user, refuse_if_live=refuse_if_live,
                                         kind=kind)
        if not report.ok:
            return SheetOutcome(sheet=sheet, report=report)
        if sheet.status in (Sheet.IMPORTED, Sheet.REPLAYED):
            return SheetOutcome(sheet=sheet, report=report, tournament_id=sheet.tournament_id,
                                new_players=dict(sheet.new_players), unchanged=True)
        return sheet_import(sheet=sheet, user=user, refuse_if_live=refuse_if_live)


def _write_tournament(parsed: ParsedSheet, *, user) -> tuple[Tournament, dict[str, int], date]:
    info = parsed.tournament
    system = RatingSystem.objects.get(code=info.rating_system)
    clubs: dict = {}
    values = {
        "system": system, "name": info.name.strip(), "start_date": info.start, "end_date": info.end,
        "city": info.city, "country_id": info.country, "referee_name": info.referee,
        "organising_club": club_for_name(info.organising_club, country_id=info.country, cache=clubs),
        "army_points": info.army_points, "rounds": info.rounds, "worlds": info.worlds, "official": info.official,
        "pools": len({p.pool for p in parsed.players}) or 1, "status": Tournament.RECEIVED,
    }
    if info.tournament_id is not None:
        tournament = Tournament.objects.select_for_update().get(pk=info.tournament_id)
        since = min(tournament.end_date, info.end) if tournament.status != Tournament.REGISTERED else info.end
        for key, value in values.items():
            setattr(tournament, key, value)
        tournament.save()
        # Its rating events stay until the replay, which rewrites everything from `since` on: each records the
        # state its player was in, and the replay starts from them (ratings.services._start_state_from_cut).
        tournament.games.all().delete()
        # A player who stays registered keeps the date of the registration: it decides whether the tournament's
        # referees see the player's cards (players.permissions).
        registered_at = dict(tournament.registrations.values_list("player_id", "registered_at"))
        tournament.registrations.all().delete()
    else:
        tournament = Tournament.objects.create(announced_on=None, **values)
        since = info.end
        registered_at = {}
    now = timezone.now()
    new_players = _create_new_players(parsed, clubs)
    ids = {p.key: (p.player_id if p.player_id is not None else new_players[p.key]) for p in parsed.players}
    Registration.objects.bulk_create([
        Registration(
            tournament=tournament, player_id=ids[p.key], pool=p.pool, army=p.army or "", penalty=p.penalty,
            penalty_reason=p.penalty_reason or "", row=p.row,
            club=club_for_name(p.club, country_id=p.country, cache=clubs),
            registered_at=registered_at.get(ids[p.key], now),
        )
        for p in parsed.players
    ])
    Game.objects.bulk_create([
        Game(tournament=tournament, round=g.round, table=g.table, player_a_id=ids[g.a], player_b_id=ids[g.b],
             result=g.result, a_losses=g.a_losses, b_losses=g.b_losses, free=g.free, row=g.row)
        for g in parsed.games
    ])
    filled = _fill_missing_player_details(parsed, ids, clubs)
    if new_players or filled:
        # Bulk writes send no signal: the rating list's country and club filters are forgotten here instead.
        transaction.on_commit(filter_choices_forget, robust=True)  # a cache down must not undo the message
    return tournament, new_players, since


def _create_new_players(parsed: ParsedSheet, clubs: dict) -> dict[str, int]:
    tagged = [p for p in parsed.players if p.player_id is None]
    given = player_ids_allocate(len(tagged))
    Player.objects.bulk_create([
        Player(id=pid, last_name=p.last_name.strip(), first_name=(p.first_name or "").strip(),
               club=club_for_name(p.club, country_id=p.country, cache=clubs), country_id=p.country)
        for pid, p in zip(given, tagged, strict=True)
    ])
    return {p.key: pid for pid, p in zip(given, tagged, strict=True)}


def _fill_missing_player_details(parsed: ParsedSheet, ids: dict[str, int], clubs: dict) -> int:
    """A known player whose record has no club or country takes the sheet's: the board's data stands.
    Returns how many players changed."""
    known = [p for p in parsed.players if p.player_id is not None and p.player_id != SPARE_ID]
    if not known:
        return 0
    incomplete = Player.objects.filter(Q(club__isnull=True) | Q(country__isnull=True),
                                       id__in=[p.player_id for p in known])
    by_id = {p.player_id: p for p in known}
    changed = []
    for player in incomplete:
        row = by_id[player.id]
        if player.club_id is None and row.club:
            player.club = club_for_name(row.club, country_id=row.country, cache=clubs)
        if player.country_id is None and row.country:
            player.country_id = row.country
        changed.append(player)
    return Player.objects.bulk_update(changed, ["club", "country"])


# Uploads that never became facts: rejected ones, checked ones the referee never confirmed, discarded ones.
UNIMPORTED = (Sheet.REJECTED, Sheet.CHECKED, Sheet.DISCARDED)


def unimported_sheets_purge(*, before) -> int:
    """Deletes the uploads never imported (file, reading and report) sent before `before`; imported sheets stay
    for good, since any version of a tournament's results can be downloaded again. Returns how many went."""
    deleted, _ = Sheet.objects.filter(status__in=UNIMPORTED, uploaded_at__lt=before, imported_at__isnull=True).delete()
    return deleted


class UploadForbidden(Forbidden):
    """The sheet names a tournament of the site that this user does not referee (`tournament`), or none and the
    user referees nothing."""

    sentences = {
        "not_a_referee": gettext_noop("Only referees and the technical board may send result sheets."),
        "not_your_tournament": gettext_noop(
            "Tournament no. %(id)s is not one you referee: only its referees and the technical board may send "
            "its results. Nothing was kept."),
    }

    def __init__(self, tournament: Tournament | None) -> None:
        super().__init__([("not_a_referee", {})] if tournament is None
                         else [("not_your_tournament", {"id": tournament.pk})])
        self.tournament = tournament


def named_tournament(parsed: ParsedSheet) -> Tournament | None:
    """The tournament of the site named by the sheet's Tournament ID, when there is one and it exists."""
    tournament_id = parsed.tournament_fields.get("tournament_id")
    if not isinstance(tournament_id, int):
        return None
    return Tournament.objects.filter(pk=tournament_id).first()


def sheet_receive_as(*, user, data: bytes, file_name: str) -> tuple[Sheet, ParsedSheet, Report]:
    """sheet_receive of a referee's sheet (refused for a tournament being run live), undone (nothing kept) when the
    sheet names a tournament this user may not send."""
    with transaction.atomic():
        sheet, parsed, report = sheet_receive(data=data, file_name=file_name, user=user, refuse_if_live=True)
        tournament = named_tournament(parsed)
        if not permissions.can_send_sheet(user, tournament):
            raise UploadForbidden(tournament)
    return sheet, parsed, report
