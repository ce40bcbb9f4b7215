"""The referee's tournament day, under /referee/live/ (PAIRING.md): the list of tournaments to run, starting one,
the run page where rounds are proposed (drawn, paired by hand), changed (two players swapped, a pair given a chosen
table), published and withdrawn, and the players' own entries switched on or off. The publication's preview and
the workbook so far are in publish_views.

The day: start from a calendar tournament → add the players (entrant_views) → pair round 1 (the method the
charter allows) → change it if needed → publish the round → enter each table's result (result_views) → pair
the next round … → see the preview and publish the tournament (publish_views). Every refusal of the services
(LiveRefused) is shown in the page's language, players named, and changes nothing; a refused POST answers 400
and shows the form as it was typed.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import BooleanField, Count, ExpressionWrapper, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from players import permissions
from rules.pairing import round_one_methods
from rules.pairing.model import MANUAL, ideal_number
from tournaments.before.entries import day_players
from tournaments.live import selectors
from tournaments.live.forms import (
    CancelForm,
    DatesForm,
    ManualPairsForm,
    PairForm,
    ScreenChancesForm,
    SelfEntryForm,
    StartForm,
    SwapForm,
    TableForm,
    WithdrawRoundForm,
)
from tournaments.live.page_tools import current_number, lang, one_effect, referee_only, running_live, words
from tournaments.live.refusals import LiveRefused
from tournaments.live.rounds import (
    round_move_table,
    round_pair,
    round_pair_manually,
    round_publish,
    round_swap,
    round_withdraw,
)
from tournaments.live.start import (
    TournamentDates,
    live_allow_self_entry,
    live_cancel,
    live_show_screen_chances,
    live_start_calendar,
    on_its_dates,
)
from tournaments.models import LiveRound, LiveTournament, Tournament
from tournaments.selectors import coming_first, results_on_site, without_results


@permissions.rule_required(permissions.can_register_tournament)
@require_GET
def live_home(request):
    """The tournaments this user may run live: theirs (the board: every calendar tournament near today), those
    running live first; "Run it live" only for a tournament with no results on the site."""
    user = request.user
    if permissions.is_board(user):
        today = timezone.localdate()
        tournaments = Tournament.objects.filter(
            Q(live__isnull=False) | Q(status=Tournament.REGISTERED, end_date__gte=today - timezone.timedelta(days=7),
                                      start_date__lte=today + timezone.timedelta(days=60)))
    else:  # a referee (the guard)
        tournaments = permissions.my_tournaments(user).filter(Q(live__isnull=False) | Q(status=Tournament.REGISTERED))
    tournaments = list(tournaments.select_related("live").annotate(
        runnable=ExpressionWrapper(without_results(), output_field=BooleanField()),
        published_rounds=Count("live__rounds", filter=Q(live__rounds__published_at__isnull=False)),
    ).order_by("-start_date", "-pk")[:50])
    tournaments = coming_first(tournaments)
    tournaments.sort(key=lambda t: not _running(t))  # stable: the running ones first, then the coming ones
    return render(request, "live/home.html", {"tournaments": tournaments, "today": timezone.localdate()})


def _running(tournament: Tournament) -> bool:
    live = getattr(tournament, "live", None)  # none: Django's RelatedObjectDoesNotExist is an AttributeError
    return live is not None and live.published_at is None


@referee_only
@require_http_methods(["GET", "POST"])
def live_start(request, tournament: Tournament):
    """Start a calendar tournament live: refused when its results are on the site; on a day outside its dates, the
    referee first confirms its real dates and rounds (the calendar entry corrected). A second send of the form
    finds the run started and goes on to it."""
    if LiveTournament.objects.filter(pk=tournament.pk).exists():
        return redirect("referee:live_run", tournament_id=tournament.pk)
    today = timezone.localdate()
    blocked = results_on_site(tournament)
    on_dates = on_its_dates(tournament, today=today)
    registrations = day_players(tournament=tournament)  # the calendar's registrations and the entered entries
    form = StartForm(request.POST or None)
    dates_form = None if on_dates else DatesForm(request.POST or None, initial={
        "start_date": today, "end_date": today, "rounds": tournament.rounds})
    errors: list[str] = []
    if blocked:
        errors = words(LiveRefused.one("results_on_site", name=tournament.name))
    elif request.method == "POST" and form.is_valid() and (dates_form is None or dates_form.is_valid()):
        dates = None
        if dates_form is not None:
            data = dates_form.cleaned_data
            dates = TournamentDates(data["start_date"], data["end_date"], data["rounds"])
        try:
            live_start_calendar(tournament, dates=dates, swiss=form.cleaned_data["swiss"],
                                players_enter_results=form.cleaned_data["players_enter_results"], user=request.user,
                                today=today)
        except LiveRefused as exc:
            if any(code == "already_live" for code, _params in exc.notices):
                return redirect("referee:live_players", tournament_id=tournament.pk)
            errors = words(exc)
        else:
            if registrations:
                messages.success(request, _("The tournament runs live: check in the players who are here, and add "
                                            "the others."))
            else:
                messages.success(request, _("The tournament runs live: add the players who are here."))
            return redirect("referee:live_players", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "live/start.html", {
        "tournament": tournament, "form": form, "dates_form": dates_form, "errors": errors, "blocked": blocked,
        "registrations": registrations, "today": today}, status=status)


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
def live_cancel_view(request, tournament: Tournament, live: LiveTournament):
    """Cancel a live run with no round published, after a confirmation (PAIRING.md §7)."""
    if request.method == "POST":
        return _cancel(request, tournament, live)
    return _cancel_page(request, tournament, live, CancelForm())


def _cancel_page(request, tournament, live, form, *, errors=(), status=200):
    view = selectors.live_view(live, language=lang())
    published = [r for pool in view.pools for r in pool.published_rounds]
    return render(request, "live/cancel.html", {
        "tournament": tournament, "live": live, "view": view, "form": form, "errors": errors,
        "published": published, "current_number": current_number(view),
        "entrants": sum(len(pool.entrants) for pool in view.pools)}, status=status)


@one_effect(seen_matters=True, stale_to="referee:live_players")
def _cancel(request, tournament, live):
    form = CancelForm(request.POST)
    if not form.is_valid():
        return _cancel_page(request, tournament, live, form, status=400)
    try:
        live_cancel(live, user=request.user)
    except LiveRefused as exc:
        return _cancel_page(request, tournament, live, form, errors=words(exc), status=400)
    messages.success(request, _("The live run of %(name)s is cancelled: it is a calendar tournament again.") % {
        "name": tournament.name})
    return redirect("referee:live_home")


def _run_page(request, tournament, live, *, errors=(), status=200, bound=None):
    """The rounds page; `bound`: the forms a refused POST sent, keyed (kind, pool), shown with what was typed."""
    view = selectors.live_view(live, language=lang())
    bound = bound or {}
    rounds = tournament.rounds
    announced = selectors.announced_method(tournament)
    pools = []
    for pool in view.pools:
        proposal = pool.proposal
        swap = table = None
        if proposal is not None:
            swap = bound.get(("swap", pool.pool)) or SwapForm(players=_players_in_table_order(proposal))
            table = bound.get(("table", pool.pool)) or TableForm(pairs=_pairs_of(proposal),
                                                                 numbers=_movable_numbers(view, proposal.number))
        current = pool.current
        next_number = len(pool.published_rounds) + 1
        methods = round_one_methods(len([e for e in pool.playing if e.joined_round <= 1]), rounds)
        chosen = _first_method(announced, methods)
        latest = pool.latest
        pools.append({
            "view": pool, "next_number": next_number,
            "can_pair": next_number <= rounds and (current is None or current.complete),
            "methods": methods, "elo_required": len(methods) == 1,
            "pair_form": bound.get(("pair", pool.pool)) or PairForm(initial={"pool": pool.pool, "method": chosen}),
            "chosen_method": chosen, "announced": announced, "announced_round": {"system": announced, "seed": None},
            "proposal_differs": bool(announced in methods and proposal is not None and proposal.number == 1
                                     and proposal.round.system != announced),
            "swap": swap, "swap_choices": _choices(swap, "first", "second"),
            "table_form": table, "table_choices": _choices(table, "table", "to"),
            "withdraw": bound.get(("withdraw", pool.pool)) or WithdrawRoundForm(initial={"pool": pool.pool}),
            "latest": latest, "latest_results": latest.entered if latest else 0,
        })
    complete = all(len(p["view"].published_rounds) == rounds and p["view"].current.complete for p in pools)
    return render(request, "live/run.html", {
        "tournament": tournament, "live": live, "view": view, "pools": pools, "errors": errors,
        "ideal": ideal_number(rounds), "complete": complete, "current_number": current_number(view),
        "self_entry": SelfEntryForm(initial={"players_enter_results": live.players_enter_results}),
        "screen_chances": ScreenChancesForm(initial={"screen_chances": live.screen_chances}),
    }, status=status)


def _first_method(announced: str | None, methods: tuple[str, ...]) -> str:
    """Round 1's method chosen on the page: the announced one when the charter allows it for the pool (PAIRING.md
    §3, decision of 2026-12-02), else the first allowed (`draw`, or `elo-levels` when required). An announced
    `manual` pairing is the "Pair by hand" form's: the radio keeps the first drawn method."""
    if announced in methods and announced != MANUAL:
        return announced
    return methods[0]


