"""The technical board's pages about players (/board/): sanctions, merges, IDs, accounts' claims, the audit log;
the tournaments' are tournaments.board_views.

Every page is guarded by a rule of players.permissions and calls one service of players.governance; the forms
only check the shape of the input, the services decide.
"""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from adlg_site.inputs import MAX_WHOLE, whole_number
from adlg_site.words import refusal_sentence, refusal_text
from players import permissions
from players.audit import action_label, audit_described, audit_trail
from players.claims import (
    ClaimError,
    claim_checks,
    claim_code_issue,
    claim_confirm,
    claim_refuse,
    claims_pending,
    player_unlink,
)
from players.governance import (
    GovernanceError,
    merge_conflicts,
    player_merge,
    player_retire_id,
    sanction_give,
    sanction_withdraw,
)
from players.models import AuditEntry, Player, PlayerClaim, RetiredId, Sanction
from players.selectors import confirmed_email, player_search_q, players_with_cards_to_review
from players.services import next_free_id_preview
from ratings.selectors import failed_replays
from rules.names import MAX_QUERY, fold_name, search_words
from tournaments.before.army_lists import lists_waiting
from tournaments.models import Game, Tournament

# --- forms -------------------------------------------------------------------------------------------------------


# How many matches a refused search lists, for the board to pick one by its ID or more of its name.
SHOWN_MATCHES = 8



def _matches_text(found: list) -> str:
    shown = ", ".join(str(item) for item in found[:SHOWN_MATCHES])
    return shown + ("…" if len(found) > SHOWN_MATCHES else "")


