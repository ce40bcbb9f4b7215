"""The referee's page of the day's players (PAIRING.md §6): find a player of the federation by name (accents aside) or
ID and add them to a pool and a hat; paste several IDs or names, check them, and add them all at once; add a player
new to the federation (the known players of that name shown first; what the sheet would refuse said beside the
field); check players in; move one to another pool or hat; remove one added by mistake; withdraw one from a round on;
correct a new player's names.

Every POST acts once (page_tools.one_effect); a refusal of the services is shown in the page's language and
changes nothing (status 400).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adlg_site.limits import rate_limited
from players.models import Country
from players.selectors import club_names, player_search, players_like
from tournaments.live import selectors
from tournaments.live.entrants import (
    KEEP,
    entrant_add,
    entrant_edit,
    entrant_move,
    entrant_remove,
    entrant_withdraw,
    entrants_add,
    entrants_check_in,
    pasted_players,
    tournament_pools,
)
from tournaments.live.forms import (
    AddPlayerForm,
    AllPresentForm,
    BulkAddForm,
    BulkCheckForm,
    EditEntrantForm,
    FindPlayerForm,
    MoveForm,
    PresentForm,
    ReissueLinkForm,
    RemoveForm,
    WithdrawForm,
)
from tournaments.live.links import link_reissue
from tournaments.live.page_tools import current_number, lang, one_effect, referee_only, running_live, words
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveEntrant, LiveTournament, Tournament

FOUND_LIMIT = 20


def _choices(live: LiveTournament) -> dict:
    """What the page's lists offer: the pools so far, the federation's clubs, the countries' codes."""
    return {"pool_names": sorted(set(live.entrants.values_list("pool", flat=True)) | {"A", "B"}),
            "club_names": club_names(),
            "countries": [(country.code, country.local_name()) for country in Country.objects.order_by("code")]}


def _find(request) -> tuple[FindPlayerForm, str, str, int | None, bool]:
    """The search, the pool and hat the players found go into, and whether that pool is a new one asked for."""
    find = FindPlayerForm(request.GET or None)
    if find.is_bound and find.is_valid():
        data = find.cleaned_data
        pool, new_pool = find.pool_choice()
        return find, data["q"].strip(), pool, data["hat"], new_pool
    query = (request.GET.get("q") or "")[:80].strip() if find.is_bound else ""
    return find, query, "A", None, False


def _players_page(request, tournament, live, *, add_form=None, errors=(), similar=(), status=200, paste_form=None,
                  pasted=None):
    find, query, pool, hat, new_pool = _find(request)
    view = selectors.live_view(live, language=lang())
    playing = {e.player_id for p in view.pools for e in p.entrants if e.player_id}
    found = list(player_search(query=query)[:FOUND_LIMIT]) if query else []
    with_game = {t.a.pk for p in view.pools for r in p.published_rounds for t in r.tables} | {
        t.b.pk for p in view.pools for r in p.published_rounds for t in r.tables if t.b}
    add_form = add_form or AddPlayerForm(initial={"pool": pool, "hat": hat, "country": live.tournament.country_id})
    return render(request, "live/players.html", {
        "tournament": tournament, "live": live, "view": view, "find": find, "query": query, "found": found,
        "find_pool": pool, "find_hat": hat, "find_new_pool": pool if new_pool else "", "playing": playing,
        "with_game": with_game,
        "current_number": current_number(view), "add_form": add_form, "errors": errors, "similar": similar,
        "show_new_club": add_form.asks_new_club,
        "can_cancel": not any(p.published_rounds for p in view.pools), **_choices(live),
        "paste_form": paste_form or BulkCheckForm(initial={"pool": pool, "hat": hat}), "pasted": pasted,
        "tournament_pools": tournament_pools(live),
    }, status=status)


def _back(tournament: Tournament, pool: str | None = None, *, find: dict | None = None) -> str:
    """The players' page, at the pool's list; after a player found was added, at the search, keeping the pool and
    hat chosen for the next one."""
    url = reverse("referee:live_players", args=[tournament.pk])
    if find:
        return f"{url}?{urlencode({k: v for k, v in find.items() if v})}#find"
    return url + (f"#pool-{pool}" if pool else "")


def _entrant_of(live: LiveTournament, entrant_id: int) -> LiveEntrant:
    entrant = LiveEntrant.objects.filter(live=live, pk=entrant_id).first() if 0 < entrant_id < 2**63 else None
    if entrant is None:
        raise Http404(_("No such player in this tournament."))
    return entrant


def players_change(view):
    """A change of the day's players: the referee's, posted once (a double tap or a second tab does it once), on a
    day being run; a stale form goes back to the players' page."""
    return referee_only(require_POST(running_live(one_effect(stale_to="referee:live_players")(view))))


@referee_only
@require_GET
@rate_limited("live_find")  # each search reads the federation's players (per account: a referee is signed in)
@running_live
def live_players(request, tournament: Tournament, live: LiveTournament):
    return _players_page(request, tournament, live)