def _players_in_table_order(proposal: selectors.RoundView) -> list[tuple[int, str]]:
    """The swap lists: each table's A then B, tables in order: the
    referee finds a player by their table, not by their ID."""
    return [choice for t in sorted(proposal.tables, key=lambda t: t.table)
            for choice in ((t.a_key, f"{t.table} · {t.a_name}"), (t.b_key, f"{t.table} · {t.b_name}"))]


def _pairs_of(proposal: selectors.RoundView) -> list[tuple[int, str]]:
    return [(t.table, f"{t.table} · {t.a_name} – {t.b_name}") for t in sorted(proposal.tables, key=lambda t: t.table)]


def _movable_numbers(view: selectors.LiveView, number: int) -> list[int]:
    """The tables a pair of a proposal may take: those of round `number` in every pool's proposal."""
    return sorted(t.table for pool in view.pools if pool.proposal and pool.proposal.number == number
                  for t in pool.proposal.tables)


def _choices(form, *names: str) -> dict[str, list[tuple[str, str, bool]]]:
    """A form's select fields as (value, label, selected): a refused form keeps both choices, so
    the referee corrects one instead of choosing both again."""
    if form is None:
        return {}
    shown = {}
    for position, name in enumerate(names):
        choices = list(form.fields[name].choices)
        chosen = str(form.data.get(name, "")) if form.is_bound else ""
        if not chosen and len(choices) > position:
            chosen = str(choices[position][0])
        shown[name] = [(str(value), label, str(value) == chosen) for value, label in choices]
    return shown


