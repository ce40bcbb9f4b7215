"""The tournament day's pages (issue 23, PAIRING.md): the referee's, under /referee/live/, and the public live page
of each tournament with the fragment phones poll.

The referee's day: start from a calendar tournament → add the players (found by name or ID, or new to the
federation) → pair round 1 (the method the charter allows) → swap players if needed → publish the round → enter
each table's result → pair the next round … → publish the tournament (tournaments.live.live_publish imports it as
an uploaded sheet). Every refusal of the services (LiveRefused) is shown in the page's language and changes
nothing; a refused POST answers 400.

The public page shows the current round's tables and the standings; its fragment (/live/now/) carries an ETag
made of LiveTournament.version, so the phones that poll it every few seconds mostly get 304 Not Modified.
"""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from players import permissions
from players.selectors import player_search
from rules.pairing import round_one_methods
from rules.pairing.model import ideal_number
from rules.rulesets import SPARE_ID
from tournaments import live_selectors as selectors
from tournaments.live import (
    LiveRefused,
    NewEntrant,
    entrant_add,
    entrant_withdraw,
    free_players,
    key_of,
    live_allow_self_entry,
    live_begin,
    live_publish,
    result_claim,
    results_record,
    round_pair,
    round_pair_manually,
    round_publish,
    round_swap,
)
from tournaments.live_forms import (
    AddPlayerForm,
    FindPlayerForm,
    ManualPairsForm,
    PairForm,
    ResultForm,
    SelfEntryForm,
    StartForm,
    SwapForm,
    WithdrawForm,
)
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament, Tournament

referee_only = permissions.rule_required(permissions.can_send_sheet, tournament_kwarg="tournament_id")
# How long a rendered fragment is kept: its key holds the version, so a change is never served stale; this only
# bounds the memory the finished tournaments' fragments take.
FRAGMENT_SECONDS = 600


def _lang() -> str:
    return "fr" if (get_language() or "en").lower().startswith("fr") else "en"


def _words(exc: LiveRefused, view: selectors.LiveView | None = None) -> list[str]:
    return exc.messages(_lang(), view.name if view is not None else None)


def _current_number(view: selectors.LiveView) -> int | None:
    """The last published round (any pool): the results page the referee's tabs lead to."""
    numbers = [r.number for pool in view.pools for r in pool.published_rounds]
    return max(numbers) if numbers else None


def running_live(view):
    """Passes the tournament's live run to the view as `live`; a tournament not run live yet goes to its start."""
    @functools.wraps(view)
    def wrapper(request, tournament: Tournament, *args, **kwargs):
        live = selectors.live_of(tournament.pk)
        if live is None:
            return redirect("referee:live_start", tournament_id=tournament.pk)
        return view(request, tournament, live, *args, **kwargs)

    return wrapper


# --- the referee's list and start ---------------------------------------------------------------------------


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
    registrations = list(tournament.registrations.select_related("player").order_by("player__last_name"))
    form = StartForm(request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            live_begin(tournament, entrants=[NewEntrant(player=r.player_id, pool=r.pool) for r in registrations],
                       swiss=form.cleaned_data["swiss"],
                       players_enter_results=form.cleaned_data["players_enter_results"], user=request.user)
        except LiveRefused as exc:
            errors = _words(exc)
        else:
            messages.success(request, _("The tournament runs live: add the players who are here."))
            return redirect("referee:live_players", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "live/start.html", {"tournament": tournament, "form": form, "errors": errors,
                                               "registrations": registrations}, status=status)


# --- the players -------------------------------------------------------------------------------------------------


def _players_page(request, tournament, live, *, add_form=None, errors=(), status=200):
    find = FindPlayerForm(request.GET or None)
    query = find.data.get("q", "").strip() if find.is_bound else ""
    view = selectors.live_view(live, language=_lang())
    playing = {e.player_id for pool in view.pools for e in pool.entrants if e.player_id}
    found = list(player_search(query=query)[:20]) if len(query) >= 2 or query.isdigit() else []
    return render(request, "live/players.html", {
        "tournament": tournament, "live": live, "view": view, "find": find, "query": query, "found": found,
        "playing": playing, "current_number": _current_number(view),
        "add_form": add_form or AddPlayerForm(initial={"pool": "A"}), "errors": errors,
    }, status=status)


@referee_only
@require_GET
@running_live
def live_players(request, tournament: Tournament, live: LiveTournament):
    return _players_page(request, tournament, live)


@referee_only
@require_POST
@running_live
def live_add(request, tournament: Tournament, live: LiveTournament):
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, add_form=form, status=400)
    try:
        entrant = entrant_add(live, form.entrant(), user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, add_form=form, errors=_words(exc), status=400)
    messages.success(request, _("%(name)s plays in pool %(pool)s.") % {"name": selectors.entrant_name(entrant),
                                                                      "pool": entrant.pool})
    return redirect("referee:live_players", tournament_id=tournament.pk)


