"""Publishing the day (PAIRING.md §7): the preview an uploaded sheet gets, players named, before the referee publishes;
the workbook of the games entered so far, downloadable at any moment; and finishing the day in that workbook
instead (tournaments.live.handover): a venue that loses the network, or a referee who prefers Excel for the end."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.live import publication, selectors
from tournaments.live.forms import HandOverForm
from tournaments.live.handover import live_hand_over, live_take_back
from tournaments.live.page_tools import (
    current_number,
    lang,
    one_effect,
    open_after_hand_over,
    referee_only,
    running_live,
    words,
)
from tournaments.live.pools import published_round_count
from tournaments.live.refusals import LiveRefused, notice_text
from tournaments.models import LiveTournament, Tournament
from tournaments.sheets.words import template_words

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _preview_page(request, tournament, live, *, errors=(), status=200):
    view = selectors.live_view(live, language=lang())
    refused, preview = [], None
    try:
        preview = publication.live_preview(live)
    except LiveRefused as exc:
        refused = words(exc, view)
    language = lang()
    return render(request, "live/publish.html", {
        "tournament": tournament, "live": live, "view": view, "current_number": current_number(view),
        "preview": preview.preview if preview else None, "refused": refused, "errors": errors,
        "warnings": [notice_text(code, params, language) for code, params in (preview.warnings if preview else [])],
        "sheet_errors": [notice_text(code, params, language) for code, params in (preview.errors if preview else [])],
    }, status=status)


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
def live_publish(request, tournament: Tournament, live: LiveTournament):
    """GET: what publishing will change (every rating, the warnings), nothing written. POST: publish."""
    if live.published_at is not None:
        return redirect("referee:live_run", tournament_id=tournament.pk)
    if request.method == "GET":
        return _preview_page(request, tournament, live)
    return _publish(request, tournament, live)


@one_effect(seen_matters=True, stale_to="referee:live_publish")
def _publish(request, tournament: Tournament, live: LiveTournament):
    try:
        outcome = publication.live_publish(live, user=request.user)
    except LiveRefused as exc:
        return _preview_page(request, tournament, live, errors=words(exc), status=400)
    if not outcome.ok:
        errors = [notice_text(code, params, lang())
                  for code, params in publication.report_notices(outcome.report, live)]
        return _preview_page(request, tournament, live, errors=errors or [_("The sheet was refused.")], status=400)
    messages.success(request, _("The tournament is published: its ratings are being computed."))
    return redirect("referee:sheet_status", pk=outcome.sheet.pk)


@referee_only
@require_GET
@running_live
@open_after_hand_over
def live_workbook_download(request, tournament: Tournament, live: LiveTournament):
    """The official workbook of the games entered so far: results blank where none is in yet."""
    # In the referee's language, as the template they download: they finish the day in it (the reader takes both).
    response = HttpResponse(publication.live_workbook(live, partial=True, words=template_words()), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="live-{tournament.pk}-so-far.xlsx"'
    return response


def _hand_over_page(request, tournament, live, form, *, errors=(), status=200):
    return render(request, "live/hand_over.html", {
        "tournament": tournament, "live": live, "form": form, "errors": errors,
        "published_rounds": published_round_count(live)}, status=status)


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
def live_hand_over_view(request, tournament: Tournament, live: LiveTournament):
    """GET: what finishing the day in the spreadsheet means, and its confirmation. POST: hand the day over."""
    if request.method == "GET":
        return _hand_over_page(request, tournament, live, HandOverForm())
    return _hand_over(request, tournament, live)


@one_effect(seen_matters=True, stale_to="referee:live_hand_over")
def _hand_over(request, tournament: Tournament, live: LiveTournament):
    form = HandOverForm(request.POST)
    if not form.is_valid():
        return _hand_over_page(request, tournament, live, form, status=400)
    try:
        live_hand_over(live, user=request.user)
    except LiveRefused as exc:
        return _hand_over_page(request, tournament, live, form, errors=words(exc), status=400)
    messages.success(request, _("The day is handed over to the spreadsheet: fill in the workbook so far and upload "
                                "it as any result sheet."))
    return redirect("referee:live_handed_over", tournament_id=tournament.pk)


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
@open_after_hand_over
def live_handed_over(request, tournament: Tournament, live: LiveTournament):
    """GET: the day handed over, what to do next. POST: take the day back on the site (see handover's terms)."""
    if live.handed_over_at is None:
        return redirect("referee:live_run", tournament_id=tournament.pk)
    if request.method == "GET":
        return _handed_over_page(request, tournament, live)
    return _take_back(request, tournament, live)


def _handed_over_page(request, tournament, live, *, errors=(), status=200):
    return render(request, "live/handed_over.html", {
        "tournament": tournament, "live": live, "errors": errors,
        "sheets": tournament.sheets.order_by("-uploaded_at")[:5]}, status=status)


def _take_back(request, tournament: Tournament, live: LiveTournament):
    try:
        live_take_back(live, user=request.user)
    except LiveRefused as exc:
        return _handed_over_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("The day goes on on the site, where it stopped."))
    return redirect("referee:live_run", tournament_id=tournament.pk)
