"""What the tournament day's pages share: who may open the referee's pages, the reader's language for the rules'
messages, the live run a referee's page works on, how a score is written."""

from __future__ import annotations

import functools

from django.shortcuts import redirect
from django.utils.translation import get_language

from players import permissions
from tournaments.live import selectors
from tournaments.live.refusals import LiveRefused
from tournaments.models import Tournament

referee_only = permissions.rule_required(permissions.can_send_sheet, tournament_kwarg="tournament_id")


def lang() -> str:
    return "fr" if (get_language() or "en").lower().startswith("fr") else "en"


def words(exc: LiveRefused, view: selectors.LiveView | None = None) -> list[str]:
    """A refusal in the reader's language, players named as the view names them."""
    return exc.messages(lang(), view.name if view is not None else None)


def current_number(view: selectors.LiveView) -> int | None:
    """The last published round (any pool): the results page the referee's tabs lead to."""
    numbers = [r.number for pool in view.pools for r in pool.published_rounds]
    return max(numbers) if numbers else None


def running_live(view):
    """Passes the tournament's live run to the view as `live`; a tournament not run live yet goes to its start."""
    @functools.wraps(view)
    def wrapper(request, tournament: Tournament, *args, **kwargs):
        live = selectors.live_find(tournament.pk)
        if live is None:
            return redirect("referee:live_start", tournament_id=tournament.pk)
        return view(request, tournament, live, *args, **kwargs)

    return wrapper


def number_text(value) -> str:
    """A game score as the result cards write it: 75, 12.5, or a dash before the result is in."""
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