@referee_only
@require_POST
@running_live
def live_withdraw(request, tournament: Tournament, live: LiveTournament):
    form = WithdrawForm(request.POST)
    entrant = None
    if form.is_valid():
        entrant = LiveEntrant.objects.filter(live=live, pk=form.cleaned_data["entrant"]).first()
    if entrant is None:
        return _players_page(request, tournament, live, errors=[_("Choose a player and a round.")], status=400)
    try:
        entrant_withdraw(live, entrant, from_round=form.cleaned_data["from_round"], user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, errors=_words(exc), status=400)
    messages.success(request, _("%(name)s withdraws from round %(round)s.") % {
        "name": selectors.entrant_name(entrant), "round": form.cleaned_data["from_round"]})
    return redirect("referee:live_players", tournament_id=tournament.pk)


# --- the rounds ------------------------------------------------------------------------------------------------


def _run_page(request, tournament, live, *, errors=(), status=200, swap_forms=None):
    view = selectors.live_view(live, language=_lang())
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
        "ideal": ideal_number(rounds), "complete": complete, "current_number": _current_number(view),
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
        return _run_page(request, tournament, live, errors=_words(exc, selectors.live_view(live, language=_lang())),
                         status=400)
    messages.success(request, _("Round %(round)s is proposed: check it, then publish it.") % {"round": round_.number})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{pool}")


@referee_only
@require_POST
@running_live
def live_pair_manually(request, tournament: Tournament, live: LiveTournament):
    """The referee's own pairs: round 1 `manual`, or a round the rules cannot pair without a rematch."""
    form = ManualPairsForm(request.POST)
    view = selectors.live_view(live, language=_lang())
    if not form.is_valid():
        errors = [str(e) for field in ("pairs", "reason") for e in form.errors.get(field, [])]
        return _run_page(request, tournament, live, errors=errors or [_("Write the pairs.")], status=400)
    pool = form.cleaned_data["pool"] or "A"
    try:
        round_ = round_pair_manually(live, pool=pool, pairs=form.cleaned_data["pairs"],
                                     reason=form.cleaned_data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_words(exc, view), status=400)
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
def live_swap(request, tournament: Tournament, live: LiveTournament, round_id: int):
    round_ = _round_of(live, round_id)
    keys = [(k, str(k)) for t in round_.tables.select_related("a", "b") for k in _keys(t)]
    form = SwapForm(request.POST, players=keys)
    view = selectors.live_view(live, language=_lang())
    if not form.is_valid() or form.cleaned_data["first"] == form.cleaned_data["second"]:
        return _run_page(request, tournament, live, errors=[_("Choose two different players to swap.")], status=400)
    data = form.cleaned_data
    try:
        round_swap(round_, data["first"], data["second"], reason=data["reason"], user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_words(exc, view), status=400)
    messages.success(request, _("%(a)s and %(b)s are swapped.") % {"a": view.name(data["first"]),
                                                                  "b": view.name(data["second"])})
    return redirect(reverse("referee:live_run", args=[tournament.pk]) + f"#pool-{round_.pool}")


def _keys(table: LiveTable) -> list[int]:
    return [key_of(table.a), key_of(table.b) if table.b else SPARE_ID]


@referee_only
@require_POST
@running_live
def live_round_publish(request, tournament: Tournament, live: LiveTournament, round_id: int):
    round_ = _round_of(live, round_id)
    try:
        round_publish(round_, user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_words(exc), status=400)
    messages.success(request, _("Round %(round)s is published: the players see their tables.") % {
        "round": round_.number})
    return redirect("referee:live_results", tournament_id=tournament.pk, number=round_.number)


