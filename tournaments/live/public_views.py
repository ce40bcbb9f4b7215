"""The public live page of a tournament day, in French or English: the current round's tables, the standings, every
earlier round; a search box to find one's table; a signed-in player's own table and, when the referee allows it,
their entry of its result.

The page polls its fragment (/live/now/), which carries an ETag made of LiveTournament.version, so the phones
that poll it every few seconds mostly get 304 Not Modified, read from the cache without touching the database
(hall_row). The fragment and the rounds below it are rendered once per change of the day and language for every
phone (hall_parts), and so is the whole page a visitor gets, its clock and banner put in for each (visitor_page);
what is a person's own (the header of a signed-in account, their table, their form) is rendered for each request
around them, never kept.

What costs nothing is not limited: a hall of phones behind one address must never be refused its page or its
polls. What costs is limited per client (adlg_site.limits, settings.RATE_LIMITS): the page with a search or read
by a signed-in account ("live_page": per address, and per account when signed in) and claims ("live_claim", per
account). A refused request answers 429 with Retry-After, and the page's script waits that long before asking
again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from adlg_site.limits import rate_limited
from players import permissions
from rules.names import name_key
from tournaments.live import selectors
from tournaments.live.forms import ResultForm
from tournaments.live.hall_parts import day_view, entrant_table, shared, shared_or_earlier, started
from tournaments.live.hall_row import live_row
from tournaments.live.page_tools import asks_to_confirm, lang, words
from tournaments.live.refusals import LiveRefused
from tournaments.live.results import result_report
from tournaments.live.visitor_page import Marks, kept_page_applies, serve
from tournaments.models import LiveEntrant, LiveTable, LiveTournament
from tournaments.templatetags.live_tags import live_clock


def _public_live(tournament_id: int) -> LiveTournament:
    live = live_row(tournament_id)
    if live is None:
        raise Http404(_("This tournament is not run live on the site."))
    return live


def _etag(live: LiveTournament, version: int | None = None) -> str:
    # The start time tells apart two tournaments that reused an ID (a test database, a deleted tournament).
    return f'"live-{live.pk}-{started(live)}-{live.version if version is None else version}-{lang()}"'


def _fragment(live: LiveTournament, *, earlier: bool = True) -> tuple[str, int]:
    """The polled part of the page, rendered once per version and language for every phone in the hall, and its
    version: the current one, or, when `earlier`, the one before while the current is being built
    (hall_parts.shared_or_earlier)."""
    return _shared_render(live, "live/_now.html", earlier=earlier)


def _history(live: LiveTournament, *, earlier: bool = True) -> str:
    """Every round with the standings after it: in the page, not in the polled fragment, which stays small."""
    return _shared_render(live, "live/_history.html", earlier=earlier)[0]


def _shared_render(live: LiveTournament, template: str, *, earlier: bool) -> tuple[str, int]:
    def build():
        view = day_view(live, language=lang())
        return render_to_string(template, {"view": view, "live": live, "tournament": live.tournament})

    if earlier:
        return shared_or_earlier(live, template, build, language=lang())
    return shared(live, template, build, language=lang()), live.version


@dataclass(frozen=True)
class FoundTable:
    """A table of the current round as the search lists it."""

    round: int
    table: int
    a_name: str
    b_name: str
    names: str  # both names folded (selectors.TableView.names), what a search is matched against


def _current_tables(live: LiveTournament) -> list[FoundTable]:
    """The current round's tables, worked out once per version and language for every search of the hall: building
    the tournament's view for each search cost a hundred times what matching the names does, and let one client
    searching at full speed take the server from the phones."""

    def build():
        view = day_view(live, language=lang())
        return [FoundTable(pool.current.number, t.table, t.a_name, t.b_name, t.names)
                for pool in view.pools if pool.current for t in pool.current.tables]

    return shared(live, "live-tables", build, language=lang())


def _table_of(live: LiveTournament, player) -> tuple[str, object, selectors.TableView] | None:
    """(pool, round, table) of the signed-in player in the current round, their table read alone as a private
    link's page reads it (hall_parts.entrant_table; what each player entered is read afresh: it changes no version):
    a hall of signed-in players opening the page at a round's publication each read one table, not the day."""
    entrant = LiveEntrant.objects.filter(live=live, player=player).first()
    if entrant is None:
        return None
    found = entrant_table(live, entrant)
    return None if found is None else (entrant.pool, *found)


def _clock_box(live: LiveTournament) -> str:
    """The round clock at this second."""
    return render_to_string("live/_clock.html", live_clock(live))