@players_change
def live_add(request, tournament: Tournament, live: LiveTournament):
    form = AddPlayerForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, add_form=form, status=400)
    data = form.cleaned_data
    if data["player"] is None and not data["confirm_new"]:
        similar = players_like(last_name=data["last_name"], first_name=data["first_name"])
        if similar:  # maybe a player of the federation: the referee picks one, or says this one is new
            return _players_page(request, tournament, live, add_form=form, similar=similar)
    try:
        entrant = entrant_add(live, form.entrant(), user=request.user)
    except LiveRefused as exc:
        others = form.refused(exc)
        return _players_page(request, tournament, live, add_form=form, errors=others, status=400)
    name = selectors.entrant_name(entrant)
    if entrant.joined_round > 1:
        messages.success(request, _("%(name)s plays in pool %(pool)s from round %(round)s: a late player, with no "
                                    "game in the rounds missed.") % {"name": name, "pool": entrant.pool,
                                                                     "round": entrant.joined_round})
    else:
        messages.success(request, _("%(name)s plays in pool %(pool)s.") % {"name": name, "pool": entrant.pool})
    if entrant.player_id is not None:
        return redirect(_back(tournament, find={"pool": entrant.pool, "hat": entrant.hat or ""}))
    return redirect(_back(tournament, pool=entrant.pool))


@referee_only
@require_POST
@rate_limited("live_find")  # each line is a search of the federation's players
@running_live
def live_paste_check(request, tournament: Tournament, live: LiveTournament):
    """Several players pasted, one a line: each found, not found, ambiguous, repeated or already playing, shown
    before anything is added (nothing changes here)."""
    form = BulkCheckForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, paste_form=form, status=400)
    lines = pasted_players(live, form.cleaned_data["lines"])
    found = [line.player.pk for line in lines if line.status == "found"]
    return _players_page(request, tournament, live, paste_form=form, pasted={
        "lines": lines, "ready": bool(lines) and len(found) == len(lines), "players": ",".join(map(str, found)),
        "pool": form.pool_choice()[0], "new_pool": form.pool_choice()[1], "hat": form.cleaned_data["hat"]})


@players_change
def live_paste_add(request, tournament: Tournament, live: LiveTournament):
    """The players the check found, added to one pool and hat in one step: all of them or none."""
    form = BulkAddForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, paste_form=form, status=400,
                             errors=[_("Check the list again, then add the players.")])
    data = form.cleaned_data
    try:
        pool, new_pool = form.pool_choice()
        added = entrants_add(live, data["players"], pool=pool, hat=data["hat"], new_pool=new_pool,
                             user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, paste_form=form, errors=words(exc), status=400)
    late = [e for e in added if e.joined_round > 1]
    pool = added[0].pool
    messages.success(request, ngettext("%(count)s player added to pool %(pool)s.",
                                       "%(count)s players added to pool %(pool)s.", len(added))
                     % {"count": len(added), "pool": pool})
    if late:
        messages.info(request, ngettext(
            "%(count)s of them is a late player, paired from round %(round)s, with no game in the rounds missed.",
            "%(count)s of them are late players, paired from round %(round)s, with no game in the rounds missed.",
            len(late)) % {"count": len(late), "round": late[0].joined_round})
    return redirect(_back(tournament, pool=pool))