class PlayerField(forms.CharField):
    """A player by name or federation ID, through the site's one name search (players.selectors.player_search_q:
    accents and case aside, every word in the name). Cleans to the Player when exactly one matches; otherwise says
    who matches, for the board to type the ID or more of the name. Merged records are left out: they are no one's
    record any more."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_QUERY)
        kwargs.setdefault("help_text", gettext_lazy("A name (accents and case do not matter) or a federation ID."))
        super().__init__(**kwargs)

    def clean(self, value):
        query = super().clean(value)
        if not query:
            return None
        records = Player.objects.select_related("club", "country")
        player_id = whole_number(query, minimum=1)
        if player_id is not None:
            player = records.filter(pk=player_id).first()
            if player is None:
                raise forms.ValidationError(_("No player has the ID %(id)s.") % {"id": player_id})
            return player
        found = list(records.filter(player_search_q(query), merged_into__isnull=True)
                     .order_by("last_name", "first_name", "id")[:SHOWN_MATCHES + 1])
        if not found:
            raise forms.ValidationError(_("No player's name matches “%(query)s”. Check the spelling, or type the "
                                          "federation ID.") % {"query": query})
        if len(found) > 1:
            raise forms.ValidationError(_("Several players match “%(query)s”: %(players)s. Type the ID of the one "
                                          "you mean, or more of the name.")
                                        % {"query": query, "players": _matches_text(found)})
        return found[0]


class TournamentSearchField(forms.CharField):
    """A tournament of `queryset` by its number, or by words of its name or city (accents and case aside): the
    board types "lyon 2025" rather than scrolling a drop-down of 130. Several matches are listed, with their date
    and city, for the board to type the number."""

    def __init__(self, *, queryset=None, **kwargs):
        kwargs.setdefault("max_length", MAX_QUERY)
        super().__init__(**kwargs)
        self.queryset = queryset

    def clean(self, value):
        query = super().clean(value)
        if not query:
            return None
        number = whole_number(query, minimum=1)
        if number is not None:
            tournament = self.queryset.filter(pk=number).first()
            if tournament is None:
                raise forms.ValidationError(_("No tournament of these two years has the number %(id)s.")
                                            % {"id": number})
            return tournament
        words = search_words(query)
        # A few hundred tournaments at most: folded in Python, one query, no column to keep in step.
        found = [t for t in self.queryset
                 if all(word in fold_name(f"{t.name} {t.city} {t.end_date:%Y}").casefold() for word in words)]
        if not found:
            raise forms.ValidationError(_("No tournament of these two years matches “%(query)s”.")
                                        % {"query": query})
        if len(found) > 1:
            raise forms.ValidationError(_("Several tournaments match “%(query)s”: %(tournaments)s. Type the number "
                                          "of the one you mean, or more of its name.")
                                        % {"query": query, "tournaments": _matches_text(
                                            [tournament_label(t) for t in found])})
        return found[0]


def tournament_label(tournament) -> str:
    """A tournament told apart from others of the same name by its date and city."""
    return f"{tournament.name} — {date_format(tournament.end_date)}, {tournament.city} (no. {tournament.pk})"


def _recent_tournaments():
    """The tournaments a sanction may concern: those of the last two years and the next month, newest first."""
    today = timezone.localdate()
    return (Tournament.objects.filter(end_date__gte=today.replace(year=today.year - 2),
                                      start_date__lte=today + timedelta(days=31))
            .order_by("-end_date", "-id"))


class SanctionForm(forms.Form):
    player = PlayerField(label=gettext_lazy("Player"))
    kind = forms.ChoiceField(label=gettext_lazy("Sanction"), choices=Sanction.KIND_CHOICES)
    decided_on = forms.DateField(label=gettext_lazy("Decided on"), widget=forms.DateInput(attrs={"type": "date"}))
    tournament = TournamentSearchField(
        label=gettext_lazy("Tournament"), required=False,
        help_text=gettext_lazy("Where it happened: words of its name or city, or its number; blank outside a "
                               "tournament. A red card's public notice gives this tournament and the date, never "
                               "the player."))
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
    keep = PlayerField(label=gettext_lazy("Record to keep"))
    duplicate = PlayerField(label=gettext_lazy("Duplicate (its ID is retired)"))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("keep") and cleaned.get("duplicate") and cleaned["keep"].pk == cleaned["duplicate"].pk:
            raise forms.ValidationError(_("Choose two different players."))
        return cleaned


class RetireIdForm(forms.Form):
    player_id = forms.IntegerField(label=gettext_lazy("ID"), min_value=1, max_value=MAX_WHOLE)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class ClaimDecisionForm(forms.Form):
    checked_how = forms.ChoiceField(
        label=gettext_lazy("How you checked that it is this player (required to confirm)"), required=False,
        choices=[("", "—"), *PlayerClaim.CHECKS])
    note = forms.CharField(label=gettext_lazy("What you did (required to confirm; kept in the audit log)"),
                           required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
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
    """The referees' and the board's start page: each sees the links of their role; the board first what waits
    for it (requests to link a record, army lists to check, cards to review, failed replays), counted."""
    board = permissions.is_board(request.user)
    waiting = None
    if board:
        today = timezone.localdate()
        waiting = {
            "claims": PlayerClaim.objects.filter(status=PlayerClaim.PENDING).count(),
            "lists": sum(lists_waiting(Tournament.objects.filter(end_date__gte=today)).values()),
            "cards": players_with_cards_to_review(today=today).count(),
        }
    replays = failed_replays() if board else []
    if waiting is not None:
        waiting["replays"] = len(replays)
    return render(request, "board/home.html",
                  {"board": board, "next_free_id": next_free_id_preview() if board else None,
                   "failed_replays": replays, "waiting": waiting})


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
                    form.add_error(None, refusal_sentence(exc))
                else:
                    messages.success(request, _("Recorded: the %(sanction)s.") % {"sanction": sanction})
                    return redirect("board:sanctions")
    else:
        form = SanctionForm(initial={"player": request.GET.get("player"), "decided_on": today})
    current = (permissions.visible_sanctions(request.user, today=today)
               .exclude(kind=Sanction.YELLOW, expires_on__lt=today)
               .select_related("player", "created_by", "tournament"))
    # Withdrawn cards and exclusions stay in sight, with when, by whom and why: the row is gone (its confidential
    # reason with it), the audit log keeps the withdrawal.
    withdrawn = audit_described(AuditEntry.objects.filter(action__in=["sanction_withdrawn", "exclusion_withdrawn"])
                                .select_related("user")[:50])
    return render(request, "board/sanctions.html", {"form": form, "sanctions": current, "withdrawn": withdrawn})


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
    form = SanctionWithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = sanction_withdraw(sanction=sanction, reason=form.cleaned_data["reason"], user=request.user)
        except GovernanceError as exc:
            form.add_error(None, refusal_sentence(exc))
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
                form.add_error(None, refusal_sentence(exc))
            else:
                messages.success(request, _("%(dup)s merged into %(keep)s; ID %(id)s is retired.")
                                 % {"dup": duplicate, "keep": keep, "id": duplicate.pk})
                return redirect("board:merge")
        if not form.errors:
            # What would refuse the merge is shown before its button, not after a click.
            return render(request, "board/merge_confirm.html",
                          {"form": form, "keep": _record(keep), "duplicate": _record(duplicate),
                           "conflicts": refusal_text(GovernanceError(
                               merge_conflicts(keep=keep, duplicate=duplicate)))})
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
            form.add_error(None, refusal_sentence(exc))
        else:
            messages.success(request, _("ID %(id)s retired.") % {"id": form.cleaned_data["player_id"]})
            return redirect("board:ids")
    return render(request, "board/ids.html", {
        "form": form, "next_free_id": next_free_id_preview(),
        "retired": RetiredId.objects.order_by("-retired_at", "-id")[:100],
    })


@permissions.rule_required(permissions.is_board)
@require_safe
def claims(request):
    """The queue of accounts asking to be linked to a record, oldest first, each with what the board needs to
    recognise the person; and the accounts linked already, found by the player's name or ID, to undo a link."""
    queue = list(claims_pending())
    for claim in queue:
        claim.record = _record(claim.player)
        claim.help = claim_checks(claim.player)
        claim.rivals = sum(1 for other in queue if other.player_id == claim.player_id) - 1
        claim.form = ClaimDecisionForm(prefix=f"claim{claim.pk}")
        claim.address = confirmed_email(claim.user) or claim.user.get_username()
    query = (request.GET.get("q") or "").strip()[:80]
    linked = Player.objects.filter(user__isnull=False).select_related("user", "club").order_by("last_name", "id")
    number = whole_number(query)  # "²" passes str.isdigit and fails int(); a 40-digit ID fails the database
    if number is not None:
        linked = linked.filter(pk=number)
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
            claim_confirm(claim=claim, user=request.user, checked_how=form.cleaned_data["checked_how"],
                          note=form.cleaned_data["note"])
            messages.success(request, _("Record %(id)s is linked to the account that asked for it, on its word: "
                                        "the account sees no confidential fact until a private link or a claim "
                                        "code proves the link.") % {"id": claim.player_id})
        else:
            claim_refuse(claim=claim, user=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("The request for record %(id)s is refused.") % {"id": claim.player_id})
    except ClaimError as exc:
        messages.error(request, refusal_sentence(exc))
    return redirect("board:claims")


