"""A player's pages before a tournament (/tournaments/<id>/entry/): entering, withdrawing, sending the army list;
an army list's file. The calendars' feeds are tournaments.before.calendar_views'."""

from __future__ import annotations

from pathlib import PurePath

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from adlg_site.words import refusal_on, refusal_text
from players import permissions
from tournaments.before import entries as entry_rules
from tournaments.before.army_lists import LIST_MAX_BYTES, army_list_submit, list_history, list_visible
from tournaments.before.entries import EntryRefused, entry_of, entry_register, entry_withdraw
from tournaments.before.forms import ArmyListForm, EntryForm
from tournaments.models import ArmyList, Tournament

UPLOAD_ALLOWANCE = 64 * 1024  # the form's other fields and the multipart framing


def _entry_page(request, tournament: Tournament, *, entry_form=None, list_form=None, errors=(), status=200):
    user = request.user
    entry = entry_of(user=user, tournament=tournament)
    phase = entry_rules.entries_phase(tournament)
    spare_only = permissions.spare_only(user, tournament)
    if entry_form is None:
        initial = {"pool": entry.pool} if entry else {}
        entry_form = EntryForm(pools=entry_rules.pool_names(tournament), spare_only=spare_only, initial=initial)
    history = list_history(entry) if entry else []
    points, _reason = entry_rules.entry_penalty(entry) if entry else (0, "")
    if list_form is None:  # the army of the list sent before, to send it again changed
        list_form = ArmyListForm(initial={"army_name": history[0].army_name, "army_number": history[0].army_number}
                                 if history else None)
    return render(request, "public/entry.html", {
        "tournament": tournament, "announcement": entry_rules.announcement_of(tournament),
        "linked": permissions.player_of(user) is not None, "entry": entry, "phase": phase,
        "entry_form": entry_form, "list_form": list_form, "history": history,
        "current": history[0] if history else None, "penalty": points, "errors": list(errors),
    }, status=status)


@permissions.rule_required(permissions.is_signed_in, tournament_kwarg="tournament_id")
@require_safe
def entry_page(request, tournament: Tournament):
    return _entry_page(request, tournament)


@permissions.rule_required(permissions.is_signed_in, tournament_kwarg="tournament_id")
@require_POST
def entry_register_view(request, tournament: Tournament):
    form = EntryForm(request.POST, pools=entry_rules.pool_names(tournament),
                     spare_only=permissions.spare_only(request.user, tournament))
    if not form.is_valid():
        return _entry_page(request, tournament, entry_form=form, status=400)
    try:
        entry_register(user=request.user, tournament=tournament, pool=form.cleaned_data["pool"],
                       listed_without_name=form.cleaned_data["listed_without_name"],
                       as_spare=form.cleaned_data.get("as_spare", False))
    except EntryRefused as refused:
        return _entry_page(request, tournament, entry_form=form, errors=refusal_on(form, refused), status=400)
    messages.success(request, _("You are entered. Send your army list by %(date)s.")
                     % {"date": _date(tournament.announcement.list_deadline)})
    return redirect("entry_page", tournament_id=tournament.pk)


@permissions.rule_required(permissions.is_signed_in, tournament_kwarg="tournament_id")
@require_http_methods(["GET", "POST"])
def entry_withdraw_view(request, tournament: Tournament):
    """Withdraw in two steps: a page that says what withdrawing means, then its confirmation (confirm=yes);
    back to the account page when it came from there (back=account), else to the entry's page."""
    entry = entry_of(user=request.user, tournament=tournament)
    if entry is None:
        raise Http404
    back = "account" if (request.POST.get("back") or request.GET.get("back")) == "account" else "entry"
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            entry_withdraw(user=request.user, entry=entry)
        except EntryRefused as refused:
            return _entry_page(request, tournament, errors=refusal_text(refused), status=400)
        messages.success(request, _("You have withdrawn from %(name)s.") % {"name": tournament.name})
        if back == "account":
            return redirect(reverse("account") + "#my-tournaments")
        return redirect("entry_page", tournament_id=tournament.pk)
    return render(request, "public/entry_withdraw.html", {
        "tournament": tournament, "entry": entry, "back": back,
        "announcement": entry_rules.announcement_of(tournament),
        "phase": entry_rules.entries_phase(tournament)}, status=400 if request.method == "POST" else 200)


@csrf_exempt  # the CSRF check reads the body: its size is checked first, then _list_send checks the token
@permissions.rule_required(permissions.is_signed_in, tournament_kwarg="tournament_id")
@require_POST
def army_list_send(request, tournament: Tournament):
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > LIST_MAX_BYTES + UPLOAD_ALLOWANCE:
        message = _("The file is over %(limit)s MB: send a smaller one, or a link.") % {
            "limit": LIST_MAX_BYTES // (1024 * 1024)}
        return _entry_page(request, tournament, errors=[message], status=413)
    return _list_send(request, tournament)


@csrf_protect
def _list_send(request, tournament: Tournament):
    entry = entry_of(user=request.user, tournament=tournament)
    if entry is None:
        raise Http404
    form = ArmyListForm(request.POST, request.FILES)
    if not form.is_valid():
        return _entry_page(request, tournament, list_form=form, status=400)
    upload = form.cleaned_data.get("file")
    data = upload.read(LIST_MAX_BYTES + 1) if upload else None
    try:
        army_list_submit(user=request.user, entry=entry, army_name=form.cleaned_data["army_name"],
                         army_number=form.cleaned_data["army_number"],
                         file_name=PurePath(upload.name).name if upload else None, data=data,
                         url=form.cleaned_data.get("url"))
    except EntryRefused as refused:
        return _entry_page(request, tournament, list_form=form, errors=refusal_on(form, refused), status=400)
    messages.success(request, _("Your army list is sent: the list checker will check it."))
    return redirect("entry_page", tournament_id=tournament.pk)


@require_safe
def army_list_file(request, list_id: int):
    """A list's file, to whoever may see it (404 to anyone else: a list's existence is no one else's business)."""
    army_list = get_object_or_404(ArmyList.objects.select_related("entry__tournament"), pk=list_id)
    if army_list.kind == ArmyList.LINK or not list_visible(request.user, army_list):
        raise Http404
    content_type = "application/pdf" if army_list.kind == ArmyList.PDF else (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response = HttpResponse(bytes(army_list.content), content_type=content_type)
    # A name of the site's making: the player's file name never reaches a header.
    name = f"army-list-{army_list.entry.tournament_id}-{army_list.entry.player_id}-{army_list.pk}.{army_list.kind}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _date(value) -> str:
    return date_format(value)
