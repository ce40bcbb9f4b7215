"""The hall's big screen and the round clock every live page shows (public, as the live page).

- /tournaments/<id>/live/screen/: for a projector (1920x1080 or 1280x720, no link or button, never a scroll): the
  clock on top, then the current round's players by name and the standings, which static/js/screen.js cuts into
  pages that fit the window and shows in turn; its part below the clock is polled from /live/screen/now/ with an
  ETag of the tournament's version (304 until something changes), so a round published or a result entered
  appears without a reload.
- /tournaments/<id>/live/clock/: the clock's face at the server's time, which static/js/clock.js asks again now
  and then and whenever the page is shown again (a phone woken up): never cached by the browser, since the time
  left changes; what the clock is (its round, game time, start and pauses) is read once per change of the day
  (hall_parts.clock_shared), the time left worked out for each request.

The live run's row comes from the cache (hall_row) and the screen's part is rendered once per change and language
(hall_parts): a poll answered 304 reads no database.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from tournaments.live.hall_parts import clock_shared, day_view, shared, started
from tournaments.live.hall_row import live_row
from tournaments.live.page_tools import lang
from tournaments.live.screen import screen_of
from tournaments.models import LiveTournament


def _public_live(tournament_id: int) -> LiveTournament:
    live = live_row(tournament_id)
    if live is None:
        raise Http404(_("This tournament is not run live on the site."))
    return live


def _tag(live: LiveTournament) -> str:
    # The start time tells apart two runs that reused an ID.
    return f'"screen-{live.pk}-{started(live)}-{live.version}-{lang()}"'


def _screen_part(live: LiveTournament) -> str:
    """The players and standings, rendered once per version and language for every screen in the hall."""

    def build():
        view = day_view(live, language=lang())
        return render_to_string("live/_screen.html", {"screen": screen_of(view), "live": live,
                                                       "tournament": live.tournament})

    return shared(live, "live/_screen.html", build, language=lang())


@require_GET
@gzip_page
def live_screen(request, tournament_id: int):
    live = _public_live(tournament_id)
    return render(request, "live/screen.html", {"live": live, "tournament": live.tournament,
                                                "clock": clock_shared(live), "part": _screen_part(live),
                                                "etag": _tag(live)})


@require_GET
@gzip_page
def live_screen_now(request, tournament_id: int):
    """The screen's part below the clock: 304 while LiveTournament.version has not changed."""
    live = _public_live(tournament_id)
    etag = _tag(live)
    sent = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    response = HttpResponseNotModified() if etag in sent or "*" in sent else HttpResponse(_screen_part(live))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@require_GET
def live_clock_face(request, tournament_id: int):
    """The current round's clock at the server's time (templates/live/_clock_face.html)."""
    live = _public_live(tournament_id)
    response = render(request, "live/_clock_face.html", {"clock": clock_shared(live), "live": live})
    response["Cache-Control"] = "no-store"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