@referee_only
@require_POST
@running_live
def live_self_entry(request, tournament: Tournament, live: LiveTournament):
    form = SelfEntryForm(request.POST)
    form.is_valid()
    try:
        live_allow_self_entry(live, bool(form.cleaned_data.get("players_enter_results")), user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_words(exc), status=400)
    messages.success(request, _("Saved."))
    return redirect("referee:live_run", tournament_id=tournament.pk)


@referee_only
@require_POST
@running_live
def live_publish_view(request, tournament: Tournament, live: LiveTournament):
    try:
        outcome = live_publish(live, user=request.user)
    except LiveRefused as exc:
        return _run_page(request, tournament, live, errors=_words(exc), status=400)
    if not outcome.ok:
        report = outcome.report.as_dict(_lang())
        errors = [str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in report.get("errors", [])]
        return _run_page(request, tournament, live, errors=errors or [_("The sheet was refused.")], status=400)
    messages.success(request, _("The tournament is published: its ratings are being computed."))
    return redirect("referee:sheet_status", pk=outcome.sheet.pk)


# --- the results ------------------------------------------------------------------------------------------------


def _results_page(request, tournament, live, number, *, errors=None, forms=None, status=200):
    view = selectors.live_view(live, language=_lang())
    codes = tournament.system.get_ruleset().result_codes
    cards = []
    for pool in view.pools:
        round_ = next((r for r in pool.rounds if r.number == number), None)
        if round_ is None:
            continue
        may_free = free_players(live, pool.pool, number) if number == tournament.rounds else frozenset()
        for table in round_.tables:
            initial = {"result": table.result, "a_losses": table.a_losses, "b_losses": table.b_losses,
                       "free": table.free}
            form = (forms or {}).get(table.table) or ResultForm(initial=initial, codes=codes,
                                                                  auto_id=f"t{table.table}-%s")
            cards.append({"pool": pool.pool, "round": round_, "table": table, "form": form,
                          "free_allowed": table.b is not None and {table.a_key, table.b_key} <= may_free,
                          "errors": (errors or {}).get(table.table, [])})
    if not cards:
        raise Http404(_("No such round in this tournament."))
    rounds = sorted({r.number for pool in view.pools for r in pool.published_rounds})
    return render(request, "live/results.html", {
        "tournament": tournament, "live": live, "view": view, "number": number, "cards": cards, "rounds": rounds,
        "current_number": _current_number(view),
        "entered": sum(1 for c in cards if c["table"].result), "losses_scoring":
            tournament.system.get_ruleset().scoring == "losses",
        "later_paired": live.rounds.filter(number__gt=number).exists(),
    }, status=status)


@referee_only
@require_GET
@running_live
def live_results(request, tournament: Tournament, live: LiveTournament, number: int):
    return _results_page(request, tournament, live, number)


@referee_only
@require_POST
@running_live
def live_result(request, tournament: Tournament, live: LiveTournament, number: int, table: int):
    """One table's result: POST result, a_losses, b_losses, free (on/absent), reason (a change once the next round
    is paired)."""
    codes = tournament.system.get_ruleset().result_codes
    form = ResultForm(request.POST, codes=codes, auto_id=f"t{table}-%s")
    if not form.is_valid():
        return _results_page(request, tournament, live, number, forms={table: form},
                             errors={table: [_("Choose a result; losses are whole numbers from 0 to 100.")]},
                             status=400)
    view = selectors.live_view(live, language=_lang())
    try:
        results_record(live, number, [form.result_for(table)], user=request.user,
                       reason=form.cleaned_data["reason"])
    except LiveRefused as exc:
        return _results_page(request, tournament, live, number, forms={table: form},
                             errors={table: _words(exc, view)}, status=400)
    saved = LiveTable.objects.filter(round__live=live, round__number=number, table=table).select_related(
        "round__live__tournament__system", "a", "b").first()
    shown = selectors._table_view(saved, tournament.system.get_ruleset())
    messages.success(request, _("Table %(table)s: %(a)s %(a_score)s – %(b_score)s %(b)s.") % {
        "table": table, "a": shown.a_name, "b": shown.b_name, "a_score": _number(shown.a_score),
        "b_score": _number(shown.b_score)})
    return redirect(reverse("referee:live_results", args=[tournament.pk, number]) + f"#table-{table}")


