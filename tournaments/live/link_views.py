"""The page at a player's private link (PAIRING.md §6, tournaments.live.links): no account, no sign-in. Whoever
holds the link sees the player's table in the current round, their opponent, their place in the standings and,
when the referee allows players' results, enters the result of their table (results.result_report, the service an
account's entry goes through too).

The link is a secret: the page is never cached by anyone but the phone (never_cache), never indexed, and its
requests carry no more than the site's origin as Referer (Referrer-Policy: strict-origin), so that the token stays
in the player's hands. Not no-referrer: under it browsers send "Origin: null" with a form, which Django's CSRF
check refuses (and on HTTPS it refuses a POST with no Referer), so neither the entry nor the language switch would
work; strict-origin never sends the path, and so never the token, anywhere.
A link that no longer works (revoked, another tournament's, a tournament cancelled, or finished more than
links.LINKING_DAYS ago) answers 404 with a page that says to ask the referee.

The link is also the player's proof of who they are: on it, a signed-in account links the entrant's federation
record to itself at once (players.claims.claim_by_private_link, a POST with `claim`), while the day runs and,
once it is published or handed over, on a page leading to the final standings for links.LINKING_DAYS. With
no record to offer, a finished link leads straight to the final standings, the player's line marked.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from adlg_site.limits import failure_count, failures_wait, limit_wait, too_many_requests
from adlg_site.words import refusal_sentence
from players.claims import ClaimError, claim_by_private_link
from players.models import Player
from tournaments.live import selectors
from tournaments.live.forms import LinkResultForm
from tournaments.live.hall_parts import day_places, entrant_place, entrant_table
from tournaments.live.links import (
    entrant_by_link,
    entrant_link_path,
    finished_entrant_by_link,
    published_entrant_by_link,
)
from tournaments.live.page_tools import asks_to_confirm, one_effect, words
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import result_report
from tournaments.models import LiveEntrant, LiveTable, LiveTournament, Standing, Tournament


def _private(response):
    response["Referrer-Policy"] = "strict-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def live_link(request, tournament_id: int, token: str):
    """A hall's players open their links from the venue's one address, many times a round: what is limited is
    what a script does, per address the links that lead nowhere ("live_link", failures only: a client trying
    tokens), and per link what it sends ("live_link_post": entries and claims), never the pages of links that
    work."""
    wait = failures_wait(request, "live_link")
    if wait:
        return too_many_requests(request, wait)
    entrant = entrant_by_link(tournament_id, token)
    finished = None if entrant is not None else finished_entrant_by_link(tournament_id, token)
    if entrant is None and finished is None:
        published = published_entrant_by_link(tournament_id, token)
        if published is not None:  # past the days an account may link: the standings, for good
            return _private(redirect(_standings_of(published), permanent=True))
        failure_count(request, "live_link")
        return _private(render(request, "live/link_gone.html", status=404))
    if request.method == "POST":
        wait = limit_wait(request, "live_link_post", key=f"link:{(entrant or finished).pk}")
        if wait:
            return too_many_requests(request, wait)
    if entrant is None:
        if request.method == "POST" and "claim" in request.POST:
            return _private(_link_claim(request, finished, path=f"/tournaments/{tournament_id}/live/me/{token}/"))
        return _private(_finished_page(request, finished))
    live = entrant.live
    if request.method == "POST":
        if "claim" in request.POST:
            return _private(_link_claim(request, entrant, path=entrant_link_path(entrant)))
        return _private(_link_report(request, live.tournament, live, entrant))
    return _private(_link_page(request, live, entrant))


def _claim_offer(request, entrant: LiveEntrant) -> dict:
    """What the page says about linking the entrant's record to the account in front of it."""
    player = entrant.player
    user = request.user
    if player is None:
        return {}
    if player.user_id is not None:
        if player.user_id != user.pk:  # another account's record (or nobody signed in): nothing to offer
            return {}
        if player.link_proof in Player.PROVED:
            return {"claim_done": True}
    return {"claim_offer": True, "signed_in": user.is_authenticated}


def _link_claim(request, entrant: LiveEntrant, *, path: str):
    """A signed-in account links the entrant's record to itself: the link proves who holds it."""
    try:
        player = claim_by_private_link(user=request.user, player=entrant.player, tournament=entrant.live.tournament)
    except ClaimError as exc:
        messages.error(request, refusal_sentence(exc))
        return redirect(path)
    messages.success(request, _("Your account is linked to record %(id)s (%(name)s).") % {
        "id": player.pk, "name": player.full_name})
    return redirect("account")


