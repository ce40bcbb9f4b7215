"""The referee's result-sheet pages, mounted at /referee/ (namespace "referee").

The journey: download the template (blank, or pre-filled for a tournament on the site) → upload → the report
(errors by cell, an annotated copy to correct) → upload again → the preview of what will change → confirm →
the status page, which refreshes itself until the ratings are published (or the job failed).

Who may do what is decided by players.permissions; receiving, checking and importing a sheet by
tournaments.sheets.services.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import PurePath

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adlg_site import words
from adlg_site.inputs import whole_number
from players import permissions
from ratings.models import ReplayRequest
from rules.exchange import json_path
from rules.sheet.format import LIMIT_CODES, REFUSAL_CODES
from rules.sheet.naming import cell_subjects, issue_subject
from rules.sheet.parsed import ParsedSheet
from tournaments.before.entries import sheet_player_rows
from tournaments.models import LiveTournament, Sheet, Tournament
from tournaments.selectors import coming_first, without_results
from tournaments.sheets.annotate import annotate_workbook
from tournaments.sheets.forms import XLSX_TYPE, ConfirmForm, SheetUploadForm, too_big_message, upload_too_big
from tournaments.sheets.preview import sheet_preview
from tournaments.sheets.services import (
    UploadForbidden,
    sheet_import,
    sheet_import_committed,
    sheet_reading,
    sheet_receive_as,
    sheet_recheck,
    sheet_report,
    stored_report,
)
from tournaments.sheets.template import blank_workbook, prefilled_workbook
from tournaments.sheets.upload_limits import upload_wait_seconds
from tournaments.sheets.words import template_words

logger = logging.getLogger(__name__)

# A replay normally takes seconds; past this the status page stops refreshing and says whom to tell.
STALLED_AFTER = timedelta(minutes=15)


# --- shared with the API -------------------------------------------------------------------------------------


def language() -> str:
    """The reader's language, one of the site's (adlg_site.words.language)."""
    return words.language()


def tournament_url(tournament_id: int | None) -> str | None:
    if tournament_id is None:
        return None
    for name in ("tournament-detail", "tournament_detail"):
        try:
            return reverse(name, args=[tournament_id])
        except NoReverseMatch:
            continue
    return None


# --- helpers of the pages ------------------------------------------------------------------------------------


def _visible_sheet(request, pk: int) -> Sheet:
    """The sheet if this user may see it; anyone else gets 404, so sheet numbers reveal nothing."""
    sheet = get_object_or_404(Sheet.objects.select_related("tournament", "replay_request"), pk=pk)
    if not permissions.can_see_sheet(request.user, sheet):
        raise Http404(_("No result sheet with this number among yours."))
    return sheet


def _report(sheet: Sheet) -> dict:
    shown = stored_report(sheet)
    counts = (sheet.report or {}).get("counts") or {"errors": len(shown["errors"]), "warnings": len(shown["warnings"])}
    return {**shown, "error_count": counts["errors"], "warning_count": counts["warnings"]}


def _placed(report: dict, parsed: ParsedSheet, *, live: bool) -> dict:
    """The report with, for each issue of a player's or a game's row, what that row is about ("Benoît Moreau (229)",
    "round 5, table 3"): beside the cell for an uploaded sheet, instead of it for a tournament day's, whose referee
    never saw the workbook the site built (`live`)."""
    subjects = cell_subjects(parsed)

    def where(issue: dict) -> str:
        subject = issue_subject(issue.get("sheet", ""), issue.get("cell", ""), subjects)
        if subject is None:
            return ""
        kind, values = subject
        if kind == "game":
            return _("round %(round)s, table %(table)s") % values
        return f"{values['name']} ({values['key']})" if values["name"] else str(values["key"])

    def placed(issue: dict) -> dict:
        # The sheet as the referee's workbook names it ("Joueurs!I2" in a French template); the API keeps the
        # English names of RESULT_SHEET.md.
        titled = parsed.sheet_titles.get(issue.get("sheet", ""), issue.get("sheet", ""))
        # A tournament in JSON has no cells to show: the value's path in the file stands for them.
        path = ""
        if parsed.source == "json":
            cell = issue.get("cell", "")
            path = cell if cell.startswith("$") else json_path(issue.get("sheet", ""), cell)
        return {**issue, "where": where(issue), "sheet_title": titled, "json_path": path}

    return {**report, "live": live, "errors": [placed(i) for i in report["errors"]],
            "warnings": [placed(i) for i in report["warnings"]]}


def _published_live(sheet: Sheet) -> bool:
    """The sheet a tournament day's publication built and imported (tournaments.live.publication)."""
    return LiveTournament.objects.filter(published_sheet=sheet).exists()


