"""The tournaments' pages under /board/: the board's list of tournaments, its championship override, withdrawn
results and charter exceptions; a referee's own tournaments and the cards of their players (until a week after
the end). The pages before a tournament are tournaments.before's."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from adlg_site import words as site_words
from adlg_site.inputs import whole_number
from adlg_site.words import refusal_sentence
from players import permissions
from players.audit import audit_record
from players.governance import GovernanceError
from players.models import Sanction
from ratings.selectors import failed_replays
from rules.names import MAX_QUERY
from tournaments.before.conditions import CharterRefused, format_key, new_tournament_failures
from tournaments.before.new_tournament import club_year_tournaments
from tournaments.models import Tournament
from tournaments.selectors import charter_failure_text
from tournaments.services import tournament_exception_approve, tournament_override, tournament_results_withdraw

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
            form.add_error(None, refusal_sentence(exc))
        else:
            messages.success(request, _("Decision recorded; the championship is being recomputed."))
            return redirect("board:tournaments")
    outcome = getattr(tournament, "outcome", None)  # none until the replay has seen the tournament
    language = site_words.language()
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
            form.add_error(None, refusal_sentence(exc))
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
            form.add_error(None, refusal_sentence(exc))
        else:
            messages.success(request, _("Registration exception saved."))
            return redirect("board:tournaments")
    club_id = tournament.organising_club_id if tournament.official else None
    failures = new_tournament_failures(
        start=tournament.start_date, announced_on=tournament.announced_on or tournament.created_at.date(),
        club_id=club_id, format=format_key(tournament.format, tournament.army_points),
        year_tournaments_of_club=club_year_tournaments(club_id=club_id, system_id=tournament.system_id,
                                                       year=tournament.start_date.year, exclude_pk=tournament.pk),
    )
    return render(request, "board/exception.html", {
        "tournament": tournament, "form": form, "failures": site_words.refusal_text(CharterRefused(failures)),
    })


@permissions.rule_required(permissions.can_register_tournament)
@require_safe
def my_tournaments(request):
    today = timezone.localdate()
    mine = list(permissions.my_tournaments(request.user).select_related("system", "country"))
    # The coming ones first, the next first; then the past ones, the latest first.
    coming = sorted((t for t in mine if t.end_date >= today), key=lambda t: (t.start_date, t.pk))
    past = sorted((t for t in mine if t.end_date < today), key=lambda t: (t.start_date, t.pk), reverse=True)
    rows = [{"tournament": t, "cards": permissions.can_view_tournament_cards(request.user, t, today=today),
             "coming": t.end_date >= today} for t in coming + past]
    return render(request, "board/my_tournaments.html", {"rows": rows})


@permissions.rule_required(permissions.can_view_tournament_cards, tournament_kwarg="pk")
@require_safe
def cards(request, tournament):
    today = timezone.localdate()
    board = permissions.is_board(request.user)
    # The board sees every registered player's cards; a referee those of the tournament's entrants
    # (players.permissions.cards_entrants).
    entrants = (tournament.registrations.values("player_id") if board else
                permissions.cards_entrants(request.user, today=today, tournament=tournament))
    sanctions = list(
        permissions.visible_sanctions(request.user, today=today)
        .filter(player_id__in=entrants, kind__in=[Sanction.YELLOW, Sanction.RED])
        .exclude(kind=Sanction.YELLOW, expires_on__lt=today)
        .select_related("player", "player__club")
    )
    if not board:
        # Confidential data shown to someone other than the board: who saw which card, and when.
        audit_record(
            user=request.user, action="view_cards", obj=tournament,
            summary=f"cards of {len(sanctions)} player(s) of {tournament} shown to a referee",
            changes={"cards": [{"sanction": s.pk, "player": s.player_id, "kind": s.kind} for s in sanctions]},
        )
    return render(
        request,
        "board/cards.html",
        {
            "tournament": tournament,
            "sanctions": sanctions,
            "show_reason": board,
            "not_begun": not board and today < tournament.start_date,
        },
    )
