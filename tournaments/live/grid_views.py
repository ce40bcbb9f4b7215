"""The referee's keyboard grid of a round's results: on a laptop, one row per table (the players, the sheet's code
and the two losses as the one-table form takes them), tab from field to field; each table is saved as its row is
left (static/js/grid.js posts the row, no page reload), as Swiss-Manager's and Sharly Chess's arbiters type a round.

Each row goes through the one-table form's service (results.results_record) with that form's fields: the same
checks, the same refusals, the same revision (a result entered since the grid was shown, in another tab or by the
players, is not replaced: the row says so), the same result sent twice changing nothing. Without JavaScript the
grid is one plain form posting every row: each typed row is recorded on its own (a refused row does not hold the
others back) and the refused rows come back with their words.

GET /referee/live/<tournament>/rounds/<number>/grid/: the grid.
POST the same address: the rows, fields t<table>-result, t<table>-a_losses, t<table>-b_losses, t<table>-free,
t<table>-revision, t<table>-confirm, and reason (a change once a later round is paired). With `row` (a table's
number) only that row, answered in JSON: {"table", "state": "saved" | "error" | "empty" | "kept" (left blank: the
table keeps its result), "revision", "errors", "confirm" (the row asks the winner-lost-more question), "shown" (the
game scores as they count), "entered" (the table holds a result: a refused row may hold one entered since)}.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from adlg_site.inputs import whole_number
from tournaments.live import selectors
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
from tournaments.live.results import free_players, results_record
from tournaments.models import LiveTable, LiveTournament, Tournament


def _rows(live: LiveTournament, number: int, view: selectors.LiveView) -> list[dict]:
    """The round's tables in table order, pools together (tables are numbered across pools)."""
    rows = []
    for pool in view.pools:
        round_ = next((r for r in pool.rounds if r.number == number and r.published), None)
        if round_ is None:
            continue
        may_free = free_players(live, pool.pool, number, before=pool.standing_before(number))
        for table in round_.tables:
            if table.missed:
                continue
            rows.append({"pool": pool.pool, "t": table, "errors": [], "confirm": False, "typed": None,
                         "confirm_name": f"t{table.table}-confirm", "shown": _scores(table),
                         "free_allowed": table.b is not None and {table.a_key, table.b_key} <= may_free})
    return sorted(rows, key=lambda row: row["t"].table)


def _scores(table: selectors.TableView) -> str:
    """The game scores as they count, "75 – 25"; blank before the result is in."""
    return f"{number_text(table.a_score)} – {number_text(table.b_score)}" if table.result else ""


def _typed(request, table: int) -> dict:
    """A row's fields as typed, the code in capitals (the grid's code is typed, not chosen)."""
    prefix = f"t{table}-"
    return {"result": request.POST.get(prefix + "result", "").strip().upper()[:4],
            "a_losses": request.POST.get(prefix + "a_losses", "").strip()[:12],
            "b_losses": request.POST.get(prefix + "b_losses", "").strip()[:12],
            "free": bool(request.POST.get(prefix + "free")),
            "revision": request.POST.get(prefix + "revision", "").strip()[:12],
            "confirm": bool(request.POST.get(prefix + "confirm"))}


def _blank(typed: dict) -> bool:
    return not (typed["result"] or typed["a_losses"] or typed["b_losses"])


def _shape_error(codes: tuple[str, ...]) -> str:
    return _("Type one of the codes %(codes)s; losses are whole numbers from 0 to 100.") % {
        "codes": ", ".join(codes)}


def _save(request, live: LiveTournament, number: int, table: int, typed: dict, codes, *, view=None) -> dict:
    """One row through the one-table form and its service: {"state", "errors", "confirm", "changed"}."""
    form = ResultForm({**typed, "free": "on" if typed["free"] else "", "confirm": "on" if typed["confirm"] else "",
                       "reason": request.POST.get("reason", "")}, codes=codes)
    if not form.is_valid():
        return {"state": "error", "errors": [_shape_error(codes)], "confirm": False, "changed": False}
    try:
        changed = results_record(live, number, [form.result_for(table)], user=request.user,
                                 reason=form.cleaned_data["reason"])
    except LiveRefused as exc:
        view = view or selectors.live_view(live, language=lang())
        return {"state": "error", "errors": words(exc, view), "confirm": asks_to_confirm(exc), "changed": False}
    return {"state": "saved", "errors": [], "confirm": False, "changed": bool(changed)}


