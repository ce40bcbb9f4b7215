"""The referee's results of a round: one card per table with the sheet's codes and losses; the game scores as
they count once a result is in; a change after the next round is paired needs a reason. Above the cards, the
current round's clock with its controls (tournaments.live.clock): start, pause, resume, extend, the game time set
before the start."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from adlg_site.inputs import whole_number
from rules.clock import MAX_EXTENSION_MINUTES, MAX_MINUTES, ClockRefused
from tournaments.live import clock as clocks
from tournaments.live import printouts, selectors
from tournaments.live.forms import ResultForm
from tournaments.live.page_tools import (
    asks_to_confirm,
    current_number,
    lang,
    number_text,
    one_effect,
    referee_only,
    running_live,
    words,
)
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import free_players, result_remove, results_record
from tournaments.models import LiveTable, LiveTournament, Tournament


def _results_page(request, tournament, live, number, *, errors=None, forms=None, confirm=(), status=200,
                  clock_errors=(), clock_minutes=None):
    """The round's result cards; `confirm`: the tables whose card asks the referee to confirm what was typed;
    `clock_errors` and `clock_minutes`: a clock's action refused, and the minutes it carried."""
    if not 0 < number <= tournament.rounds:
        raise Http404(_("No such round in this tournament."))
    view = selectors.live_view(live, language=lang())
    codes = tournament.system.get_ruleset().result_codes
    cards = []
    later_pools = {pool.pool for pool in view.pools if pool.rounds and pool.rounds[-1].number > number}
    for pool in view.pools:
        round_ = next((r for r in pool.rounds if r.number == number), None)
        if round_ is None:
            continue
        may_free = free_players(live, pool.pool, number, before=pool.standing_before(number))
        for table in round_.tables:
            initial = {"result": table.result, "a_losses": table.a_losses, "b_losses": table.b_losses,
                       "free": table.free}
            form = (forms or {}).get(table.table) or ResultForm(initial=initial, codes=codes,
                                                                  auto_id=f"t{table.table}-%s")
            cards.append({"pool": pool.pool, "round": round_, "table": table, "form": form,
                          "free_allowed": table.b is not None and {table.a_key, table.b_key} <= may_free,
                          "errors": (errors or {}).get(table.table, []), "confirm": table.table in confirm,
                          # a later round of the pool was paired with this result: corrected, never removed
                          "later_paired": pool.pool in later_pools})
    if not cards:
        raise Http404(_("No such round in this tournament."))
    rounds = sorted({r.number for pool in view.pools for r in pool.published_rounds})
    clock = clocks.clock_view(live)
    return render(request, "live/results.html", {
        "clock": clock, "clock_controls": clock is not None and clock.number == number,
        "clock_errors": clock_errors, "clock_minutes": clock_minutes, "max_extension": MAX_EXTENSION_MINUTES,
        "max_minutes": MAX_MINUTES,
        "tournament": tournament, "live": live, "view": view, "number": number, "cards": cards, "rounds": rounds,
        "current_number": current_number(view),
        "entered": sum(1 for c in cards if c["table"].result), "losses_scoring":
            tournament.system.get_ruleset().scoring == "losses",
        "later_paired": bool(later_pools),
        # What the Print entry offers: a published round's pairings and slips, standings once they are known.
        "printable": bool(printouts.printed_rounds(view, number)),
        "standings_known": printouts.standings_after(view, number) is not None,
        "final_known": printouts.standings_after(view, tournament.rounds) is not None,
    }, status=status)


@referee_only
@require_GET
@running_live
def live_results(request, tournament: Tournament, live: LiveTournament, number: int):
    return _results_page(request, tournament, live, number)