@referee_only
@require_GET
@running_live
def live_run(request, tournament: Tournament, live: LiveTournament):
    return _run_page(request, tournament, live)


def _named_words(exc: LiveRefused, live: LiveTournament) -> list[str]:
    return words(exc, selectors.live_view(live, language=lang()))


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_pair(request, tournament: Tournament, live: LiveTournament):
    """Pair the next round of a pool, or pair (draw) its proposal again: the discarded draw is kept with its seed
    and the reason given, and a proposal the referee changed is discarded only once they confirm it."""
    form = PairForm(request.POST)
    if not form.is_valid():
        return _run_page(request, tournament, live, errors=[_("Choose a method.")], status=400)
    data = form.cleaned_data
    pool = data["pool"] or "A"
    first = not live.rounds.filter(pool=pool, published_at__isnull=False).exists()
    try:
        round_ = round_pair(live, pool=pool, method=(data["method"] or None) if first else None,
                            reason=data["reason"], discard_changes=data["discard_changes"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_named_words(exc, live), status=400,
                         bound={("pair", pool): form})
    messages.success(request, _("Round %(round)s is proposed: check it, then publish it.") % {"round": round_.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_pair_manually(request, tournament: Tournament, live: LiveTournament):
    """The referee's own pairs: round 1 `manual`, or a round the rules cannot pair without a rematch."""
    form = ManualPairsForm(request.POST)
    if not form.is_valid():
        errors = [str(e) for field in ("pool", "pairs", "reason") for e in form.errors.get(field, [])]
        return _run_page(request, tournament, live, errors=errors or [_("Write the pairs.")], status=400)
    pool = form.cleaned_data["pool"] or "A"
    try:
        round_ = round_pair_manually(live, pool=pool, pairs=form.cleaned_data["pairs"],
                                     reason=form.cleaned_data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_named_words(exc, live), status=400)
    messages.success(request, _("Round %(round)s is proposed: check it, then publish it.") % {"round": round_.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


def _round_of(live: LiveTournament, round_id: int) -> LiveRound | None:
    if not 0 < round_id < 2**31:  # a number the database cannot hold names no round
        return None
    return LiveRound.objects.filter(live=live, pk=round_id).first()


def _gone(request, tournament, live):
    """A form for a round that is no longer there (drawn again or withdrawn in another tab): said, not a 404."""
    return _run_page(request, tournament, live, errors=[
        _("This round is no longer there (drawn again or withdrawn since the page was shown): nothing was done.")],
        status=400)


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_swap(request, tournament: Tournament, live: LiveTournament, round_id: int):
    """Two players of a proposal exchanged between their tables; every table keeps its number."""
    round_ = _round_of(live, round_id)
    if round_ is None:
        return _gone(request, tournament, live)
    view = selectors.live_view(live, language=lang())
    proposal = next((r for pool in view.pools for r in pool.rounds if r.round.pk == round_.pk), None)
    form = SwapForm(request.POST, players=_players_in_table_order(proposal))
    if not form.is_valid():
        errors = form.non_field_errors() or [_("Choose two different players to swap.")]
        return _run_page(request, tournament, live, errors=list(errors), status=400,
                         bound={("swap", round_.pool): form})
    data = form.cleaned_data
    try:
        round_swap(round_, data["first"], data["second"], reason=data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc, view), status=400,
                         bound={("swap", round_.pool): form})
    messages.success(request, _("%(a)s and %(b)s are swapped; every table keeps its number.") % {
        "a": view.name(data["first"]), "b": view.name(data["second"])})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{round_.pool}")


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_table(request, tournament: Tournament, live: LiveTournament, round_id: int):
    """A pair of a proposal given a chosen table (an accessible one): the two tables' numbers are exchanged."""
    round_ = _round_of(live, round_id)
    if round_ is None:
        return _gone(request, tournament, live)
    view = selectors.live_view(live, language=lang())
    proposal = next((r for pool in view.pools for r in pool.rounds if r.round.pk == round_.pk), None)
    form = TableForm(request.POST, pairs=_pairs_of(proposal), numbers=_movable_numbers(view, round_.number))
    if not form.is_valid():
        return _run_page(request, tournament, live, errors=[_("Choose a pair and the table it needs.")],
                         status=400, bound={("table", round_.pool): form})
    data = form.cleaned_data
    try:
        round_move_table(round_, data["table"], data["to"], reason=data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc, view), status=400,
                         bound={("table", round_.pool): form})
    messages.success(request, _("The pair of table %(table)s now plays at table %(to)s.") % {
        "table": data["table"], "to": data["to"]})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{round_.pool}")


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_unpair(request, tournament: Tournament, live: LiveTournament):
    """The latest round of a pool withdrawn, published or not, with a reason the public page shows; one with
    results only once the referee confirms they are discarded. The pool can then be paired again."""
    form = WithdrawRoundForm(request.POST)
    pool = form.data.get("pool") or "A"
    if not form.is_valid():
        errors = [str(e) for e in form.errors.get("reason", [])] or [_("Give the reason.")]
        return _run_page(request, tournament, live, errors=errors, status=400,
                         bound={("withdraw", str(pool)[:30]): form})
    data = form.cleaned_data
    pool = data["pool"] or "A"
    try:
        kept = round_withdraw(live, pool=pool, reason=data["reason"], discard_results=data["discard_results"],
                              user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_named_words(exc, live), status=400,
                         bound={("withdraw", pool): form})
    messages.success(request, _("Round %(round)s is withdrawn; the public page shows why. Pair it again.") % {
        "round": kept.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


@referee_only
@require_POST
@running_live
@one_effect(seen_matters=True)
def live_round_publish(request, tournament: Tournament, live: LiveTournament, round_id: int):
    round_ = _round_of(live, round_id)
    if round_ is None:
        return _gone(request, tournament, live)
    try:
        round_ = round_publish(round_, user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_named_words(exc, live), status=400)
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
@one_effect()
def live_screen_chances(request, tournament: Tournament, live: LiveTournament):
    form = ScreenChancesForm(request.POST)
    form.is_valid()
    try:
        live_show_screen_chances(live, bool(form.cleaned_data.get("screen_chances")), user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("Saved."))
    return redirect("referee:live_run", tournament_id=tournament.pk)