def _number(value) -> str:
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# --- the public page ---------------------------------------------------------------------------------------------


def _public_live(tournament_id: int) -> LiveTournament:
    live = selectors.live_of(tournament_id)
    if live is None:
        raise Http404(_("This tournament is not run live on the site."))
    return live


def _etag(live: LiveTournament, version: int | None = None) -> str:
    # The start time tells apart two tournaments that reused an ID (a test database, a deleted tournament).
    return f'"live-{live.pk}-{int(live.started_at.timestamp())}-{live.version if version is None else version}-' \
           f'{_lang()}"'


def _fragment(request, live: LiveTournament) -> str:
    """The polled part of the page, rendered once per version and language for every phone in the hall."""
    return _shared_render(live, "live/_now.html")


def _history(live: LiveTournament) -> str:
    """Every round with the standings after it: in the page, not in the polled fragment, which stays small."""
    return _shared_render(live, "live/_history.html")


def _shared_render(live: LiveTournament, template: str) -> str:
    key = f"{template}:{live.pk}:{int(live.started_at.timestamp())}:{live.version}:{_lang()}"
    html = cache.get(key)
    if html is None:
        view = selectors.live_view(live, language=_lang())
        html = render_to_string(template, {"view": view, "live": live, "tournament": live.tournament})
        cache.set(key, html, FRAGMENT_SECONDS)
    return html


def _public_page(request, live, *, errors=(), claim_form=None, status=200):
    query = request.GET.get("q", "").strip()[:80]
    mine = None
    found = []
    player = permissions.player_of(request.user)
    view = None
    if query or player is not None:
        view = selectors.live_view(live, language=_lang())
    if query and view is not None:
        words = query.casefold().split()
        found = [(pool, pool.current, t) for pool in view.pools if pool.current for t in pool.current.tables
                 if all(w in t.names for w in words)]
    if player is not None and view is not None:
        mine = selectors.table_of_player(view, player.pk)
    claim = None
    if mine is not None and live.players_enter_results and not mine[2].result and live.published_at is None:
        codes = live.tournament.system.get_ruleset().result_codes
        claim = claim_form or ResultForm(codes=codes, auto_id="claim-%s")
    response = render(request, "live/page.html", {
        "live": live, "tournament": live.tournament, "fragment": _fragment(request, live), "query": query,
        "history": _history(live),
        "found": found, "mine": mine, "claim": claim, "errors": errors, "etag": _etag(live),
    }, status=status)
    return response


@require_GET
@gzip_page  # Django's gzip adds its own BREACH defence, and the page's CSRF token is masked per response
def live_page(request, tournament_id: int):
    return _public_page(request, _public_live(tournament_id))


@require_GET
@gzip_page  # a few kilobytes instead of tens on a phone's connection; the fragment holds no secret (BREACH)
def live_now(request, tournament_id: int):
    """The fragment the live page polls: 304 while LiveTournament.version has not changed."""
    live = _public_live(tournament_id)
    etag = _etag(live)
    sent = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    unchanged = etag in sent or "*" in sent
    response = HttpResponseNotModified() if unchanged else HttpResponse(_fragment(request, live))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@login_required
@require_POST
def live_claim(request, tournament_id: int, table_id: int):
    """A player's own table's result: it counts once both players have entered the same."""
    live = _public_live(tournament_id)
    player = permissions.player_of(request.user)
    table = LiveTable.objects.filter(pk=table_id, round__live=live).first()
    if table is None:
        raise Http404(_("No such table in this tournament."))
    form = ResultForm(request.POST, codes=live.tournament.system.get_ruleset().result_codes, auto_id="claim-%s")
    if player is None:
        return _public_page(request, live, errors=[_("Your account is not linked to a player.")], status=403)
    if not form.is_valid():
        return _public_page(request, live, claim_form=form, status=400,
                            errors=[_("Choose a result; losses are whole numbers from 0 to 100.")])
    try:
        saved = result_claim(live, table, player=player, result=form.result_for(table.table))
    except LiveRefused as exc:
        return _public_page(request, live, claim_form=form, errors=_words(exc), status=400)
    if saved.result:
        messages.success(request, _("Both players agree: the result counts."))
    else:
        messages.success(request, _("Your result is saved; it counts once your opponent enters the same."))
    return redirect("live_page", tournament_id=tournament_id)