@permissions.rule_required(permissions.is_board)
@never_cache
@require_http_methods(["GET", "POST"])
def claim_code(request, player_id: int):
    """A one-time claim code for a record, shown once (printable), for a referee or a club to hand over in person;
    the player types it on their account's claim page. GET says what it is; POST makes it."""
    player = get_object_or_404(Player.objects.select_related("user", "club", "country"), pk=player_id)
    code = expires_at = problem = None
    if request.method == "POST":
        try:
            code, expires_at = claim_code_issue(player=player, user=request.user)
        except ClaimError as exc:
            problem = refusal_sentence(exc)
    return render(request, "board/claim_code.html", {
        "player": player, "record": _record(player), "code": code, "expires_at": expires_at, "problem": problem,
        "help": claim_checks(player)})


@permissions.rule_required(permissions.is_board)
@require_http_methods(["GET", "POST"])
def unlink(request, player_id: int):
    player = get_object_or_404(Player.objects.select_related("user", "club", "country"), pk=player_id)
    form = UnlinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_unlink(player=player, user=request.user, reason=form.cleaned_data["reason"])
        except ClaimError as exc:
            form.add_error(None, refusal_sentence(exc))
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
    qs = audit_trail(action=filters.get("action", ""), object_type=filters.get("object_type", ""),
                       object_id=filters.get("object_id", ""), username=filters.get("user", ""),
                       since=filters.get("since"))
    page = Paginator(qs, 50).get_page(request.GET.get("page"))
    page.object_list = audit_described(page.object_list)  # names read once for the page, not per row
    query = request.GET.copy()
    query.pop("page", None)
    actions = [(code, action_label(code))
               for code in AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct()]
    return render(request, "board/audit.html",
                  {"form": form, "page": page, "query": query.urlencode(), "actions": actions})
