"""The referee's page of the day's players: find a player of the federation by name or ID, add them or a player
new to the federation, withdraw one from a round on."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players.selectors import player_search
from tournaments.live import selectors
from tournaments.live.entrants import entrant_add, entrant_withdraw
from tournaments.live.forms import AddPlayerForm, FindPlayerForm, WithdrawForm
from tournaments.live.page_tools import current_number, lang, one_effect, referee_only, running_live, words
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveTournament, Tournament


def _players_page(request, tournament, live, *, add_form=None, errors=(), status=200):
    find = FindPlayerForm(request.GET or None)
    query = find.data.get("q", "").strip() if find.is_bound else ""
    view = selectors.live_view(live, language=lang())
    playing = {e.player_id for pool in view.pools for e in pool.entrants if e.player_id}
    found = list(player_search(query=query)[:20]) if len(query) >= 2 or query.isdigit() else []
    return render(request, "live/players.html", {
        "tournament": tournament, "live": live, "view": view, "find": find, "query": query, "found": found,
        "playing": playing, "current_number": current_number(view),
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
@one_effect()
def live_add(request, tournament: Tournament, live: LiveTournament):
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, add_form=form, status=400)
    try:
        entrant = entrant_add(live, form.entrant(), user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, add_form=form, errors=words(exc), status=400)
    messages.success(request, _("%(name)s plays in pool %(pool)s.") % {"name": selectors.entrant_name(entrant),
                                                                      "pool": entrant.pool})
    return redirect("referee:live_players", tournament_id=tournament.pk)


@referee_only
@require_POST
@running_live
@one_effect()
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
        return _players_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("%(name)s withdraws from round %(round)s.") % {
        "name": selectors.entrant_name(entrant), "round": form.cleaned_data["from_round"]})
    return redirect("referee:live_players", tournament_id=tournament.pk)
