"""What the tournament day's pages share: who may open the referee's pages, the reader's language for the rules'
messages, the live run a referee's page works on, one action one effect, how a score is written.

One action, one effect
----------------------
Every form of the referee's day carries two hidden fields (`{% live_action_fields live %}`, tournaments.templatetags
.live_tags): an *action key*, new each time the page is shown, and the tournament's *version* the page showed
(LiveTournament.version, bumped by every change). `one_effect` does the action once per key, whatever the clicks:
the same form sent again (a double click, a page sent again after a lost connection) finds its key done and sends
the referee where the first one did. For an action that acts on what the page showed (publish this round, draw
again, withdraw this round), a page older than the tournament (another tab, another referee) is refused with a
true message, and nothing changes. (A POST without the fields, which no page of the site sends, is not checked.)
"""

from __future__ import annotations

import functools
import re

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from adlg_site.words import language as words_language
from players import permissions
from tournaments.live import selectors
from tournaments.live.refusals import LiveRefused
from tournaments.models import LiveAction, LiveTournament, Tournament

referee_only = permissions.rule_required(permissions.can_send_sheet, tournament_kwarg="tournament_id")


def lang() -> str:
    """The reader's language, one of the site's: adlg_site.words.language, the one place that decides it."""
    return words_language()


def words(exc: LiveRefused, view: selectors.LiveView | None = None) -> list[str]:
    """A refusal in the reader's language, players named as the view names them."""
    return exc.messages(lang(), view.name if view is not None else None)


def asks_to_confirm(exc: LiveRefused) -> bool:
    """Whether a refusal is the question a win whose winner lost more asks (results.lost_more_question): the page
    then shows the same box to tick, to the referee and to a player alike (live/_lost_more_confirm.html)."""
    return any(code == "winner_lost_more" for code, _params in exc.notices)


def current_number(view: selectors.LiveView) -> int | None:
    """The last published round (any pool): the results page the referee's tabs lead to."""
    numbers = [r.number for pool in view.pools for r in pool.published_rounds]
    return max(numbers) if numbers else None


def running_live(view):
    """Passes the tournament's live run to the view as `live`; a tournament not run live yet goes to its start, one
    handed over to the spreadsheet to the page that says so (unless the view is `open_after_hand_over`)."""
    @functools.wraps(view)
    def wrapper(request, tournament: Tournament, *args, **kwargs):
        live = selectors.live_find(tournament.pk)
        if live is None:
            return redirect("referee:live_start", tournament_id=tournament.pk)
        if live.handed_over_at is not None and not getattr(view, "open_after_hand_over", False):
            return redirect("referee:live_handed_over", tournament_id=tournament.pk)
        return view(request, tournament, live, *args, **kwargs)

    return wrapper


def open_after_hand_over(view):
    """Marks a view of the day that still answers once the day is handed over to the spreadsheet."""
    view.open_after_hand_over = True
    return view


ACTION_FIELD = "action_key"
SEEN_FIELD = "seen"
_KEY = re.compile(r"[0-9a-f]{32}")


def one_effect(*, seen_matters: bool = False, stale_to: str = "referee:live_run"):
    """A referee's POST of the tournament day done once per action key (see the module's docstring); with
    `seen_matters`, refused when the page showed an older version of the tournament than the one now. The view
    runs under the tournament's lock, in one transaction with the record of its key."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, tournament: Tournament, live: LiveTournament, *args, **kwargs):
            key = request.POST.get(ACTION_FIELD, "")
            key = key if _KEY.fullmatch(key) else ""
            try:
                with transaction.atomic():
                    live = LiveTournament.objects.select_for_update().get(pk=live.pk)
                    done = LiveAction.objects.filter(live=live, key=key).first() if key else None
                    if done is not None:
                        return _already_done(request, done.next_url)
                    seen = request.POST.get(SEEN_FIELD)
                    if seen_matters and seen is not None and seen != str(live.version):
                        messages.error(request, _(
                            "This page was out of date: the tournament changed since it was shown (in another tab, "
                            "or by another referee). Nothing was done; here it is as it is now."))
                        return redirect(stale_to, tournament_id=tournament.pk)
                    response = view(request, tournament, live, *args, **kwargs)
                    # A run the view cancelled keeps no record: sent again, the form finds no live run to act on.
                    if key and response.status_code in (301, 302, 303) and \
                            LiveTournament.objects.filter(pk=live.pk).exists():
                        LiveAction.objects.create(live=live, key=key, next_url=response["Location"][:300])
                    return response
            except IntegrityError:
                # The same key committed by a request that ran at the same time (SQLite takes no row lock).
                done = LiveAction.objects.filter(live=live, key=key).first()
                if done is None:
                    raise
                for _shown in messages.get_messages(request):  # this attempt's own messages went with its rollback
                    pass
                return _already_done(request, done.next_url)

        return wrapper

    return decorator


def _already_done(request, next_url: str):
    messages.info(request, _("Already done: this form was sent twice (a double click, or the page sent again). "
                             "Nothing more was changed."))
    return redirect(next_url)


def number_text(value) -> str:
    """A game score as the result cards write it: 75, 12.5, or a dash before the result is in."""
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
