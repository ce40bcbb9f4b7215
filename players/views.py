"""Public pages about players: the home page, the search and the player page."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from adlg_site.inputs import whole_number
from adlg_site.limits import rate_limited
from players.selectors import player_by_exact_id, player_lookup, player_search, public_notices
from ratings.armies import player_army_record
from ratings.charts import ADJUSTMENT, OPENING, TOURNAMENT, ChartLabels, ChartPoint, rating_chart_svg
from ratings.models import RatingEvent
from ratings.official_list_reads import player_official
from ratings.player_history import PlayerProfile, SystemSection, player_profile
from ratings.selectors import (
    country_name,
    predictions_against,
    rank_by_code,
    rank_name,
    rating_systems,
    ruleset_ranks,
    top_ratings,
)
from rules.shares import MIN_GAMES
from tournaments.live.selectors import live_running_now
from tournaments.selectors import latest_rated_tournaments, upcoming_tournaments

SEARCH_PAGE_SIZE = 50


def home(request):
    systems = rating_systems()
    language = get_language()
    tops = top_ratings(systems=systems)
    boards = []
    for system in systems:
        names = {r.code: rank_name(r, language) for r in ruleset_ranks(system.get_ruleset())}
        rows = tops.get(system.code, [])
        for row in rows:
            row.rank_name = names.get(row.rank_code, row.rank_code)
        boards.append({"system": system, "rows": rows})
    return render(request, "public/home.html", {
        "boards": boards,
        "latest": latest_rated_tournaments(),
        "upcoming": upcoming_tournaments(),
        "live_now": live_running_now(),
    })


@rate_limited("search")
def search(request):
    query = (request.GET.get("q") or "").strip()[:80]
    if not query:
        return render(request, "public/search.html", {"query": "", "page": None})
    exact = player_by_exact_id(query=query)
    if exact is not None:
        return redirect("player_detail", player_id=exact.id)
    page = Paginator(player_search(query=query), SEARCH_PAGE_SIZE).get_page(request.GET.get("page"))
    language = get_language()
    for player in page.object_list:
        player.country_name = country_name(player.country, language)
    return render(request, "public/search.html",
                  {"query": query, "page": page, "query_string": urlencode({"q": query})})


def player_detail(request, player_id: int):
    found = player_lookup(player_id=player_id)
    if found.redirect_to is not None:
        return redirect("player_detail", player_id=found.redirect_to, permanent=True)
    if found.player is None:
        raise Http404(_("No player with this ID."))
    profile = player_profile(player=found.player)
    language = get_language()
    official = player_official(found.player.id, [section.system.code for section in profile.sections])
    for section in profile.sections:
        _official_figures(section, *official.get(section.system.code, (None, None)))
        section.rank_name = rank_name(section.rank, language)
        section.next_rank_name = rank_name(section.next_rank.rank, language) if section.next_rank else ""
        section.chart = mark_safe(_chart(section, found.player.id))  # noqa: S308 - built from escaped parts
        section.chart_summary = _chart_summary(section)
    opponents = profile.opponents()
    h2h, h2h_error = _head_to_head(request, profile)
    predictions, prediction_error, against = _predictions(request, found.player)
    armies = []
    for section in profile.sections:
        played, met = player_army_record(player_id=found.player.id, events=section.events)
        if played or met:
            armies.append({"system": section.system, "played": played, "met": met})
    return render(request, "public/player_detail.html", {
        "player": found.player,
        "country_name": country_name(found.player.country, language),
        "profile": profile,
        "opponents": opponents,
        "h2h": h2h,
        "h2h_error": h2h_error,
        "h2h_selected": h2h.opponent.id if h2h else None,
        "predictions": predictions,
        "prediction_error": prediction_error,
        "against": against,
        "armies": armies,
        "min_games": MIN_GAMES,
    })


def _official_figures(section: SystemSection, official, row) -> None:
    """The newest official list beside the live figures: whether they differ, and the list's own."""
    section.official = official
    section.official_row = row
    live = section.rating
    section.official_differs = official is not None and (
        row is None or live is None or (row.rating, row.games, row.rank_code) != (live.rating, live.games,
                                                                                  live.rank_code))
    if row is not None:
        row.rank_name = rank_name(rank_by_code(section.ruleset, row.rank_code)) or row.rank_code


def notices(request):
    """The red cards' public notices: a date and a tournament, never a name (RULES.md §8)."""
    return render(request, "public/notices.html", {"notices": public_notices()})


