"""The referee's and the list checker's pages before a tournament, under /board/: a new tournament in the calendar
(App. 1 §1-2), its announcement (App. 1 §12), the entries (refuse one, lift a late-list penalty) and the army lists
(mark one compliant, return it)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from adlg_site import words
from players import permissions
from rules.charter import game_minutes
from tournaments.before import entries as entry_rules
from tournaments.before.announcement import AnnouncementRefused, announcement_save
from tournaments.before.army_lists import (
    army_list_check,
    current_lists,
    identical_flags,
    lists_published,
    lists_waiting,
)
from tournaments.before.conditions import CharterRefused
from tournaments.before.entries import EntryRefused, entry_penalty, entry_refuse, late_penalty_lift, tournament_entries
from tournaments.before.forms import AnnouncementForm, CheckForm, NewTournamentForm, ReasonForm, pool_formset
from tournaments.before.new_tournament import tournament_register
from tournaments.models import ArmyList, Entry, Tournament

# Where each failure of the announcement is shown: beside its field, else above the form.
FAILURE_FIELDS = {"deadline_too_late": "list_deadline", "duration_unexplained": "duration_note",
                  "first_round_unknown": "first_round", "first_round_unexplained": "first_round_note",
                  "checker_plays": "list_checker", "schedule_without_start": "start_time",
                  "schedule_before_start": "start_time", "schedule_too_long": "schedule", "schedule_line": "schedule",
                  "schedule_order": "schedule"}


@permissions.rule_required(permissions.can_register_tournament)
@require_http_methods(["GET", "POST"])
def new_tournament(request):
    """A referee or the board registers a new tournament in the calendar."""
    board = permissions.is_board(request.user)
    form = NewTournamentForm(request.POST or None, board=board)
    failures: list[str] = []
    if request.method == "POST" and form.is_valid():
        # Stored as the model's help text suggests ("200 points individual"), which format_key reads back.
        data = {
            **form.cleaned_data,
            "format": f"{form.cleaned_data['army_points']} points {form.cleaned_data['format']}",
        }
        try:
            tournament = tournament_register(user=request.user, data=data)
        except CharterRefused as refused:
            failures = words.refusal_text(refused)
        else:
            messages.success(
                request,
                _("Tournament %(name)s registered (no. %(id)s).")
                % {"name": tournament.name, "id": tournament.pk},
            )
            return redirect("board:my_tournaments")
    return render(request, "board/register.html", {"form": form, "failures": failures, "board": board})


def _initial(tournament: Tournament):
    announcement = entry_rules.announcement_of(tournament)
    names = [chr(ord("A") + n) if n < 26 else str(n + 1) for n in range(tournament.pools)]
    if announcement is None:
        return ({"game_minutes": game_minutes(tournament.army_points), "first_round": ""},
                [{"name": name} for name in names])
    pools = [{"name": p.name, "theme": p.theme, "allowed_armies": p.allowed_armies}
             for p in announcement.pool_themes.all()]
    pools += [{"name": name} for name in names[len(pools):]]
    checker = announcement.list_checker.get_username() if announcement.list_checker else ""
    return ({"venue": announcement.venue, "game_minutes": announcement.game_minutes,
             "duration_note": announcement.duration_note, "list_deadline": announcement.list_deadline,
             "list_checker": checker, "lists_published": announcement.lists_published,
             "first_round": announcement.first_round, "first_round_note": announcement.first_round_note,
             "start_time": announcement.start_time, "schedule": announcement.schedule},
            pools[:tournament.pools])


@permissions.rule_required(permissions.can_manage_tournament, tournament_kwarg="pk")
@require_http_methods(["GET", "POST"])
def announcement_edit(request, tournament: Tournament):
    started = timezone.localdate() >= tournament.start_date
    initial, pools_initial = _initial(tournament)
    Pools = pool_formset(max(tournament.pools, 1))  # noqa: N806 - a class made for this tournament
    form = AnnouncementForm(request.POST or None, tournament=tournament, initial=initial)
    pools = Pools(request.POST or None, initial=pools_initial, prefix="pool")
    failures: list[str] = []
    status = 200
    if request.method == "POST" and not started:
        if form.is_valid() and pools.is_valid():
            data = {**form.cleaned_data, "pools": [p for p in pools.cleaned_data if p]}
            try:
                announcement_save(user=request.user, tournament=tournament, data=data)
            except AnnouncementRefused as refused:
                for (code, _params), text in zip(refused.failures, words.refusal_text(refused), strict=True):
                    if code in FAILURE_FIELDS:
                        form.add_error(FAILURE_FIELDS[code], text)
                    else:
                        failures.append(text)
            else:
                messages.success(request, _("The announcement is saved; players may enter until the lists' "
                                            "deadline."))
                return redirect("board:announcement_edit", pk=tournament.pk)
        status = 400
    elif request.method == "POST":
        status = 400
        failures += words.refusal_text(AnnouncementRefused.one("announcement_started",
                                                                start=tournament.start_date.isoformat()))
    return render(request, "board/announcement.html", {
        "tournament": tournament, "form": form, "pools": pools, "failures": failures, "started": started,
        "announced": entry_rules.announcement_of(tournament) is not None,
    }, status=status)


def _entries_page(request, tournament: Tournament, *, bound: dict | None = None, errors=(), status=200):
    """`bound`: the form that was sent and refused, by (kind, id), shown with its errors."""
    bound = bound or {}
    entries = list(tournament_entries(tournament=tournament))
    latest = current_lists(entries)
    manage = permissions.can_manage_entries(request.user, tournament)
    flagged = {e.pk: flag for flag in identical_flags(tournament=tournament) for e in flag.entries}
    rows = []
    for entry in entries:
        army_list = latest.get(entry.pk)
        points, _reason = entry_penalty(entry)
        rows.append({
            "entry": entry, "list": army_list, "penalty": points, "identical": flagged.get(entry.pk),
            "check_form": bound.get(("check", army_list.pk if army_list else None)) or CheckForm(
                prefix=f"check-{army_list.pk}" if army_list else None),
            "refuse_form": bound.get(("refuse", entry.pk)) or ReasonForm(prefix=f"refuse-{entry.pk}"),
            "lift_form": bound.get(("lift", entry.pk)) or ReasonForm(prefix=f"lift-{entry.pk}"),
        })
    # What the checker has to do first: lists to check, then missing, returned, compliant.
    order = {ArmyList.PENDING: 0, None: 1, ArmyList.RETURNED: 2, ArmyList.COMPLIANT: 3}
    rows.sort(key=lambda r: order[r["list"].status if r["list"] else None])
    entered = [r for r in rows if r["entry"].status == Entry.ENTERED]
    return render(request, "board/entries.html", {
        "tournament": tournament, "announcement": entry_rules.announcement_of(tournament), "rows": rows,
        "entered": entered, "others": [r for r in rows if r["entry"].status != Entry.ENTERED],
        "manage": manage, "phase": entry_rules.entries_phase(tournament),
        "published": lists_published(tournament=tournament),
        "to_check": sum(1 for r in entered if r["list"] and r["list"].status == ArmyList.PENDING),
        "missing": sum(1 for r in entered if r["list"] is None),
        "flags": identical_flags(tournament=tournament), "errors": list(errors),
    }, status=status)


@permissions.rule_required(permissions.can_check_lists, tournament_kwarg="pk")
@require_safe
def entries_manage(request, tournament: Tournament):
    return _entries_page(request, tournament)


@permissions.rule_required(permissions.can_check_lists, tournament_kwarg="pk")
@require_POST
def army_list_check_view(request, tournament: Tournament, list_id: int):
    army_list = get_object_or_404(ArmyList.objects.select_related("entry__tournament").defer("content"),
                                  pk=list_id, entry__tournament=tournament)
    form = CheckForm(request.POST, prefix=f"check-{army_list.pk}")
    if form.is_valid():
        try:
            army_list_check(user=request.user, army_list=army_list,
                            compliant=form.cleaned_data["decision"] == "compliant",
                            comment=form.cleaned_data["comment"])
        except EntryRefused as refused:
            errors = words.refusal_on(form, refused)
            if errors:
                return _entries_page(request, tournament, errors=errors, status=400)
        else:
            compliant = form.cleaned_data["decision"] == "compliant"
            messages.success(request, (_("The list of %(name)s is compliant.") if compliant else
                                       _("The list of %(name)s is returned to the player with your comment."))
                             % {"name": army_list.entry.player.full_name})
            return redirect("board:entries_manage", pk=tournament.pk)
    return _entries_page(request, tournament, bound={("check", army_list.pk): form}, status=400)


def _entry_action(request, tournament: Tournament, entry_id: int, kind: str, service, done: str):
    entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=entry_id,
                              tournament=tournament)
    form = ReasonForm(request.POST, prefix=f"{kind}-{entry.pk}")
    if form.is_valid():
        try:
            service(user=request.user, entry=entry, reason=form.cleaned_data["reason"])
        except EntryRefused as refused:
            errors = words.refusal_on(form, refused)
            if errors:
                return _entries_page(request, tournament, errors=errors, status=400)
        else:
            messages.success(request, done % {"name": entry.player.full_name})
            return redirect("board:entries_manage", pk=tournament.pk)
    return _entries_page(request, tournament, bound={(kind, entry.pk): form}, status=400)


@permissions.rule_required(permissions.can_manage_entries, tournament_kwarg="pk")
@require_POST
def entry_refuse_view(request, tournament: Tournament, entry_id: int):
    return _entry_action(request, tournament, entry_id, "refuse", entry_refuse,
                         _("The entry of %(name)s is refused; the player reads your reason."))


@permissions.rule_required(permissions.can_manage_entries, tournament_kwarg="pk")
@require_POST
def penalty_lift_view(request, tournament: Tournament, entry_id: int):
    return _entry_action(request, tournament, entry_id, "lift", late_penalty_lift,
                         _("The late-list penalty of %(name)s is lifted."))


@permissions.rule_required(permissions.is_signed_in)
@require_safe
def lists_home(request):
    """The tournaments whose entries and lists this account sees: as their list checker, referee or board."""
    today = timezone.localdate()
    mine = Tournament.objects.filter(announcement__isnull=False, end_date__gte=today)
    if not permissions.is_board(request.user):
        mine = (mine.filter(announcement__list_checker=request.user)
                | mine.filter(referees=request.user)).distinct()
    tournaments = list(mine.select_related("announcement").order_by("start_date", "id")[:100])
    waiting = lists_waiting(tournaments)
    for tournament in tournaments:
        tournament.checker_role = permissions.is_list_checker(request.user, tournament)
        tournament.lists_waiting = waiting.get(tournament.pk, 0)
    return render(request, "board/lists_home.html", {"tournaments": tournaments,
                                                     "referee": permissions.is_referee(request.user)})