@referee_only
@require_POST
@running_live
@one_effect()
def live_result(request, tournament: Tournament, live: LiveTournament, number: int, table: int):
    """One table's result: POST result, a_losses, b_losses, free (on/absent), reason (a change once the next round
    is paired), revision (what the page showed: another entry since is shown, not replaced), confirm (a win with
    more losses than the loser's)."""
    if not 0 < number <= tournament.rounds or not 0 < table < 2**15:
        raise Http404(_("No such table in this tournament."))
    codes = tournament.system.get_ruleset().result_codes
    form = ResultForm(request.POST, codes=codes, auto_id=f"t{table}-%s")
    if not form.is_valid():
        return _results_page(request, tournament, live, number, forms={table: form},
                             errors={table: [_("Choose a result; losses are whole numbers from 0 to 100.")]},
                             status=400)
    view = selectors.live_view(live, language=lang())
    try:
        results_record(live, number, [form.result_for(table)], user=request.user,
                       reason=form.cleaned_data["reason"])
    except LiveRefused as exc:
        return _results_page(request, tournament, live, number, forms={table: form},
                             errors={table: words(exc, view)}, confirm={table} if asks_to_confirm(exc) else (),
                             status=400)
    saved = LiveTable.objects.filter(round__live=live, round__number=number, table=table).select_related(
        "round__live__tournament__system", "a", "b").first()
    shown = selectors.table_view(saved, tournament.system.get_ruleset())
    if shown.free:
        messages.success(request, _("Table %(table)s: %(a)s – %(b)s, a free game: it counts for the rating only, "
                                    "not in the standings.") % {"table": table, "a": shown.a_name, "b": shown.b_name})
    else:
        messages.success(request, _("Table %(table)s: %(a)s %(a_score)s – %(b_score)s %(b)s.") % {
            "table": table, "a": shown.a_name, "b": shown.b_name, "a_score": number_text(shown.a_score),
            "b_score": number_text(shown.b_score)})
    return redirect(reverse("referee:live_results", args=[tournament.pk, number]) + f"#table-{table}")


@referee_only
@require_POST
@running_live
@one_effect()
def live_result_remove(request, tournament: Tournament, live: LiveTournament, number: int, table: int):
    """Take back one table's result (entered on the wrong table, or too soon): POST revision (what the page showed:
    a result changed since is not removed unseen)."""
    if not 0 < number <= tournament.rounds or not 0 < table < 2**15:
        raise Http404(_("No such table in this tournament."))
    revision = whole_number(request.POST.get("revision", ""), maximum=2**31 - 1)
    try:
        result_remove(live, number, table, user=request.user, revision=revision)
    except LiveRefused as exc:
        view = selectors.live_view(live, language=lang())
        return _results_page(request, tournament, live, number, errors={table: words(exc, view)}, status=400)
    messages.success(request, _("Table %(table)s: its result is removed; the table waits for its result again.")
                     % {"table": table})
    return redirect(reverse("referee:live_results", args=[tournament.pk, number]) + f"#table-{table}")


CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "set", "reset")


@referee_only
@require_POST
@running_live
@one_effect()
def live_clock(request, tournament: Tournament, live: LiveTournament, number: int):
    """Round `number`'s clock: POST do (start, pause, resume, extend, set, reset) and minutes (the game time for start
    and set, the extension for extend); a reset needs confirm (it throws the time run away)."""
    if not 0 < number <= tournament.rounds:
        raise Http404(_("No such round in this tournament."))
    action = request.POST.get("do", "")
    typed = request.POST.get("minutes", "").strip()
    minutes = whole_number(typed, maximum=100_000)
    if action not in CLOCK_ACTIONS:
        return _results_page(request, tournament, live, number, status=400,
                             clock_errors=[_("Choose what to do with the clock.")])
    if (action in ("extend", "set") or (action == "start" and typed)) and minutes is None:
        return _results_page(request, tournament, live, number, status=400, clock_minutes=typed[:12],
                             clock_errors=[_("Type the minutes as a whole number.")])
    if action == "reset" and not request.POST.get("confirm"):
        return _results_page(request, tournament, live, number, status=400,
                             clock_errors=[_("Tick the box to confirm: the clock goes back to its full game time.")])
    user = request.user
    try:
        if action == "start":
            clocks.clock_start(live, number, minutes=minutes, user=user)
            done = _("The clock of round %(round)s is running.")
        elif action == "pause":
            clocks.clock_pause(live, number, user=user)
            done = _("The clock of round %(round)s is paused.")
        elif action == "resume":
            clocks.clock_resume(live, number, user=user)
            done = _("The clock of round %(round)s is running again.")
        elif action == "reset":
            clocks.clock_reset(live, number, user=user)
            done = _("The clock of round %(round)s is back to its start: start it when the players are ready.")
        elif action == "extend":
            clocks.clock_extend(live, number, minutes=minutes, user=user)
            done = _("Round %(round)s's game time is %(minutes)s minutes longer.")
        else:
            clocks.clock_set(live, number, minutes=minutes, user=user)
            done = _("Round %(round)s's game time is %(minutes)s minutes.")
    except ClockRefused as exc:
        return _results_page(request, tournament, live, number, status=400, clock_minutes=typed[:12],
                             clock_errors=[clocks.refusal_text(exc)])
    except LiveRefused as exc:
        return _results_page(request, tournament, live, number, status=400, clock_errors=words(exc))
    messages.success(request, done % {"round": number, "minutes": minutes})
    return redirect(reverse("referee:live_results", args=[tournament.pk, number]) + "#clock")