def too_many_uploads_message(wait: int) -> str:
    return _(
        "You have sent %(limit)s result sheets in the last hour, the most the site accepts from one account. "
        "Send this one again in %(minutes)s minutes."
    ) % {"limit": settings.SHEET_UPLOADS_PER_HOUR, "minutes": max(1, -(-wait // 60))}


def _xlsx(data: bytes, file_name: str) -> HttpResponse:
    response = HttpResponse(data, content_type=XLSX_TYPE)
    response["Content-Disposition"] = content_disposition_header(True, file_name)
    return response


def _forbidden(request, tournament: Tournament | None) -> HttpResponse:
    return render(request, "referee/forbidden.html", {"tournament": tournament}, status=403)


def _home(request, form: SheetUploadForm, *, status: int = 200, error: str = "") -> HttpResponse:
    user = request.user
    return render(
        request,
        "referee/home.html",
        {
            "form": form,
            "error": error,
            "tournaments": coming_first(permissions.my_tournaments(user)
                                        .select_related("system")
                                        .annotate(runnable=ExpressionWrapper(without_results(),
                                                                             output_field=BooleanField()))
                                        .order_by("-start_date")[:50]),
            "sheets": Sheet.objects.filter(uploaded_by=user)
            .defer("content")
            .select_related("tournament")[:20],
            "board": permissions.is_board(user),
        },
        status=status,
    )


@dataclass(frozen=True)
class Step:
    label: str
    state: str  # done, current, todo, failed
    when: datetime | None = None
    note: str = ""


@dataclass(frozen=True)
class Progress:
    steps: list[Step]
    waiting: bool  # the page refreshes itself while True
    stalled: bool
    failed: bool


def _progress(sheet: Sheet) -> Progress:
    status, request = sheet.status, sheet.replay_request
    imported = status in Sheet.ACCEPTED or (status == Sheet.FAILED and sheet.imported_at is not None)
    replay = request.status if request is not None else None
    failed = status == Sheet.FAILED or replay == ReplayRequest.FAILED
    steps = [Step(_("Received"), "done", sheet.uploaded_at)]
    if status == Sheet.REJECTED:
        steps.append(Step(_("Checked"), "failed", note=_("The sheet has errors to fix.")))
    elif status == Sheet.RECEIVED:
        steps.append(Step(_("Checked"), "current"))
    else:
        steps.append(Step(_("Checked"), "done"))
    if imported:
        steps.append(Step(_("Imported"), "done", sheet.imported_at))
    elif status == Sheet.CHECKED:
        steps.append(Step(_("Imported"), "current", note=_("Waiting for your confirmation.")))
    else:
        steps.append(Step(_("Imported"), "failed" if status == Sheet.FAILED else "todo"))
    if status == Sheet.REPLAYED or replay == ReplayRequest.DONE:
        steps.append(Step(_("Ratings updated"), "done", request.finished_at if request else None))
    elif failed and imported:
        steps.append(Step(_("Ratings updated"), "failed"))
    elif imported:
        note = (
            _("Being computed.") if replay == ReplayRequest.RUNNING else _("Waiting for the rating worker.")
        )
        steps.append(Step(_("Ratings updated"), "current", note=note))
    else:
        steps.append(Step(_("Ratings updated"), "todo"))
    steps.append(Step(_("Published"), "done" if status == Sheet.REPLAYED else "todo"))
    waiting = status == Sheet.RECEIVED or (status == Sheet.IMPORTED and not failed)
    since = request.requested_at if request is not None else sheet.imported_at or sheet.uploaded_at
    stalled = waiting and since is not None and timezone.now() - since > STALLED_AFTER
    return Progress(steps, waiting and not stalled, stalled, failed)


# --- pages ---------------------------------------------------------------------------------------------------


@require_GET
@permissions.rule_required(permissions.can_register_tournament)
def home(request):
    return _home(request, SheetUploadForm())


@require_GET
def template_blank(request):
    raw = request.GET.get("tournament", "").strip()
    if raw:
        tournament_id = whole_number(raw, minimum=1)
        if tournament_id is None:
            raise Http404(_("Give the tournament's number (digits only)."))
        return redirect("referee:tournament_template", tournament_id)
    return _xlsx(blank_workbook(words=template_words()), "adlg-result-sheet.xlsx")


@require_GET
@permissions.rule_required(permissions.can_manage_tournament, tournament_kwarg="tournament_id")
def tournament_template(request, tournament):
    # The registered players and those entered on the site, with their army and late-list penalty.
    players = sheet_player_rows(tournament=tournament)
    values = {
        "tournament_id": tournament.pk,
        "name": tournament.name,
        "rating_system": tournament.system_id,
        "start": tournament.start_date,
        "end": tournament.end_date,
        "city": tournament.city,
        "country": tournament.country_id,
        "organising_club": getattr(tournament.organising_club, "name", None),
        "referee": tournament.referee_name or None,
        "army_points": tournament.army_points,
        "rounds": tournament.rounds,
        "worlds": tournament.worlds,  # yes/no (oui/non) in the template's language
        "official": tournament.official,
    }
    # Sheet names, labels and headers in the referee's language: the reader takes the English and the French.
    return _xlsx(prefilled_workbook(tournament=values, players=players, words=template_words()),
                 f"result-sheet-{tournament.pk}.xlsx")


@csrf_exempt  # the CSRF check reads the body: the size is checked first, then _upload checks the token
@require_http_methods(["GET", "POST"])
@permissions.rule_required(permissions.can_register_tournament)
def upload(request):
    if request.method == "POST" and upload_too_big(request.META.get("CONTENT_LENGTH")):
        return _home(request, SheetUploadForm(), status=413, error=too_big_message())
    return _upload(request)


@csrf_protect
def _upload(request):
    if request.method != "POST":
        return redirect("referee:home")
    wait = upload_wait_seconds(request.user)
    if wait:
        response = _home(request, SheetUploadForm(), status=429, error=too_many_uploads_message(wait))
        response["Retry-After"] = str(wait)
        return response
    form = SheetUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _home(request, form, status=400)
    file = form.cleaned_data["file"]
    try:
        sheet, _parsed, _report = sheet_receive_as(
            user=request.user, data=file.read(), file_name=PurePath(file.name).name
        )
    except UploadForbidden as refused:
        return _forbidden(request, refused.tournament)
    if sheet.status in Sheet.ACCEPTED:  # the service hands back the earlier sheet of an identical file
        messages.info(
            request,
            _("This file was already imported on %(date)s: nothing changed.")
            % {"date": timezone.localtime(sheet.imported_at).strftime("%Y-%m-%d %H:%M")},
        )
        return redirect("referee:sheet_status", sheet.pk)
    return redirect("referee:sheet", sheet.pk)


@require_GET
@permissions.rule_required(permissions.is_signed_in)
def sheet_detail(request, pk: int):
    """The report of a sheet with errors, or the preview of a checked one."""
    sheet = _visible_sheet(request, pk)
    if sheet.status == Sheet.CHECKED:
        return _preview(request, sheet, ConfirmForm(warnings=len(_report(sheet)["warnings"])))
    if sheet.status != Sheet.REJECTED:
        return redirect("referee:sheet_status", sheet.pk)
    report = _report(sheet)
    parsed = sheet_reading(sheet)
    return render(
        request,
        "referee/report.html",
        {"sheet": sheet, "report": _placed(report, parsed, live=False),
         "refused": _refusal_kind(report), "form": SheetUploadForm(), "json": parsed.source == "json"},
    )


def _refusal_kind(report: dict) -> str:
    """'limit' for a file over one of the format's limits, 'unreadable' for one the site cannot read, '' for a
    sheet that was read (its report lists what to fix)."""
    codes = {issue["code"] for issue in report["errors"]}
    if codes & LIMIT_CODES:
        return "limit"
    return "unreadable" if codes & REFUSAL_CODES else ""


def _preview(request, sheet: Sheet, form: ConfirmForm, *, status: int = 200) -> HttpResponse:
    # The stored reading, checked against the federation as it is now.
    parsed, report = sheet_recheck(sheet, refuse_if_live=True)
    preview = sheet_preview(parsed) if report.ok else None
    return render(
        request,
        "referee/preview.html",
        {
            "sheet": sheet,
            "preview": preview,
            "report": _placed(report.as_dict(words.words_in(language())), parsed, live=False),
            "form": form,
            "upload_form": SheetUploadForm(),
            "may_confirm": preview is not None and permissions.can_send_sheet(request.user, sheet.tournament),
        },
        status=status,
    )


@require_POST
@permissions.rule_required(permissions.is_signed_in)
def sheet_confirm(request, pk: int):
    sheet = _visible_sheet(request, pk)
    if sheet.status != Sheet.CHECKED:
        return redirect("referee:sheet_status", sheet.pk)
    if not permissions.can_send_sheet(request.user, sheet.tournament):
        return _forbidden(request, sheet.tournament)
    form = ConfirmForm(request.POST, warnings=len(_report(sheet)["warnings"]))
    if not form.is_valid():
        return _preview(request, sheet, form, status=400)
    try:
        with transaction.atomic():
            # Locked and checked again: a double click must not import the sheet twice.
            locked = Sheet.objects.select_for_update().get(pk=sheet.pk)
            if locked.status == Sheet.CHECKED:
                sheet_import(sheet=locked, user=request.user, refuse_if_live=True)
    except Exception:
        # A fault of the site, not of the sheet. Whether it came before the commit (everything rolled back) or
        # after it (the import stands) is read from the sheet itself, so that the message is true either way.
        logger.exception("import of sheet %s failed", sheet.pk)
        if sheet_import_committed(sheet=sheet) is not None:
            messages.warning(
                request,
                _(
                    "The sheet was imported, but the site met a problem just after: the ratings will be "
                    "updated all the same, within a few minutes. Tell the technical board if this page still "
                    "says so in an hour."
                ),
            )
            return redirect("referee:sheet_status", sheet.pk)
        messages.error(
            request,
            _(
                "The import failed because of a problem on the site; nothing was changed. Try "
                "again in a few minutes, and tell the technical board if it fails again."
            ),
        )
        return redirect("referee:sheet", sheet.pk)
    return redirect("referee:sheet_status", sheet.pk)


@require_GET
@permissions.rule_required(permissions.is_signed_in)
def sheet_status(request, pk: int):
    sheet = _visible_sheet(request, pk)
    return render(
        request,
        "referee/status.html",
        {
            "sheet": sheet,
            "progress": _progress(sheet),
            "report": _placed(_report(sheet), sheet_reading(sheet), live=_published_live(sheet)),
            "tournament_url": tournament_url(sheet.tournament_id) if sheet.status == Sheet.REPLAYED else None,
            "new_players": sorted((sheet.new_players or {}).items()),
        },
    )


@require_GET
@permissions.rule_required(permissions.is_signed_in)
def sheet_annotated(request, pk: int):
    sheet = _visible_sheet(request, pk)
    if (sheet.file_name or "").lower().endswith(".json"):
        return redirect("referee:sheet", sheet.pk)  # a JSON document's report names paths: there is no copy to mark
    # The report stored with the sheet: only the copy itself needs the file opened.
    data = annotate_workbook(bytes(sheet.content), sheet_report(sheet), lang=language())
    if data is None:
        return render(
            request,
            "referee/report.html",
            {
                "sheet": sheet,
                "report": _report(sheet),
                "refused": "unreadable",
                "form": SheetUploadForm(),
                "error": _(
                    "This file cannot be annotated: it is not a workbook the site can open. Save it again from "
                    "Excel as .xlsx and send it again."
                ),
            },
            status=409,
        )
    stem = PurePath(sheet.file_name).stem or "result-sheet"
    return _xlsx(data, _("%(name)s-annotated.xlsx") % {"name": stem})


@require_GET
@permissions.rule_required(permissions.is_signed_in)
def sheet_file(request, pk: int):
    """The uploaded file, byte for byte."""
    sheet = _visible_sheet(request, pk)
    if (sheet.file_name or "").lower().endswith(".json"):
        response = HttpResponse(bytes(sheet.content), content_type="application/json")
        response["Content-Disposition"] = content_disposition_header(True, sheet.file_name)
        return response
    return _xlsx(bytes(sheet.content), sheet.file_name or f"result-sheet-{sheet.pk}.xlsx")


@require_GET
@permissions.rule_required(permissions.can_manage_tournament, tournament_kwarg="tournament_id")
def tournament_sheets(request, tournament):
    sheets = (
        Sheet.objects.filter(tournament=tournament, status__in=Sheet.ACCEPTED)
        .defer("content")
        .select_related("uploaded_by")
        .order_by("-imported_at", "-id")
    )
    return render(
        request,
        "referee/tournament_sheets.html",
        {
            "tournament": tournament,
            "sheets": sheets,
            "tournament_url": tournament_url(tournament.pk),
            "form": SheetUploadForm(),
        },
    )
