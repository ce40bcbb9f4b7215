"""The public "check this draw" pages (PAIRING.md §3, 2026-11-26): a published round's pairing re-run from its seed
and the pool as it stood, showing that it gives the published pairs, or which pairs a change of §5 altered, with
its reason; a discarded draw checked the same way. No account needed; each check re-runs a pairing, so they count
against the live page's limit per client ("live_page", adlg_site.limits)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from adlg_site.limits import rate_limited
from tournaments.live import selectors
from tournaments.live.draws import DrawCheck, discarded_check, draw_check
from tournaments.live.page_tools import lang
from tournaments.models import LiveTournament

BIGGEST = 2**31 - 1  # no round, pool or draw number beyond what the database holds


def _live(tournament_id: int) -> LiveTournament:
    live = selectors.live_find(tournament_id)
    if live is None:
        raise Http404(_("This tournament is not run live on the site."))
    return live


@require_GET
@rate_limited("live_page")
def live_check(request, tournament_id: int, number: int):
    """?pool=A (default: the first pool): a pool's name is any text, so it is a parameter, not a path."""
    live = _live(tournament_id)
    view = selectors.live_view(live, language=lang())
    pools = {p.pool: p for p in view.pools}  # the pool asked for is compared here, never queried as it is
    pool = request.GET.get("pool") or view.pools[0].pool
    if pool not in pools or not 0 < number <= live.tournament.rounds:
        raise Http404(_("No such published round in this tournament."))
    check = draw_check(live, pool, number)
    if check is None:
        raise Http404(_("No such published round in this tournament."))
    return _page(request, live, view, check)


@require_GET
@rate_limited("live_page")
def live_check_discarded(request, tournament_id: int, draw_id: int):
    live = _live(tournament_id)
    view = selectors.live_view(live, language=lang())
    visible = {d.pk for p in view.pools for d in p.discarded_public()}
    check = discarded_check(live, draw_id) if 0 < draw_id <= BIGGEST and draw_id in visible else None
    if check is None:
        raise Http404(_("No such discarded draw in this tournament."))
    return _page(request, live, view, check)


def _page(request, live: LiveTournament, view: selectors.LiveView, check: DrawCheck):
    pool = next(p for p in view.pools if p.pool == check.pool)
    drawn = check.drawn or {}
    lines = pool.standings.get(check.number - 1, [])
    line = {row.key: row for row in lines}
    inputs = []
    for place, key in enumerate(drawn.get("standing") or [], 1):
        entrant = pool.by_key.get(key)
        row = line.get(key)
        inputs.append({"place": place, "name": view.name(key), "rating": entrant.rating if entrant else None,
                       "club": entrant.club if entrant else "", "group": entrant.group if entrant else "",
                       "hat": entrant.hat if entrant else None, "score": row.score if row else None,
                       "opponents_score": row.opponents_score if row else None})
    round_view = next((r for r in pool.rounds if check.round is not None and r.round.pk == check.round.pk), None)
    return render(request, "live/check.html", {
        "live": live, "tournament": live.tournament, "view": view, "check": check, "inputs": inputs,
        "names": view.name, "round_view": round_view,
        "pairs": [{"pair": p, "a": view.name(p.a), "b": view.name(p.b),
                   "changes": [selectors.change_view(c, lang(), view.name) for c in p.changes]}
                  for p in check.pairs],
        "made": [(table, view.name(a), view.name(b)) for table, a, b in check.made_by_changes],
        "changes": [selectors.change_view(c, lang(), view.name) for c in check.changes],
    })
