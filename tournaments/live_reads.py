"""Reads of a live tournament for the read API and the `live_*` commands: what the public may see of it.

Terms
-----
public ID
    How a live player is named outside the site's pages: their federation ID; for a player new to the federation
    (no ID before publication) the tag `N<entrant row>`, the tag the official workbook gives them, so that the
    `new_players` of the publication's report ({"N12": 2345}) says which ID each one received. The spare is 99.
public round
    A published round (LiveRound.published_at set). A proposed round is the referee's draft: never shown.
standings
    RULES.md §6 standings of each pool after its complete rounds (every table of the round has a result), as the
    pairing of the next round reads them (tournaments.live.pool_standings).

`live_view` reads one tournament in a fixed number of queries, whatever its pools, rounds and tables.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import QuerySet

from rules.pairing.messages import notice_text
from rules.rulesets import SPARE_ID
from rules.standings import StandingRow
from tournaments.live import PoolState, key_of, pool_standings
from tournaments.models import LiveEntrant, LiveRound, LiveTable, LiveTournament

SPARE_NAME = "Spare"


def public_id(entrant: LiveEntrant | None) -> int | str:
    """The federation ID, the tag N<row> of a player new to the federation, or 99 for the spare (None)."""
    if entrant is None:
        return SPARE_ID
    return entrant.player_id if entrant.player_id is not None else f"N{entrant.pk}"


def entrant_name(entrant: LiveEntrant | None) -> str:
    return SPARE_NAME if entrant is None else str(entrant)


def live_find(tournament_id: int) -> LiveTournament | None:
    if not 0 < tournament_id < 2**63:  # the ID is a foreign key: the database would not take a larger number
        return None
    return LiveTournament.objects.select_related("tournament__system", "tournament__country").filter(
        pk=tournament_id).first()


def live_list(*, running: bool | None = None) -> QuerySet[LiveTournament]:
    """The tournaments run live, the latest first; `running`: not yet published (True) or published (False)."""
    rows = LiveTournament.objects.select_related("tournament__country", "tournament__system")
    if running is not None:
        rows = rows.filter(published_at__isnull=running)
    return rows.order_by("-tournament__start_date", "-tournament_id")


@dataclass
class RoundView:
    round: LiveRound
    tables: list[LiveTable]
    warnings: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(t.result for t in self.tables)


@dataclass
class PoolView:
    pool: str
    system: str | None
    entrants: list[LiveEntrant]
    rounds: list[RoundView]
    standings: list[StandingRow]
    by_key: dict[int, LiveEntrant]

    @property
    def complete_rounds(self) -> int:
        done = 0
        for view in self.rounds:
            if not view.complete:
                break
            done = view.round.number
        return done


@dataclass
class LiveView:
    live: LiveTournament
    pools: list[PoolView]

    def rounds(self, number: int) -> list[RoundView]:
        return [view for pool in self.pools for view in pool.rounds if view.round.number == number]


def live_view(live: LiveTournament) -> LiveView:
    """Every pool of the tournament with its players, published rounds, their tables and its standings: four
    queries (entrants, published rounds, their tables; the tournament comes with `live`)."""
    entrants = list(live.entrants.order_by("pool", "-rating", "pk"))
    rounds = list(live.rounds.filter(published_at__isnull=False).order_by("number", "pool"))
    tables = list(LiveTable.objects.filter(round__in=[r.pk for r in rounds]).order_by("table")) if rounds else []
    by_pk = {e.pk: e for e in entrants}
    for table in tables:  # the entrants already read: no select_related, no query per table
        table.a = by_pk[table.a_id]
        table.b = by_pk[table.b_id] if table.b_id is not None else None
    tables_of = defaultdict(list)
    for table in tables:
        tables_of[table.round_id].append(table)
    pools = sorted({e.pool for e in entrants} | {r.pool for r in rounds}) or ["A"]
    views = []
    for pool in pools:
        mine = [e for e in entrants if e.pool == pool]
        by_key = {key_of(e): e for e in mine}
        pool_rounds = [r for r in rounds if r.pool == pool]
        state = PoolState(live, pool, by_key, pool_rounds, [t for r in pool_rounds for t in tables_of[r.pk]])

        def name(key, by_key=by_key):
            entrant = by_key.get(key) if isinstance(key, int) else None
            return f"{entrant} ({public_id(entrant)})" if entrant else (SPARE_NAME if key == SPARE_ID else str(key))

        round_views = [
            RoundView(r, tables_of[r.pk], [notice_text(w.get("code", ""), w.get("params", {}), "en", name)
                                           for w in (r.warnings or []) if isinstance(w, dict)])
            for r in pool_rounds
        ]
        standing = pool_standings(state) if mine else []
        views.append(PoolView(pool, (live.systems or {}).get(pool), mine, round_views, standing, by_key))
    return LiveView(live, views)
