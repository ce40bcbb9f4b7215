"""The referee's tournament day, under /referee/live/ (PAIRING.md): the list of tournaments to run, starting one,
the run page where rounds are proposed (drawn, paired by hand, swapped) and published, the players' own entries
switched on or off, and the publication, which imports the day as an uploaded sheet.

The day: start from a calendar tournament → add the players (entrant_views) → pair round 1 (the method the
charter allows) → swap players if needed → publish the round → enter each table's result (result_views) → pair
the next round … → publish the tournament. Every refusal of the services (LiveRefused) is shown in the page's
language and changes nothing; a refused POST answers 400.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from players import permissions
from rules.pairing import round_one_methods
from rules.pairing.model import ideal_number
from rules.rulesets import SPARE_ID
from tournaments.entries import day_players
from tournaments.live import selectors
from tournaments.live.entrants import NewEntrant
from tournaments.live.forms import ManualPairsForm, PairForm, SelfEntryForm, StartForm, SwapForm
from tournaments.live.page_tools import current_number, lang, one_effect, referee_only, running_live, words
from tournaments.live.pools import key_of
from tournaments.live.publication import live_publish
from tournaments.live.refusals import LiveRefused
from tournaments.live.rounds import round_pair, round_pair_manually, round_publish, round_swap
from tournaments.live.start import live_allow_self_entry, live_begin
from tournaments.models import LiveRound, LiveTable, LiveTournament, Tournament


@login_required
@require_GET
def live_home(request):
    """The tournaments this user may run live: theirs (the board: every calendar tournament near today)."""
    user = request.user
    if permissions.is_board(user):
        today = timezone.localdate()
        tournaments = Tournament.objects.filter(
            Q(live__isnull=False) | Q(status=Tournament.REGISTERED, end_date__gte=today - timezone.timedelta(days=7),
                                      start_date__lte=today + timezone.timedelta(days=60)))
    elif permissions.is_referee(user):
        tournaments = permissions.my_tournaments(user).filter(Q(live__isnull=False) | Q(status=Tournament.REGISTERED))
    else:
        raise PermissionDenied
    tournaments = tournaments.select_related("live").order_by("-start_date")[:50]
    return render(request, "live/home.html", {"tournaments": tournaments})


@referee_only
@require_http_methods(["GET", "POST"])
def live_start(request, tournament: Tournament):
    if LiveTournament.objects.filter(pk=tournament.pk).exists():
        return redirect("referee:live_run", tournament_id=tournament.pk)
    registrations = day_players(tournament=tournament)  # the calendar's registrations and the entered entries
    form = StartForm(request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            live_begin(tournament, entrants=[NewEntrant(player=r.player_id, pool=r.pool) for r in registrations],
                       swiss=form.cleaned_data["swiss"],
                       players_enter_results=form.cleaned_data["players_enter_results"], user=request.user)
        except LiveRefused as exc:
            errors = words(exc)
        else:
            messages.success(request, _("The tournament runs live: add the players who are here."))
            return redirect("referee:live_players", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "live/start.html", {"tournament": tournament, "form": form, "errors": errors,
                                               "registrations": registrations}, status=status)


def _run_page(request, tournament, live, *, errors=(), status=200, swap_forms=None):
    view = selectors.live_view(live, language=lang())
    rounds = tournament.rounds
    pools = []
    for pool in view.pools:
        proposal = pool.proposal
        swap = None
        if proposal is not None:
            players = [(t.a_key, f"{t.table} · {t.a_name}") for t in proposal.tables]
            players += [(t.b_key, f"{t.table} · {t.b_name}") for t in proposal.tables]
            swap = (swap_forms or {}).get(proposal.round.pk) or SwapForm(players=sorted(players))
        current = pool.current
        next_number = len(pool.published_rounds) + 1
        methods = round_one_methods(len([e for e in pool.playing if e.joined_round <= 1]), rounds)
        pools.append({
            "view": pool, "swap": swap, "next_number": next_number,
            "can_pair": next_number <= rounds and (current is None or current.complete),
            "methods": methods, "elo_required": len(methods) == 1,
            "pair_form": PairForm(initial={"pool": pool.pool, "method": methods[0]}),
        })
    complete = all(len(p["view"].published_rounds) == rounds and p["view"].current.complete for p in pools)
    return render(request, "live/run.html", {
        "tournament": tournament, "live": live, "view": view, "pools": pools, "errors": errors,
        "ideal": ideal_number(rounds), "complete": complete, "current_number": current_number(view),
        "self_entry": SelfEntryForm(initial={"players_enter_results": live.players_enter_results}),
    }, status=status)


@referee_only
@require_GET
@running_live
def live_run(request, tournament: Tournament, live: LiveTournament):
    return _run_page(request, tournament, live)


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_pair(request, tournament: Tournament, live: LiveTournament):
    form = PairForm(request.POST)
    if not form.is_valid():
        return _run_page(request, tournament, live, errors=[_("Choose a method.")], status=400)
    data = form.cleaned_data
    pool = data["pool"] or "A"
    first = not live.rounds.filter(pool=pool, published_at__isnull=False).exists()
    try:
        round_ = round_pair(live, pool=pool, method=(data["method"] or None) if first else None, seed=data["seed"],
                            user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc, selectors.live_view(live, language=lang())),
                         status=400)
    messages.success(request, _("Round %(round)s is proposed: check it, then publish it.") % {"round": round_.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_pair_manually(request, tournament: Tournament, live: LiveTournament):
    """The referee's own pairs: round 1 `manual`, or a round the rules cannot pair without a rematch."""
    form = ManualPairsForm(request.POST)
    view = selectors.live_view(live, language=lang())
    if not form.is_valid():
        errors = [str(e) for field in ("pairs", "reason") for e in form.errors.get(field, [])]
        return _run_page(request, tournament, live, errors=errors or [_("Write the pairs.")], status=400)
    pool = form.cleaned_data["pool"] or "A"
    try:
        round_ = round_pair_manually(live, pool=pool, pairs=form.cleaned_data["pairs"],
                                     reason=form.cleaned_data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc, view), status=400)
    messages.success(request, _("Round %(round)s is proposed: check it, then publish it.") % {"round": round_.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


def _round_of(live: LiveTournament, round_id: int) -> LiveRound:
    round_ = LiveRound.objects.filter(live=live, pk=round_id).first()
    if round_ is None:
        raise Http404(_("No such round in this tournament."))
    return round_


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_swap(request, tournament: Tournament, live: LiveTournament, round_id: int):
    round_ = _round_of(live, round_id)
    keys = [(k, str(k)) for t in round_.tables.select_related("a", "b") for k in _keys(t)]
    form = SwapForm(request.POST, players=keys)
    view = selectors.live_view(live, language=lang())
    if not form.is_valid() or form.cleaned_data["first"] == form.cleaned_data["second"]:
        return _run_page(request, tournament, live, errors=[_("Choose two different players to swap.")], status=400)
    data = form.cleaned_data
    try:
        round_swap(round_, data["first"], data["second"], reason=data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc, view), status=400)
    messages.success(request, _("%(a)s and %(b)s are swapped.") % {"a": view.name(data["first"]),
                                                                  "b": view.name(data["second"])})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{round_.pool}")


def _keys(table: LiveTable) -> list[int]:
    return [key_of(table.a), key_of(table.b) if table.b else SPARE_ID]


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_round_publish(request, tournament: Tournament, live: LiveTournament, round_id: int):
    round_ = _round_of(live, round_id)
    try:
        round_publish(round_, user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("Round %(round)s is published: the players see their tables.") % {
        "round": round_.number})
    return redirect("referee:live_results", tournament_id=tournament.pk, number=round_.number)


@referee_only
@require_POST
@running_live
@one_effect()
def live_self_entry(request, tournament: Tournament, live: LiveTournament):
    form = SelfEntryForm(request.POST)
    form.is_valid()
    try:
        live_allow_self_entry(live, bool(form.cleaned_data.get("players_enter_results")), user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("Saved."))
    return redirect("referee:live_run", tournament_id=tournament.pk)


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_publish_view(request, tournament: Tournament, live: LiveTournament):
    try:
        outcome = live_publish(live, user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc), status=400)
    if not outcome.ok:
        report = outcome.report.as_dict(lang())
        errors = [str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in report.get("errors", [])]
        return _run_page(request, tournament, live, errors=errors or [_("The sheet was refused.")], status=400)
    messages.success(request, _("The tournament is published: its ratings are being computed."))
    return redirect("referee:sheet_status", pk=outcome.sheet.pk)