def _visitors_page(request, live: LiveTournament):
    """The page every visitor gets (visitor_page), rendered once per version and language: its own parts marked,
    the fragment and the rounds of exactly this version (a page kept for the whole version must not hold the
    version before); while it is being built or settles, the page of the version before, whose ETag its poll
    sends, marked as behind."""

    def build():
        fragment, version = _fragment(live, earlier=False)
        marks = Marks()
        return marks.keep(render_to_string("live/page.html", {
            "live": live, "tournament": live.tournament, "fragment": fragment, "history": _history(live, earlier=False),
            "etag": _etag(live, version), "clock_box": marks("clock_box"), "behind": marks("behind"),
            **marks.reading()}, request))

    # Five times the hall's delay: the page's script asks for the current fragment within seconds (_behind), and
    # the rounds below it, which no poll brings, are the bulk of its cost (a 128-player day's, 0.3 s to render).
    page, version = shared_or_earlier(live, f"live-page-{live.stamp}", build, language=lang(),
                                      settle=5 * settings.LIVE_HALL_SETTLE_SECONDS)
    return serve(request, page, {"clock_box": _clock_box(live), "behind": _behind(live, version)})


def _behind(live: LiveTournament, version: int) -> str:
    """Whether what is shown is of a version before the current one (being built, or built again in a moment): the
    page's script then asks again in a few seconds, not at its usual pace (static/js/live.js)."""
    return "true" if version < live.version else "false"


def _public_page(request, live, *, errors=(), claim_form=None, confirm=False, status=200):
    query = request.GET.get("q", "").strip()[:80]
    mine = None
    found = []
    player = permissions.player_of(request.user)
    if query:
        words = name_key(query).split()
        found = [t for t in _current_tables(live) if all(w in t.names for w in words)]
    if player is not None:
        mine = _table_of(live, player)
    claim = None
    own = theirs = opponent = None
    if mine is not None:  # what each of the two entered, as the private link's page shows it
        table = mine[2]
        mine_a = table.a.player_id == player.pk
        own, theirs = (table.report_a, table.report_b) if mine_a else (table.report_b, table.report_a)
        opponent = table.b_name if mine_a else table.a_name
    if (mine is not None and live.players_enter_results and not mine[2].result and live.published_at is None
            and mine[2].b is not None):  # a game against the spare is the referee's to enter (results.result_report)
        codes = live.tournament.system.get_ruleset().result_codes
        claim = claim_form or ResultForm(initial=own, codes=codes, auto_id="claim-%s")
    fragment, version = _fragment(live)
    response = render(request, "live/page.html", {
        "live": live, "tournament": live.tournament, "fragment": fragment, "query": query,
        "history": _history(live),
        "found": found, "mine": mine, "claim": claim, "errors": errors, "etag": _etag(live, version), "own": own,
        "theirs": theirs, "opponent": opponent, "confirm": confirm, "clock_box": _clock_box(live),
        "behind": _behind(live, version),
    }, status=status)
    return response


def _costly(request) -> bool:
    """A search (matched against the current tables) or a signed-in account's page (its own table read from the
    whole day): what the page's limit counts. A visitor's page is the cached parts around a header."""
    return bool(request.GET.get("q", "").strip()) or request.user.is_authenticated


@require_GET
@rate_limited("live_page", when=_costly)
@gzip_page  # Django's gzip adds its own BREACH defence, and the page's CSRF token is masked per response
def live_page(request, tournament_id: int):
    live = _public_live(tournament_id)
    if kept_page_applies(request):
        return _visitors_page(request, live)
    return _public_page(request, live)


@require_GET
@gzip_page  # a few kilobytes instead of tens on a phone's connection; the fragment holds no secret (BREACH)
def live_now(request, tournament_id: int):
    """The fragment the live page polls: 304 while LiveTournament.version has not changed, without a query (the
    row from the cache, no session or account read)."""
    live = _public_live(tournament_id)
    etag = _etag(live)
    sent = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in sent or "*" in sent:
        response = HttpResponseNotModified()
    else:
        fragment, version = _fragment(live)
        etag = _etag(live, version)
        response = HttpResponseNotModified() if etag in sent else HttpResponse(fragment)
        if version < live.version:
            response["Live-Behind"] = "true"  # see _behind
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@permissions.rule_required(permissions.is_signed_in)
@require_POST
@rate_limited("live_claim")
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
    entrant = LiveEntrant.objects.filter(live=live, player=player).first()
    if entrant is None:
        return _public_page(request, live, errors=words(LiveRefused.one("not_your_table")), status=400)
    if not form.is_valid():
        return _public_page(request, live, claim_form=form, status=400,
                            errors=[_("Choose a result; losses are whole numbers from 0 to 100.")])
    try:
        saved = result_report(live, table, entrant=entrant, result=form.result_for(table.table), user=request.user)
    except LiveRefused as exc:
        return _public_page(request, live, claim_form=form, errors=words(exc), confirm=asks_to_confirm(exc),
                            status=400)
    if saved.result:
        messages.success(request, _("Both players agree: the result counts."))
    else:
        messages.success(request, _("Your result is saved; it counts once your opponent enters the same."))
    return redirect("live_page", tournament_id=tournament_id)