def _head_to_head(request, profile: PlayerProfile):
    raw = request.GET.get("opponent")
    if not raw:
        return None, ""
    opponent = whole_number(raw, minimum=1)
    if opponent is None:
        return None, _("Choose an opponent from the list.")
    h2h = profile.head_to_head(opponent)
    if h2h is None:
        return None, _("These two players have not met in a rated game.")
    return h2h, ""


def _predictions(request, player) -> tuple[list, str, str]:
    """"If you play …": what a game against the opponent whose ID is asked would do to the player's rating."""
    raw = request.GET.get("against", "").strip()
    if not raw:
        return [], "", ""
    opponent = whole_number(raw, minimum=1)
    if opponent is None or opponent == player.pk:
        return [], _("Give the ID of another player (a whole number)."), raw
    predictions = predictions_against(player_id=player.pk, opponent_id=opponent)
    if not predictions:
        return [], _("No rating list holds both players."), raw
    return predictions, "", raw


def _chart(section: SystemSection, player_id: int) -> str:
    """The history chart twice, for a screen and for a phone (the stylesheet shows one): see ratings.charts."""
    events = section.events
    if not events:
        return ""
    opening = section.opening
    first_marker, first_label = None, ""
    if opening is not None and opening.rating == events[0].rating_before:
        first_marker = OPENING
        first_label = _("Opening balance from the former site: %(rating)s after %(games)s rated games") % {
            "rating": opening.rating, "games": opening.games}
    points = [ChartPoint(rating=events[0].rating_before, when=events[0].date, marker=first_marker,
                         label=first_label)]
    before_tournament: dict[int, int] = {}
    for event in events:
        if event.tournament_id is not None:
            before_tournament.setdefault(event.tournament_id, event.rating_before)
    for i, event in enumerate(events):
        marker, label = None, ""
        if event.kind == RatingEvent.ADJUSTMENT:
            marker = ADJUSTMENT
            label = _("Inactivity adjustment %(year)s: %(before)s → %(after)s (%(change)+d)") % {
                "year": event.year or event.date.year, "before": event.rating_before, "after": event.rating_after,
                "change": event.change}
        else:
            following = events[i + 1] if i + 1 < len(events) else None
            if event.tournament_id and (following is None or following.tournament_id != event.tournament_id):
                before = before_tournament[event.tournament_id]
                marker = TOURNAMENT
                label = _("%(name)s (%(date)s): %(before)s → %(after)s (%(change)+d)") % {
                    "name": event.tournament.name, "date": date_format(event.tournament.end_date),
                    "before": before, "after": event.rating_after, "change": event.rating_after - before}
        points.append(ChartPoint(rating=event.rating_after, when=event.date, marker=marker, label=label))
    labels = ChartLabels(
        title=_("Rating history in %(system)s") % {"system": section.system.name},
        description=_chart_summary(section),
        rating=_("rating"),
        year=_("year"),
    )
    chart_id = f"chart-{section.system.code}-{player_id}"
    return "\n".join(rating_chart_svg(points, labels=labels, chart_id=f"{chart_id}-{variant}", variant=variant)
                     for variant in ("wide", "narrow"))


def _chart_summary(section: SystemSection) -> str:
    """The chart in words (its text alternative, and its caption): where the rating started and ended, its
    highest and lowest, and what moved it."""
    events = section.events
    if not events:
        return ""
    ratings = [events[0].rating_before, *(e.rating_after for e in events)]
    games = sum(1 for e in events if e.kind != RatingEvent.ADJUSTMENT)
    adjustments = len(events) - games
    tournaments = len({e.tournament_id for e in events if e.tournament_id is not None})
    if section.opening is not None:
        start = _("Rating from %(rating)s, the opening balance,") % {"rating": ratings[0]}
    else:
        start = _("Rating from %(rating)s on %(date)s") % {"rating": ratings[0], "date": date_format(events[0].date)}
    parts = [
        _("%(start)s to %(last_rating)s on %(last)s; highest %(high)s, lowest %(low)s.") % {
            "start": start, "last_rating": ratings[-1], "last": date_format(events[-1].date), "high": max(ratings),
            "low": min(ratings)},
        ngettext("%(count)s rated game", "%(count)s rated games", games) % {"count": games}
        + " " + ngettext("in %(count)s tournament", "in %(count)s tournaments", tournaments) % {"count": tournaments}
        + (", " + ngettext("%(count)s inactivity adjustment", "%(count)s inactivity adjustments", adjustments)
           % {"count": adjustments} if adjustments else "") + ".",
    ]
    return " ".join(parts)
