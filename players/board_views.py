"""The technical board's pages (/board/): sanctions, merges, IDs, championship overrides, exceptions, audit log.

Every page is guarded by a rule of players.permissions and calls one service of players.governance; the forms
only check the shape of the input, the services decide.
"""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from adlg_site.inputs import MAX_WHOLE, whole_number
from players import permissions
from players.audit import audit_described, audit_entries
from players.claims import ClaimError, claim_confirm, claim_refuse, claims_pending, confirmed_email, player_unlink
from players.governance import (
    GovernanceError,
    merge_conflicts,
    player_merge,
    player_retire_id,
    sanction_give,
    sanction_withdraw,
)
from players.models import AuditEntry, Player, PlayerClaim, RetiredId, Sanction
from players.services import next_free_id_preview
from ratings.models import ReplayRequest
from rules.names import MAX_QUERY
from tournaments.models import Game, Tournament
from tournaments.registration import (
    club_year_tournaments,
    format_key,
    registration_failures,
    registration_message,
)
from tournaments.selectors import charter_failure_text
from tournaments.services import tournament_exception_approve, tournament_override, tournament_results_withdraw

# --- forms -------------------------------------------------------------------------------------------------------


class PlayerIdField(forms.IntegerField):
    """A federation ID that must name an existing player; cleans to the Player."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        super().__init__(**kwargs)

    def clean(self, value):
        player_id = super().clean(value)
        if player_id is None:
            return None
        player = Player.objects.select_related("club", "country").filter(pk=player_id).first()
        if player is None:
            raise forms.ValidationError(_("No player has the ID %(id)s.") % {"id": player_id})
        return player


class TournamentChoiceField(forms.ModelChoiceField):
    """A tournament told apart from others of the same name by its date and city."""

    def label_from_instance(self, obj):
        return f"{obj.name} — {date_format(obj.end_date)}, {obj.city} (no. {obj.pk})"


def _recent_tournaments():
    """The tournaments a sanction may concern: those of the last two years and the next month, newest first."""
    today = timezone.localdate()
    return (Tournament.objects.filter(end_date__gte=today.replace(year=today.year - 2),
                                      start_date__lte=today + timedelta(days=31))
            .order_by("-end_date", "-id"))


class SanctionForm(forms.Form):
    player = PlayerIdField(label=gettext_lazy("Player ID"))
    kind = forms.ChoiceField(label=gettext_lazy("Sanction"), choices=Sanction.KIND_CHOICES)
    decided_on = forms.DateField(label=gettext_lazy("Decided on"), widget=forms.DateInput(attrs={"type": "date"}))
    tournament = TournamentChoiceField(
        label=gettext_lazy("Tournament"), queryset=None, required=False,
        empty_label=gettext_lazy("none (outside a tournament)"),
        help_text=gettext_lazy("Where it happened. A red card's public notice gives this tournament and the date, "
                               "never the player."))
    reason = forms.CharField(label=gettext_lazy("Reason (confidential)"), widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=gettext_lazy("Seen only by the technical board (and, for a card, by the "
                                                    "referees of the player's tournaments)."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = _recent_tournaments()


class SanctionWithdrawForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason for the withdrawal (kept in the audit log)"),
                             widget=forms.Textarea(attrs={"rows": 3}))


class MergeForm(forms.Form):
    keep = PlayerIdField(label=gettext_lazy("ID to keep"))
    duplicate = PlayerIdField(label=gettext_lazy("Duplicate ID (retired)"))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("keep") and cleaned.get("duplicate") and cleaned["keep"].pk == cleaned["duplicate"].pk:
            raise forms.ValidationError(_("Choose two different players."))
        return cleaned


class RetireIdForm(forms.Form):
    player_id = forms.IntegerField(label=gettext_lazy("ID"), min_value=1, max_value=MAX_WHOLE)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


COUNTS_CHOICES = [
    ("", gettext_lazy("Follow the charter's checks")),
    ("yes", gettext_lazy("Counts for the championship")),
    ("no", gettext_lazy("Does not count for the championship")),
]


class OverrideForm(forms.Form):
    counts = forms.ChoiceField(label=gettext_lazy("Decision"), choices=COUNTS_CHOICES, required=False)
    reason = forms.CharField(label=gettext_lazy("Reason (public)"), widget=forms.Textarea(attrs={"rows": 3}),
                             required=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("counts") and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("Give the reason for the decision: it is shown publicly."))
        return cleaned


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason (kept in the audit log)"),
                             widget=forms.Textarea(attrs={"rows": 3}))
    confirm = forms.BooleanField(label=gettext_lazy("Withdraw these results: the ratings are recomputed without them"))


class ExceptionForm(forms.Form):
    approved = forms.BooleanField(label=gettext_lazy("Exception approved"), required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("approved") and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("Give the reason for the exception."))
        return cleaned


class ClaimDecisionForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason (required to refuse; the player reads it)"), required=False,
                             max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


class UnlinkForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason for undoing the link (kept in the audit log)"),
                             max_length=500, widget=forms.Textarea(attrs={"rows": 3}))


class AuditFilterForm(forms.Form):
    action = forms.CharField(label=gettext_lazy("Action"), required=False)
    object_type = forms.CharField(label=gettext_lazy("Object type"), required=False)
    object_id = forms.CharField(label=gettext_lazy("Object ID"), required=False)
    user = forms.CharField(label=gettext_lazy("User"), required=False)
    since = forms.DateField(label=gettext_lazy("Since"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))


# --- pages -------------------------------------------------------------------------------------------------------


@permissions.rule_required(permissions.can_register_tournament)
@require_safe
def home(request):
    """The referees' and the board's start page: each sees the links of their role."""
    board = permissions.is_board(request.user)
    return render(request, "board/home.html",
                  {"board": board, "next_free_id": next_free_id_preview() if board else None,
                   "failed_replays": failed_replays() if board else []})


def failed_replays() -> list:
    """The replays that failed and wait for the board (a fact to correct, or the worker's database down): the
    ratings of their system stay as they were until one succeeds."""
    return list(ReplayRequest.objects.filter(status=ReplayRequest.FAILED).select_related("system")
                .order_by("-finished_at", "-id")[:20])


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def sanctions(request):
    """Give a sanction in two steps: the form, then a confirmation that shows the player and what will follow
    (an exclusion voids a whole career); nothing is recorded before the board confirms."""
    today = timezone.localdate()
    if request.method == "POST":
        form = SanctionForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            if "edit" in request.POST:
                pass  # back from the confirmation: the form again, filled in
            elif request.POST.get("confirm") != "yes":
                return render(request, "board/sanction_confirm.html",
                              {"form": form, "data": data, "record": _record(data["player"])})
            else:
                try:
                    sanction = sanction_give(player=data["player"], kind=data["kind"], reason=data["reason"],
                                             user=request.user, decided_on=data["decided_on"],
                                             tournament=data["tournament"])
                except GovernanceError as exc:
                    form.add_error(None, str(exc))
                else:
                    messages.success(request, _("Recorded: %(sanction)s for %(name)s (%(id)s).") % {
                        "sanction": sanction.get_kind_display(), "name": data["player"].full_name,
                        "id": sanction.player_id})
                    return redirect("board:sanctions")
    else:
        form = SanctionForm(initial={"player": request.GET.get("player"), "decided_on": today})
    current = (permissions.visible_sanctions(request.user, today=today)
               .exclude(kind=Sanction.YELLOW, expires_on__lt=today)
               .select_related("player", "created_by", "tournament"))
    return render(request, "board/sanctions.html", {"form": form, "sanctions": current})


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def sanction_withdraw_view(request, pk: int):
    """Withdraw a card or an exclusion, with a reason: the page shows whom it concerns and what follows."""
    sanction = Sanction.objects.select_related("player__club", "player__country", "tournament",
                                               "created_by").filter(pk=pk).first()
    if sanction is None:
        if request.method != "POST":
            raise Http404(_("No sanction with this number: it may have been withdrawn."))
        # A second click, or another board member first: the withdrawal asked for is done.
        messages.info(request, _("Sanction #%(id)s was already withdrawn (by someone else, or by a second click): "
                                 "nothing more to do.") % {"id": pk})
        return redirect("board:sanctions")
    if sanction.kind == Sanction.EXCLUSION and not permissions.is_board(request.user):
        raise PermissionDenied
    form = SanctionWithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = sanction_withdraw(sanction=sanction, reason=form.cleaned_data["reason"], user=request.user)
        except GovernanceError as exc:
            form.add_error(None, str(exc))
        else:
            if sanction.kind == Sanction.EXCLUSION:
                messages.success(request, _("The exclusion of %(name)s (%(id)s) is withdrawn: the player is back on "
                                            "every list and the ratings are being recomputed.")
                                 % {"name": player.full_name, "id": player.pk})
            else:
                messages.success(request, _("The %(sanction)s of %(name)s (%(id)s) is withdrawn.") % {
                    "sanction": sanction.get_kind_display(), "name": player.full_name, "id": player.pk})
            return redirect("board:sanctions")
    return render(request, "board/sanction_withdraw.html",
                  {"sanction": sanction, "form": form, "record": _record(sanction.player)})


def _record(player: Player) -> dict:
    return {
        "player": player,
        "games": Game.objects.filter(Q(player_a=player) | Q(player_b=player)).count(),
        "game_tournaments": Game.objects.filter(Q(player_a=player) | Q(player_b=player)).values("tournament")
        .distinct().count(),
        "registrations": player.registrations.select_related("tournament").order_by("-tournament__end_date")[:20],
        "registration_count": player.registrations.count(),
        "opening_balances": list(player.opening_balances.all()),
        "sanction_count": player.sanctions.count(),
    }


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def merge(request):
    data = request.POST if request.method == "POST" else (request.GET if "keep" in request.GET else None)
    form = MergeForm(data)
    if data is not None and form.is_valid():
        keep, duplicate = form.cleaned_data["keep"], form.cleaned_data["duplicate"]
        if request.method == "POST" and request.POST.get("confirm") == "yes":
            try:
                player_merge(keep=keep, duplicate=duplicate, user=request.user)
            except GovernanceError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Player %(dup)s merged into %(keep)s; ID %(dup)s is retired.")
                                 % {"dup": duplicate.pk, "keep": keep.pk})
                return redirect("board:merge")
        if not form.errors:
            # What would refuse the merge is shown before its button, not after a click.
            return render(request, "board/merge_confirm.html",
                          {"form": form, "keep": _record(keep), "duplicate": _record(duplicate),
                           "conflicts": merge_conflicts(keep=keep, duplicate=duplicate)})
    return render(request, "board/merge.html", {"form": form})


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def ids(request):
    form = RetireIdForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_retire_id(player_id=form.cleaned_data["player_id"], reason=form.cleaned_data["reason"],
                             user=request.user)
        except GovernanceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("ID %(id)s retired.") % {"id": form.cleaned_data["player_id"]})
            return redirect("board:ids")
    return render(request, "board/ids.html", {
        "form": form, "next_free_id": next_free_id_preview(),
        "retired": RetiredId.objects.order_by("-retired_at", "-id")[:100],
    })


@permissions.rule_required(permissions.is_board)
@require_safe
def tournaments(request):
    # What a search can read: no control character (PostgreSQL refuses a NUL byte), MAX_QUERY characters at most.
    query = "".join(c for c in (request.GET.get("q") or "")[:MAX_QUERY] if c.isprintable()).strip()
    qs = Tournament.objects.select_related("system", "country").annotate(referee_count=Count("referees")).order_by(
        "-end_date", "-start_date", "-id")
    number = whole_number(query)
    if number is not None:
        qs = qs.filter(Q(pk=number) | Q(name__icontains=query))
    elif query:
        qs = qs.filter(Q(name__icontains=query) | Q(city__icontains=query))
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    return render(request, "board/tournaments.html",
                  {"page": page, "query": query, "failed_replays": failed_replays()})


@permissions.rule_required(permissions.is_board, tournament_kwarg="pk")
@require_http_methods(["GET", "POST"])
def override(request, tournament):
    initial = {"counts": {True: "yes", False: "no", None: ""}[tournament.counts_override],
               "reason": tournament.override_reason}
    form = OverrideForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        counts = {"yes": True, "no": False}.get(form.cleaned_data["counts"])
        try:
            tournament_override(tournament=tournament, counts=counts, reason=form.cleaned_data["reason"],
                                user=request.user)
        except GovernanceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Decision recorded; the championship is being recomputed."))
            return redirect("board:tournaments")
    outcome = getattr(tournament, "outcome", None)  # none until the replay has seen the tournament
    language = getattr(request, "LANGUAGE_CODE", "en")
    failures = [charter_failure_text(f, language) for f in (outcome.charter_failures if outcome else []) or []]
    return render(request, "board/override.html",
                  {"tournament": tournament, "form": form, "outcome": outcome, "failures": failures})


@permissions.rule_required(permissions.is_board, tournament_kwarg="pk")
@require_http_methods(["GET", "POST"])
def withdraw(request, tournament):
    form = WithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament_results_withdraw(tournament=tournament, reason=form.cleaned_data["reason"], user=request.user)
        except GovernanceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Results withdrawn; the ratings are being recomputed."))
            return redirect("board:tournaments")
    return render(request, "board/withdraw.html", {"tournament": tournament, "form": form,
                                                   "games": tournament.games.count()})


@permissions.rule_required(permissions.is_board, tournament_kwarg="pk")
@require_http_methods(["GET", "POST"])
def exception(request, tournament):
    form = ExceptionForm(request.POST or None, initial={"approved": tournament.exception_approved,
                                                        "reason": tournament.exception_reason})
    if request.method == "POST" and form.is_valid():
        try:
            tournament_exception_approve(tournament=tournament, approved=form.cleaned_data["approved"],
                                         reason=form.cleaned_data["reason"], user=request.user)
        except GovernanceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Registration exception saved."))
            return redirect("board:tournaments")
    club_id = tournament.organising_club_id if tournament.official else None
    failures = registration_failures(
        start=tournament.start_date, announced_on=tournament.announced_on or tournament.created_at.date(),
        club_id=club_id, format=format_key(tournament.format, tournament.army_points),
        year_tournaments_of_club=club_year_tournaments(club_id=club_id, system_id=tournament.system_id,
                                                       year=tournament.start_date.year, exclude_pk=tournament.pk),
    )
    language = getattr(request, "LANGUAGE_CODE", "en")
    return render(request, "board/exception.html", {
        "tournament": tournament, "form": form,
        "failures": [registration_message(code, params, language) for code, params in failures],
    })


@permissions.rule_required(permissions.is_board)
@require_safe
def claims(request):
    """The queue of accounts asking to be linked to a record, oldest first, each with what the board needs to
    recognise the person; and the accounts linked already, found by the player's name or ID, to undo a link."""
    queue = list(claims_pending())
    for claim in queue:
        claim.record = _record(claim.player)
        claim.rivals = sum(1 for other in queue if other.player_id == claim.player_id) - 1
        claim.form = ClaimDecisionForm(prefix=f"claim{claim.pk}")
        claim.address = confirmed_email(claim.user) or claim.user.get_username()
    query = (request.GET.get("q") or "").strip()[:80]
    linked = Player.objects.filter(user__isnull=False).select_related("user", "club").order_by("last_name", "id")
    if query.isdigit():
        linked = linked.filter(pk=int(query))
    elif query:
        linked = linked.filter(Q(last_name__icontains=query) | Q(first_name__icontains=query)
                               | Q(user__email__icontains=query) | Q(user__emailaddress__email__icontains=query))
    recent = (PlayerClaim.objects.exclude(status=PlayerClaim.PENDING).select_related("player", "decided_by")
              .order_by("-decided_at", "-id")[:20])
    return render(request, "board/claims.html", {
        "queue": queue, "query": query, "linked": linked.distinct()[:50], "recent": recent,
    })


@permissions.rule_required(permissions.is_board)
@require_POST
def claim_decide(request, pk: int):
    claim = get_object_or_404(PlayerClaim, pk=pk)
    form = ClaimDecisionForm(request.POST, prefix=f"claim{pk}")
    decision = request.POST.get("decision")
    if not form.is_valid() or decision not in ("confirm", "refuse"):
        messages.error(request, _("Choose to confirm or to refuse the request."))
        return redirect("board:claims")
    try:
        if decision == "confirm":
            claim_confirm(claim=claim, user=request.user)
            messages.success(request, _("Record %(id)s is linked to the account that asked for it.")
                             % {"id": claim.player_id})
        else:
            claim_refuse(claim=claim, user=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("The request for record %(id)s is refused.") % {"id": claim.player_id})
    except ClaimError as exc:
        messages.error(request, str(exc))
    return redirect("board:claims")


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def unlink(request, player_id: int):
    player = get_object_or_404(Player.objects.select_related("user", "club", "country"), pk=player_id)
    form = UnlinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_unlink(player=player, user=request.user, reason=form.cleaned_data["reason"])
        except ClaimError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The link between record %(id)s and its account is undone.")
                             % {"id": player.pk})
            return redirect("board:claims")
    return render(request, "board/unlink.html", {"player": player, "form": form, "record": _record(player)})


@permissions.rule_required(permissions.is_board)
@require_safe
def audit(request):
    form = AuditFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    qs = audit_entries(action=filters.get("action", ""), object_type=filters.get("object_type", ""),
                       object_id=filters.get("object_id", ""), username=filters.get("user", ""),
                       since=filters.get("since"))
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    page.object_list = audit_described(page.object_list)  # names read once for the page, not per row
    query = request.GET.copy()
    query.pop("page", None)
    actions = AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()
    return render(request, "board/audit.html",
                  {"form": form, "page": page, "query": query.urlencode(), "actions": actions})
