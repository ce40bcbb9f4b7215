"""Publishing the tournament day (PAIRING.md §7): the official workbook built from the live data, imported through
the same checks and the same import as an uploaded sheet. Nothing of a live tournament is rated before this.

Before publishing, the referee sees what an uploaded sheet's preview shows (every rating change, the warnings),
its players named, never a sheet's cells (`live_preview`). At any moment the referee may download the workbook
of the games entered so far (`live_workbook(partial=True)`): a venue that loses the network finishes the day in
Excel and uploads it.

Terms
-----
who is published
    The entrants who played a game: a player who never played (added by mistake, never arrived) is not in the
    workbook, so a player new to the federation receives no federation ID for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from rules.rulesets import SPARE_ID, SPARE_NAME
from rules.sheet.report import Issue, Report
from tournaments.before.entries import sheet_columns
from tournaments.live.hall_row import row_changed
from tournaments.live.pools import locked, pool_names, pool_state, sheet_id
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveTournament
from tournaments.sheets.preview import Preview, sheet_preview
from tournaments.sheets.services import SheetOutcome, sheet_check, sheet_import_bytes
from tournaments.sheets.template import ENGLISH, SheetWords, result_workbook


def live_publish(live: LiveTournament, *, user=None) -> SheetOutcome:
    """Build the official workbook from the live data and import it as an upload (PAIRING.md §7)."""
    with transaction.atomic():
        live = locked(live)
        data = live_workbook(live)
        tournament = live.tournament
        outcome = sheet_import_bytes(data=data, file_name=f"live-{tournament.pk}.xlsx", user=user)
        if outcome.ok:
            live.published_sheet = outcome.sheet
            live.published_at = timezone.now()
            live.version += 1
            live.save(update_fields=["published_sheet", "published_at", "version"])
            row_changed(live.pk)
            tags = {sheet_id(e): e.pk for e in live.entrants.filter(player__isnull=True)}
            for tag, player in outcome.new_players.items():
                LiveEntrant.objects.filter(live=live, pk=tags[tag]).update(player_id=player)
    return outcome


def live_workbook(live: LiveTournament, *, partial: bool = False, words: SheetWords = ENGLISH) -> bytes:
    """The official result sheet of the live tournament (its Tournament ID, the players who played, every game).

    `partial`: the workbook so far, whatever the day's progress: every published round's tables, results left
    blank where none is in yet, for the referee to finish in Excel. Otherwise every round must be complete.
    `words`: the template's names (the referee's language for the download; the published sheet is English)."""
    tournament = live.tournament
    problems = []
    games = []
    pools = pool_names(live)
    for pool in pools:
        state = pool_state(live, pool)
        if not partial and (state.played < tournament.rounds or not state.complete()):
            problems.append(("not_complete", {"pool": pool, "played": state.played - (not state.complete()),
                                              "rounds": tournament.rounds}))
        number = {r.pk: r.number for r in state.rounds}
        for t in state.tables:
            games.append((number[t.round_id], t.table, sheet_id(t.a), sheet_id(t.b) if t.b else SPARE_ID,
                          t.result, t.a_losses, t.b_losses, "yes" if t.free else "no"))
    if problems:
        raise LiveRefused(problems)
    # Only those who played a game: not one never checked in or removed, nor a new player who never played
    # (who would otherwise receive a federation ID), PAIRING.md §6.
    playing = {g[k] for g in games for k in (2, 3)}
    entrants = [e for e in live.entrants.order_by("pool", "-rating", "pk") if sheet_id(e) in playing]
    entered = sheet_columns(tournament=tournament)  # an entry's army and late-list penalty (tournaments.before.entries)
    players = [(sheet_id(e), e.last_name, e.first_name, e.club or None, e.country or None, e.pool,
                *entered.get(e.player_id, (None, None, None))) for e in entrants]
    if SPARE_ID in playing:
        players.append((SPARE_ID, SPARE_NAME, None, None, None, pools[0]))
    values = {
        "tournament_id": tournament.pk, "name": tournament.name, "rating_system": tournament.system_id,
        "start": tournament.start_date, "end": tournament.end_date, "city": tournament.city,
        "country": tournament.country_id,
        "organising_club": tournament.organising_club.name if tournament.organising_club else None,
        "referee": tournament.referee_name or "-", "army_points": tournament.army_points,
        "rounds": tournament.rounds, "worlds": tournament.worlds, "official": tournament.official,
    }
    return result_workbook(tournament=values, players=players, games=sorted(games), words=words)


@dataclass
class LivePreview:
    """What publishing would do, as an uploaded sheet's preview says it: `preview` (every rating change; None when
    the import would refuse the workbook), and the warnings and errors as notices naming players (codes of
    rules.pairing.messages), never a sheet's cells."""

    preview: Preview | None
    warnings: list[tuple[str, dict]] = field(default_factory=list)
    errors: list[tuple[str, dict]] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # a player's sheet ID (str) -> their name


def live_preview(live: LiveTournament) -> LivePreview:
    """The preview of the publication: the workbook built and checked as an upload is, nothing written."""
    data = live_workbook(live)
    parsed, report = sheet_check(data=data)
    names = {str(sheet_id(e)): f"{e.first_name} {e.last_name}".strip() for e in live.entrants.all()}
    names[str(SPARE_ID)] = SPARE_NAME
    return LivePreview(preview=sheet_preview(parsed) if report.ok else None,
                       warnings=[_named(issue, names) for issue in report.warnings],
                       errors=[_named(issue, names) for issue in report.errors], names=names)


def _named(issue: Issue, names: dict[str, str]) -> tuple[str, dict]:
    """A sheet's issue as the day's pages say it: the players by name, no cell. The codes the live workbook can
    raise have words of their own; any other keeps the sheet's sentence, without its place."""
    p = dict(issue.params)

    def name(key) -> str:
        return names.get(str(key), str(key))

    if issue.code == "same_club_pairing":
        return "publish_same_club", {"a": name(p.get("a")), "b": name(p.get("b")), "club": p.get("club", ""),
                                     "round": p.get("round", "")}
    if issue.code == "new_player_matches_known":
        known = f"{p.get('first_name', '')} {p.get('last_name', '')}".strip()
        return "publish_new_matches_known", {"player": name(p.get("key")), "known": known, "id": p.get("id", "")}
    if issue.code == "name_differs":
        return "publish_name_differs", {"sheet_name": p.get("sheet_name", ""), "site_name": p.get("site_name", ""),
                                        "id": p.get("id", "")}
    if issue.code == "players_met_twice":
        return "publish_met_twice", {"a": name(p.get("a")), "b": name(p.get("b"))}
    if issue.code == "player_without_game":
        return "publish_without_game", {"player": name(p.get("key"))}
    # The sheet's own sentence, without its place: the workbook's players already carry their names in it
    # (rules.sheet.naming), "Benoît Moreau (229)".
    return "publish_issue", {"code": issue.code, "params": dict(p)}


def report_notices(report: Report, live: LiveTournament) -> list[tuple[str, dict]]:
    """A refused publication's errors, players named (the publish page shows them when the import refuses)."""
    names = {str(sheet_id(e)): f"{e.first_name} {e.last_name}".strip() for e in live.entrants.all()}
    return [_named(issue, names) for issue in report.errors]