def _standings_of(entrant: LiveEntrant, *, ranked: bool | None = None) -> str:
    """The tournament's final standings, at the entrant's own line when they have one."""
    tournament_id = entrant.live.tournament_id
    if ranked is None:
        ranked = entrant.player_id is not None and Standing.objects.filter(
            tournament_id=tournament_id, player_id=entrant.player_id).exists()
    standings = reverse("tournament_detail", args=[tournament_id])
    return standings + f"?me={entrant.player_id}#me" if ranked else standings


def _finished_page(request, entrant: LiveEntrant):
    """A finished tournament day's link (PAIRING.md §7): the final standings with the player's line marked
    (tournament_detail's `me`); straight there when the page has no record to offer to link, else a page with
    the offer and the way there. Handed over to a spreadsheet, the standings wait for the referee's sheet."""
    live = entrant.live
    tournament = live.tournament
    offer = _claim_offer(request, entrant)
    ranked = entrant.player_id is not None and Standing.objects.filter(
        tournament=tournament, player_id=entrant.player_id).exists()
    standings = _standings_of(entrant, ranked=ranked)
    if ranked and not offer.get("claim_offer"):
        # Published, the link leads to the final standings for good (PAIRING.md §7, 2026-12-02): permanent.
        return redirect(standings, permanent=live.published_at is not None)
    return render(request, "live/link_finished.html", {
        "tournament": tournament, "name": selectors.entrant_name(entrant), "standings": standings,
        "ranked": ranked, "in_the_sheet": live.handed_over_at is not None and live.published_at is None, **offer})


@one_effect()
def _link_report(request, tournament: Tournament, live: LiveTournament, entrant: LiveEntrant):
    """The player's entry of their table's result: once per action key (a double tap, a second tab)."""
    form = LinkResultForm(request.POST, codes=tournament.system.get_ruleset().result_codes, auto_id="link-%s")
    if not form.is_valid():
        return _link_page(request, live, entrant, form=form, status=400,
                          errors=[_("Choose a result; losses are whole numbers from 0 to 100.")])
    table = LiveTable.objects.filter(pk=form.cleaned_data["table"], round__live=live).first()
    mine = entrant_table(live, entrant)
    if table is None or mine is None or mine[1].pk != table.pk:
        # The page showed another round's table: a new round was published since.
        return _link_page(request, live, entrant, status=400, errors=[
            _("This form was for another round's table: here is your table now. Nothing was saved.")])
    try:
        saved = result_report(live, table, entrant=entrant, result=form.result_for(table.table))
    except LiveRefused as exc:
        return _link_page(request, live, entrant, form=form, errors=words(exc), confirm=asks_to_confirm(exc),
                          status=400)
    if saved.result:
        messages.success(request, _("Both players agree: the result counts."))
    else:
        messages.success(request, _("Your result is saved; it counts once your opponent enters the same."))
    return redirect(entrant_link_path(entrant))


def _link_page(request, live: LiveTournament, entrant: LiveEntrant, *, form=None, errors=(), confirm=False,
               status=200):
    """The entrant's table, read alone; their place and the clock from the parts shared by the hall (hall_parts):
    a handful of queries, whatever the size of the day. `confirm`: the form asks the player to confirm what they
    typed (a win whose winner lost more)."""
    mine = entrant_table(live, entrant)
    standing = entrant_place(entrant, day_places(live))
    context = {"live": live, "tournament": live.tournament, "entrant": entrant,
               "name": selectors.entrant_name(entrant), "standing": standing, "errors": errors,
               "link": entrant_link_path(entrant), "confirm": confirm, **_claim_offer(request, entrant)}
    if mine is not None:
        round_, table = mine
        side = "a" if table.a.pk == entrant.pk else "b"
        own, theirs = (table.report_a, table.report_b) if side == "a" else (table.report_b, table.report_a)
        context.update(round=round_, table=table, side=side,
                       opponent=table.b_name if side == "a" else table.a_name, own=own, theirs=theirs)
        if not table.result and live.published_at is None:
            context.update(chances_percent=table.a_percent if side == "a" else table.b_percent,
                           chances_outlook=table.a_outlook if side == "a" else table.b_outlook)
        if live.players_enter_results and not table.result and table.b is not None and live.published_at is None:
            codes = live.tournament.system.get_ruleset().result_codes
            # After sending, the form shows what the player entered, not an empty form.
            context["form"] = form or LinkResultForm(initial={**(own or {}), "table": table.pk}, codes=codes,
                                                     auto_id="link-%s")
    return render(request, "live/link.html", context, status=status)