@players_change
def live_move(request, tournament: Tournament, live: LiveTournament, entrant_id: int):
    entrant = _entrant_of(live, entrant_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _players_page(request, tournament, live, errors=[_("Choose a pool and a hat (1, 2 or none).")],
                             status=400)
    data = form.cleaned_data
    pool, new_pool = form.pool_choice() if (data["pool"] or data["new_pool"]).strip() else (entrant.pool, False)
    try:
        moved = entrant_move(live, entrant, pool=pool, new_pool=new_pool,
                             hat=data["hat"] if "hat" in request.POST else KEEP, user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, errors=words(exc), status=400)
    hat = _("hat %(hat)s") % {"hat": moved.hat} if moved.hat else _("no hat")
    messages.success(request, _("%(name)s: pool %(pool)s, %(hat)s.") % {
        "name": selectors.entrant_name(moved), "pool": moved.pool, "hat": hat})
    return redirect(_back(tournament, pool=moved.pool))


@players_change
def live_remove(request, tournament: Tournament, live: LiveTournament, entrant_id: int):
    entrant = _entrant_of(live, entrant_id)
    if not RemoveForm(request.POST).is_valid():
        return _players_page(request, tournament, live, status=400, errors=[
            _("Tick “Yes, remove %(name)s” to remove them: nothing was changed.") % {
                "name": selectors.entrant_name(entrant)}])
    try:
        entrant_remove(live, entrant, user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, _("%(name)s is removed from the tournament.") % {
        "name": selectors.entrant_name(entrant)})
    return redirect(_back(tournament, pool=entrant.pool))


@players_change
def live_present(request, tournament: Tournament, live: LiveTournament, entrant_id: int):
    entrant = _entrant_of(live, entrant_id)
    form = PresentForm(request.POST)
    form.is_valid()
    present = bool(form.cleaned_data.get("present"))
    try:
        changed = entrants_check_in(live, [entrant], present=present, user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, errors=words(exc), status=400)
    name = selectors.entrant_name(entrant)
    if changed and changed[0].joined_round > 1:
        messages.success(request, _("%(name)s is here: a late player, paired from round %(round)s.") % {
            "name": name, "round": changed[0].joined_round})
    elif present:
        messages.success(request, _("%(name)s is here.") % {"name": name})
    else:
        messages.success(request, _("%(name)s is marked absent: not paired.") % {"name": name})
    return redirect(_back(tournament, pool=entrant.pool))


@players_change
def live_all_present(request, tournament: Tournament, live: LiveTournament):
    """Every player not yet checked in, of one pool (or all pools), marked present in one tap, before round 1.
    Not refused for an older page: another referee adding players meanwhile changes nothing of what it does."""
    form = AllPresentForm(request.POST)
    form.is_valid()
    pool = (form.cleaned_data.get("pool") or "").strip()
    absent = live.entrants.filter(present=False, withdrawn_from__isnull=True)
    if pool:
        absent = absent.filter(pool=pool)
    started = set(live.rounds.filter(number=1, published_at__isnull=False).values_list("pool", flat=True))
    absent = [e for e in absent if e.pool not in started]  # after round 1, one by one: each is a late player
    try:
        changed = entrants_check_in(live, absent, present=True, user=request.user)
    except LiveRefused as exc:
        return _players_page(request, tournament, live, errors=words(exc), status=400)
    messages.success(request, ngettext("%(count)s player checked in: every player is present.",
                                       "%(count)s players checked in: every player is present.",
                                       len(changed)) % {"count": len(changed)})
    return redirect(_back(tournament, pool=pool or None))


@players_change
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
    return redirect(_back(tournament, pool=entrant.pool))


@referee_only
@require_http_methods(["GET", "POST"])
@running_live
def live_edit(request, tournament: Tournament, live: LiveTournament, entrant_id: int):
    """A new player's names, club and country, corrected until the publication."""
    entrant = _entrant_of(live, entrant_id)
    if entrant.player_id is not None:
        raise Http404(_("A player of the federation is corrected by the board, not here."))
    if request.method == "POST":
        return _edit_post(request, tournament, live, entrant_id=entrant_id)
    form = EditEntrantForm(initial={"last_name": entrant.last_name, "first_name": entrant.first_name,
                                    "club": entrant.club, "country": entrant.country})
    return _edit_page(request, tournament, live, entrant, form)


def _edit_page(request, tournament, live, entrant, form, *, errors=(), status=200):
    view = selectors.live_view(live, language=lang())
    return render(request, "live/edit_player.html", {
        "tournament": tournament, "live": live, "entrant": entrant, "form": form, "errors": errors,
        "current_number": current_number(view),
        "show_new_club": form.asks_new_club,
        **_choices(live)}, status=status)


@one_effect(stale_to="referee:live_players")
def _edit_post(request, tournament, live, *, entrant_id: int):
    entrant = _entrant_of(live, entrant_id)
    form = EditEntrantForm(request.POST)
    if not form.is_valid():
        return _edit_page(request, tournament, live, entrant, form, status=400)
    data = form.cleaned_data
    try:
        entrant = entrant_edit(live, entrant, last_name=data["last_name"], first_name=data["first_name"],
                               club=data["club"], country=data["country"], new_club=data["new_club"],
                               user=request.user)
    except LiveRefused as exc:
        return _edit_page(request, tournament, live, entrant, form, errors=form.refused(exc), status=400)
    messages.success(request, _("%(name)s is corrected.") % {"name": selectors.entrant_name(entrant)})
    return redirect(_back(tournament, pool=entrant.pool))


@players_change
def live_link_reissue(request, tournament: Tournament, live: LiveTournament, entrant_id: int):
    """A new private link for the entrant (a slip lost, a link shared): the old one stops at once. The page asks
    the referee to confirm it first (the player must then be given the new one)."""
    entrant = _entrant_of(live, entrant_id)
    if not ReissueLinkForm(request.POST).is_valid():
        return _players_page(request, tournament, live, status=400, errors=[
            _("Tick “The old link stops working” to give %(name)s a new link.") % {
                "name": selectors.entrant_name(entrant)}])
    entrant = link_reissue(live, entrant, user=request.user)
    messages.success(request, _("%(name)s has a new private link: the old one no longer works. Give them the new "
                                "one.") % {"name": selectors.entrant_name(entrant)})
    return redirect(_back(tournament, pool=entrant.pool))
