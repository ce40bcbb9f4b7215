"""The referee's printouts of the tournament day, under /referee/live/<tournament>/print/: a published
round's pairings by name (the wall) and by table, its result slips (one per table, with each player's private
link as a QR code), the standings after a complete round, and the final standings with the cross-table.

Each is one A4 portrait page (or several) in black and white, in the referee's language, laid out by
static/css/print.css; on screen a bar above it offers the print dialog and the way back, and is not printed.
A round not published (a proposal may still change), or standings not complete, answer 404 with the reason
and the way back to the day.
"""

from __future__ import annotations

import functools

from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from adlg_site.words import refusal_text
from rules.words import Refused, gettext_noop
from tournaments.live import printouts, selectors
from tournaments.live.links import entrant_link_path, links_issue
from tournaments.live.page_tools import lang, referee_only, running_live
from tournaments.live.qr import qr_svg
from tournaments.models import LiveTournament, Tournament


class NotPrintable(Refused):
    """What cannot be printed yet, or at all: said on a page of its own (404), with the way back."""

    sentences = {
        "no_such_round": gettext_noop("No such round in this tournament."),
        "round_not_published": gettext_noop("Round %(round)s is not published: only a published round is printed."),
        "standings_unknown": gettext_noop(
            "The standings after round %(round)s are not known yet: a result is missing."),
        "final_unknown": gettext_noop("The final standings are not known yet: the last round is not complete."),
    }


def printable(view):
    @functools.wraps(view)
    def wrapper(request, tournament: Tournament, live: LiveTournament, *args, **kwargs):
        try:
            return view(request, tournament, live, *args, **kwargs)
        except NotPrintable as exc:
            return render(request, "live/print/unavailable.html", {
                "tournament": tournament, "live": live, "reason": " ".join(refusal_text(exc)),
                "back": kwargs.get("number") if 0 < kwargs.get("number", 0) <= tournament.rounds else None},
                status=404)

    return wrapper


def printout(view):
    """A printout's view: the referee's, read only, of a day being run; a page of its own when nothing can be
    printed yet."""
    return referee_only(require_GET(running_live(printable(view))))


def _round_or_404(tournament: Tournament, live: LiveTournament, number: int):
    if not 0 < number <= tournament.rounds:
        raise NotPrintable.one("no_such_round")
    view = selectors.live_view(live, language=lang())
    rounds = printouts.printed_rounds(view, number)
    if not rounds:
        raise NotPrintable.one("round_not_published", round=number)
    return view, rounds


def _page(request, template: str, tournament: Tournament, live: LiveTournament, view, heading: str, context: dict):
    """A printout: its heading on the first page, and in the top margin of the others (the stylesheet's running
    title), so that the second sheet of a list taped on the wall still says what it is."""
    return render(request, template, {
        "tournament": tournament, "live": live, "view": view, "pools": len(view.pools) > 1, "heading": heading,
        "running_title": mark_safe(css_string(f"{tournament.name} · {heading}")),  # noqa: S308 (every sign escaped)
        "printed_at": timezone.localtime(), **context})


def css_string(text: str) -> str:
    """`text` as a CSS string, every character but letters, digits and spaces hex-escaped: no quote, backslash or
    `</style>` of a tournament's name can end the string or the style element."""
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text) + '"'


@printout
def live_print_by_name(request, tournament: Tournament, live: LiveTournament, number: int):
    view, rounds = _round_or_404(tournament, live, number)
    return _page(request, "live/print/by_name.html", tournament, live, view,
                 _("Round %(round)s: pairings by name") % {"round": number}, {
        "number": number, "seats": printouts.round_seats(rounds)})


@printout
def live_print_by_table(request, tournament: Tournament, live: LiveTournament, number: int):
    view, rounds = _round_or_404(tournament, live, number)
    return _page(request, "live/print/by_table.html", tournament, live, view,
                 _("Round %(round)s: pairings by table") % {"round": number}, {
        "number": number, "tables": printouts.round_tables(rounds)})


@printout
def live_print_slips(request, tournament: Tournament, live: LiveTournament, number: int):
    view, rounds = _round_or_404(tournament, live, number)
    if any(not e.link_salt for pool in view.pools for e in pool.entrants):
        # Entrants older than the private links: given theirs at once, so that no slip makes one per row.
        links_issue(live)
        view, rounds = _round_or_404(tournament, live, number)
    slips = [{"printed": printed, "a": _side(request, printed.table.a, printed.table.a_name),
              "b": _side(request, printed.table.b, printed.table.b_name) if printed.table.b is not None else None}
             for printed in printouts.round_tables(rounds)]
    ruleset = tournament.system.get_ruleset()
    return _page(request, "live/print/slips.html", tournament, live, view,
                 _("Round %(round)s: result slips") % {"round": number}, {
        "number": number, "slips": slips, "codes": ruleset.result_codes, "losses": ruleset.scoring == "losses"})


def _side(request, entrant, name: str) -> dict:
    """A player's private link on their slip, as text and as a QR code (the spare has none)."""
    link = request.build_absolute_uri(entrant_link_path(entrant))
    # segno writes the SVG and escapes its title (the player's name) itself.
    return {"link": link, "qr": mark_safe(qr_svg(link, title=_("%(name)s's private link") % {"name": name}))}


@printout
def live_print_standings(request, tournament: Tournament, live: LiveTournament, number: int):
    view, _rounds = _round_or_404(tournament, live, number)
    pools = printouts.standings_after(view, number)
    if pools is None:
        raise NotPrintable.one("standings_unknown", round=number)
    return _page(request, "live/print/standings.html", tournament, live, view,
                 _("Standings after round %(round)s") % {"round": number}, {"number": number, "printed": pools})


@printout
def live_print_final(request, tournament: Tournament, live: LiveTournament):
    view = selectors.live_view(live, language=lang())
    pools = printouts.standings_after(view, tournament.rounds)
    if pools is None:
        raise NotPrintable.one("final_unknown")
    return _page(request, "live/print/final.html", tournament, live, view, _("Final standings"), {
        "number": tournament.rounds, "printed": pools, "rounds": range(1, tournament.rounds + 1),
        "margins": any(code.endswith("+") for code in tournament.system.get_ruleset().result_codes)})
