"""A player's own tournaments, for their account page ("my tournaments"): each entry with what the player needs
to know and do, from the entry to the result. Read in a fixed number of queries, whatever the number of entries.

Terms
-----
list state
    ``none`` (no list sent yet, the deadline ahead), ``missing`` (none sent and the deadline passed), ``pending``
    (waiting for the check), ``returned`` (with the checker's comment), ``compliant``. A list sent after the
    deadline also makes the entry *late*: LATE_LIST_PENALTY points off the tournament score, unless the referee
    lifted them (tournaments.before.entries.entry_penalty).
next step
    ``send`` (no list yet), ``send_again`` (the list was returned), or ``""`` (nothing to do): only for an entered
    player before the tournament's first day.
entrant
    The player's entrant of the tournament day (tournaments.live), when the tournament is run live on the site:
    the account page makes the private link from it while the day runs (tournaments.live.links).
result
    The player's standing once the results are rated: pool, rank of how many, score, and the rating change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count
from django.utils import timezone

from tournaments.before.army_lists import current_lists
from tournaments.before.entries import OPEN, STARTED, announcement_of, entries_phase, entry_penalty
from tournaments.models import ArmyList, Entry, LiveEntrant, Standing

# How many entries the account page lists (a player of twenty years enters a few hundred tournaments).
MY_ENTRIES_SHOWN = 100


@dataclass(frozen=True)
class MyResult:
    pool: str
    rank: int
    of: int  # how many players ranked in the pool
    score: float
    rating_change: int | None  # None when the tournament changed no rating of the player's


@dataclass(frozen=True)
class MyEntry:
    entry: Entry
    list_deadline: date | None
    phase: str  # tournaments.before.entries.entries_phase
    army_list: ArmyList | None  # the latest sent
    list_state: str  # see the module's terms
    penalty: int  # late-list penalty points, 0 when none or lifted
    next_step: str  # see the module's terms
    may_withdraw: bool
    entrant: LiveEntrant | None  # while the tournament day runs on the site
    result: MyResult | None

    @property
    def tournament(self):
        return self.entry.tournament


def _list_state(entry: Entry, army_list: ArmyList | None, deadline: date | None, today: date) -> str:
    if army_list is None:
        return "missing" if deadline is not None and today > deadline else "none"
    return army_list.status


def my_entries(*, player, today: date | None = None) -> list[MyEntry]:
    """The player's entries, the coming tournaments first (the next first), then the past ones (the latest
    first); five queries, whatever their number."""
    if player is None:
        return []
    today = today or timezone.localdate()
    entries = list(Entry.objects.filter(player=player)
                   .select_related("tournament__announcement", "tournament__live", "tournament__system")
                   .order_by("-tournament__start_date", "-tournament_id")[:MY_ENTRIES_SHOWN])
    ids = [entry.tournament_id for entry in entries]
    lists = current_lists(entries)
    entrants = {entrant.live_id: entrant for entrant in LiveEntrant.objects.filter(player=player, live_id__in=ids)}
    standings = {s.tournament_id: s for s in Standing.objects.filter(player=player, tournament_id__in=ids)}
    sizes = {(row["tournament_id"], row["pool"]): row["ranked"] for row in
             Standing.objects.filter(tournament_id__in=ids).values("tournament_id", "pool")
             .annotate(ranked=Count("pk")).order_by()}
    rows = []
    for entry in entries:
        tournament = entry.tournament
        announcement = announcement_of(tournament)
        deadline = announcement.list_deadline if announcement is not None else None
        phase = entries_phase(tournament, today=today)
        army_list = lists.get(entry.pk)
        state = _list_state(entry, army_list, deadline, today)
        entered = entry.status == Entry.ENTERED
        next_step = ""
        if entered and phase != STARTED:
            next_step = {"none": "send", "missing": "send", "returned": "send_again"}.get(state, "")
        live = getattr(tournament, "live", None)
        entrant = entrants.get(tournament.pk)
        running = live is not None and live.published_at is None and live.handed_over_at is None
        standing = standings.get(tournament.pk)
        result = None
        if standing is not None:
            change = (standing.rating_after - standing.rating_before
                      if standing.rating_before is not None and standing.rating_after is not None else None)
            result = MyResult(pool=standing.pool, rank=standing.rank, of=sizes.get((tournament.pk, standing.pool), 0),
                              score=standing.score, rating_change=change)
        rows.append(MyEntry(entry=entry, list_deadline=deadline, phase=phase, army_list=army_list, list_state=state,
                            penalty=entry_penalty(entry)[0], next_step=next_step,
                            may_withdraw=entered and phase == OPEN, entrant=entrant if running else None,
                            result=result))
    coming = [row for row in rows if row.tournament.end_date >= today]
    past = [row for row in rows if row.tournament.end_date < today]
    return coming[::-1] + past