def _grid_page(request, tournament: Tournament, live: LiveTournament, number: int, *, typed=None, outcome=None,
               status=200):
    view = selectors.live_view(live, language=lang())
    rows = _rows(live, number, view)
    if not rows:
        raise Http404(_("No such round in this tournament."))
    for row in rows:
        done = (outcome or {}).get(row["t"].table)
        if done and done["state"] == "error":
            row.update(errors=done["errors"], confirm=done["confirm"], typed=(typed or {}).get(row["t"].table))
    ruleset = tournament.system.get_ruleset()
    return render(request, "live/grid.html", {
        "tournament": tournament, "live": live, "view": view, "number": number, "rows": rows,
        "codes": ruleset.result_codes, "losses_scoring": ruleset.scoring == "losses",
        "free_column": any(row["free_allowed"] for row in rows),
        "entered": sum(1 for row in rows if row["t"].result),
        "later_paired": live.rounds.filter(number__gt=number).exists(),
        "refused": sum(1 for row in rows if row["errors"]),
        "current_number": current_number(view),
    }, status=status)


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
def live_grid(request, tournament: Tournament, live: LiveTournament, number: int):
    if not 0 < number <= tournament.rounds:
        raise Http404(_("No such round in this tournament."))
    if live.published_at is not None:  # a correction is a new result sheet: the cards say so
        return redirect("referee:live_results", tournament_id=tournament.pk, number=number)
    if request.method == "GET":
        return _grid_page(request, tournament, live, number)
    if "row" in request.POST:
        return _grid_row(request, tournament, live, number)
    return _grid_all(request, tournament, live, number)


@one_effect()
def _grid_row(request, tournament: Tournament, live: LiveTournament, number: int):
    """One row, sent by the grid's script as it is left: answered in JSON (see the module's docstring)."""
    table = whole_number(request.POST.get("row", ""), minimum=1, maximum=2**15 - 1)
    held = None if table is None else (
        LiveTable.objects.filter(round__live=live, round__number=number, table=table).values_list("result", flat=True)
        .first())
    if held is None:
        return JsonResponse({"table": table, "state": "error", "errors": [_("No such table in this tournament.")],
                             "confirm": False}, status=400)
    typed = _typed(request, table)
    codes = tournament.system.get_ruleset().result_codes
    if _blank(typed) and not held:
        return JsonResponse({"table": table, "state": "empty", "errors": [], "confirm": False, "changed": False,
                             "entered": False})
    if _blank(typed):  # a blank row never removes a result: that is done on its card, which says what goes
        done = {"state": "kept", "errors": [], "confirm": False, "changed": False}
    else:
        done = _save(request, live, number, table, typed, codes)
    saved = LiveTable.objects.select_related("round", "a", "b").get(round__live=live, round__number=number,
                                                                     table=table)
    shown = _scores(selectors.table_view(saved, tournament.system.get_ruleset()))
    return JsonResponse({"table": table, **done, "revision": saved.revision, "shown": shown,
                         "entered": bool(saved.result)},
                        status=400 if done["state"] == "error" else 200)


@one_effect()
def _grid_all(request, tournament: Tournament, live: LiveTournament, number: int):
    """The grid without JavaScript: every typed row recorded on its own; back to the grid, or the refused rows
    shown with their words (the rows saved stay saved)."""
    view = selectors.live_view(live, language=lang())
    codes = tournament.system.get_ruleset().result_codes
    typed, outcome = {}, {}
    for row in _rows(live, number, view):
        table = row["t"].table
        typed[table] = _typed(request, table)
        if _blank(typed[table]):
            continue
        outcome[table] = _save(request, live, number, table, typed[table], codes, view=view)
    if any(done["state"] == "error" for done in outcome.values()):
        return _grid_page(request, tournament, live, number, typed=typed, outcome=outcome, status=400)
    saved = sum(1 for done in outcome.values() if done["changed"])
    messages.success(request, ngettext("The grid is saved: %(saved)s table recorded.",
                                       "The grid is saved: %(saved)s tables recorded.", saved) % {"saved": saved})
    return redirect(reverse("referee:live_grid", args=[tournament.pk, number]))
