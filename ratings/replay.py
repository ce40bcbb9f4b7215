"""The replay: the stored facts of one rating system in, every derived row out (RULES.md §3). Nothing else writes
derived rows.

`ratings_replay(system=…, since=…)` runs inside the caller's transaction (which holds the system's replay lock:
ratings.services):

1. read the facts with the ORM: the tournaments ending on or after `since` (every one from scratch) with their
   games and entrants, the opening balances, the closed years and the excluded players;
2. read each player's state at `since` (ratings.selectors.ratings_at): each stored event records the state
   before it, so nothing older than `since` is replayed;
3. run the rules on plain values: the history (rules.history), each tournament's standings, charter verdict and
   championship points (rules.results), and the yearly championship tables (rules.championship);
4. replace the derived rows from `since` on: rating events, the rating list and its per-rating counts,
   standings, tournament outcomes, championship results and totals.

A correction or a late tournament replays from its date; a tournament at the head of history replays only
itself. Every row a replay writes equals what a replay from scratch would write (tested).
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from django.db import connection
from django.db.models import Count

from championship.models import ChampionshipResult, ChampionshipTotal
from players.models import OpeningBalance, Player
from ratings.models import ClosedYear, PlayerRating, RatingCount, RatingEvent, RatingSystem
from ratings.selectors import current_ratings, ratings_at
from rules import championship
from rules.facts import Entrant, Game, Opening, PlayerState, Tournament
from rules.history import Event, History, replay
from rules.ranks import rank_for
from rules.results import TournamentResults, tournament_results
from rules.rulesets import Ruleset
from tournaments.models import Game as GameRow
from tournaments.models import Registration, Standing, TournamentOutcome
from tournaments.models import Tournament as TournamentRow

logger = logging.getLogger(__name__)
BATCH = 2000  # rows per statement where the ORM writes or deletes by a list of keys


@dataclass(frozen=True)
class ReplaySummary:
    system: str
    since: date | None
    games: int  # rated games replayed
    events: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class Facts:
    tournaments: list[Tournament]
    openings: list[Opening]
    closed_years: list[int]
    excluded: frozenset[int]


def ratings_replay(*, system: RatingSystem, since: date | None = None) -> ReplaySummary:
    """Recompute `system` from `since` (None: from scratch). Run inside a transaction holding the lock."""
    started = time.perf_counter()
    ruleset = system.get_ruleset()
    last_seq = _last_seq_before(system, since) if since is not None else None
    if last_seq is None:
        since = None  # nothing stored before it: the replay from scratch is the same, and simpler
    facts = facts_read(system, since)
    current = current_ratings(system)
    start = ratings_at(system, since, current=current) if since is not None else {}
    history = replay(ruleset, tournaments=facts.tournaments, openings=facts.openings,
                     closed_years=facts.closed_years, excluded=facts.excluded, start_state=start, since=since)
    events_of: dict[int, list[Event]] = defaultdict(list)
    for event in history.events:
        if event.tournament is not None:
            events_of[event.tournament].append(event)
    results = [tournament_results(ruleset, t, events=events_of[t.id], pre_tournament=history.pre_tournament[t.id],
                                  excluded=facts.excluded) for t in facts.tournaments]

    events = _events_write(system, since, history.events, first_seq=(last_seq or 0) + 1)
    _list_write(system, ruleset, history, facts, current)
    _results_write(system, since, results)
    if ruleset.championship:
        _championship_write(system, since, results)

    games = sum(r.rated_games for r in results)
    summary = ReplaySummary(system.code, since, games, events, time.perf_counter() - started)
    logger.info("replayed %s since %s: %d games, %d events in %.2fs", system.code, since, games, events,
                summary.seconds)
    return summary


# --- the facts --------------------------------------------------------------------------------------------------


def facts_read(system: RatingSystem, since: date | None) -> Facts:
    """Every fact the replay of `system` from `since` needs, in a handful of queries (none per tournament)."""
    received = TournamentRow.objects.filter(system=system).exclude(status=TournamentRow.REGISTERED)
    if since is not None:
        received = received.filter(end_date__gte=since)
    games: dict[int, list[Game]] = defaultdict(list)
    for tid, *row in GameRow.objects.filter(tournament__in=received).order_by().values_list(
            "tournament_id", "id", "round", "table", "player_a_id", "player_b_id", "result", "a_losses", "b_losses",
            "free").iterator(chunk_size=20_000):
        games[tid].append(Game(*row))
    entrants: dict[int, list[Entrant]] = defaultdict(list)
    for tid, *row in Registration.objects.filter(tournament__in=received).order_by("tournament_id", "id").values_list(
            "tournament_id", "player_id", "pool", "penalty", "club__name").iterator(chunk_size=20_000):
        entrants[tid].append(Entrant(*row))
    tournaments = [
        Tournament(id=tid, start=start, end=end, official=official, games=games[tid], entrants=entrants[tid],
                   rounds=rounds, worlds=worlds, country=country, counts_override=override)
        for tid, start, end, official, rounds, worlds, country, override in received.order_by().values_list(
            "id", "start_date", "end_date", "official", "rounds", "worlds", "country_id", "counts_override")]
    openings = [Opening(*row) for row in OpeningBalance.objects.filter(system=system).values_list(
        "player_id", "rating", "games", "as_of")]
    closed = list(ClosedYear.objects.filter(system=system).values_list("year", flat=True))
    excluded = frozenset(Player.objects.filter(excluded_at__isnull=False).order_by().values_list("id", flat=True))
    return Facts(tournaments, openings, closed, excluded)


# --- the writes -------------------------------------------------------------------------------------------------


def _insert(model, fields: Sequence[str], rows: Iterable[tuple]) -> int:
    """Insert `rows` (tuples in `fields` order, as the columns take them). PostgreSQL takes them through COPY:
    a full replay writes hundreds of thousands of events, several times faster that way than by INSERT."""
    count = 0
    if connection.vendor == "postgresql":
        columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in fields)
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                count += 1
        return count
    batch = []
    for row in rows:
        batch.append(model(**dict(zip(fields, row, strict=True))))
        if len(batch) == BATCH:
            count += len(model.objects.bulk_create(batch))
            batch = []
    return count + len(model.objects.bulk_create(batch))


_EVENT_FIELDS = ("system_id", "player_id", "seq", "kind", "date", "tournament_id", "game_id", "opponent_id", "year",
                 "rating_before", "rating_after", "change", "games_before", "opponent_rating", "k", "expected",
                 "score", "last_played_before")


def _last_seq_before(system: RatingSystem, since: date) -> int | None:
    """The sequence number of the last event before `since` (None: there is none), found from the end of the
    (date, seq) index. An exists() or an aggregate over the events before it may read the table from its start
    instead, through every event a full replay left dead there."""
    return (RatingEvent.objects.filter(system=system, date__lt=since).order_by("-date", "-seq")
            .values_list("seq", flat=True).first())


def _events_write(system: RatingSystem, since: date | None, events: list[Event], *, first_seq: int) -> int:
    """The history from `since` on, numbered from `first_seq` (after the events kept before it)."""
    stored = RatingEvent.objects.filter(system=system)
    if since is not None:
        stored = stored.filter(date__gte=since)
    stored.delete()
    return _insert(RatingEvent, _EVENT_FIELDS, (
        (system.code, e.player, seq, RatingEvent.GAME if e.game is not None else RatingEvent.ADJUSTMENT, e.date,
         e.tournament, e.game, e.opponent, e.year, e.rating_before, e.rating_after, e.change, e.games_before,
         e.opponent_rating, e.k, e.expected, e.score, e.last_played_before)
        for seq, e in enumerate(events, start=first_seq)))


def _list_write(system: RatingSystem, ruleset: Ruleset, history: History, facts: Facts,
                stored: dict[int, PlayerState]) -> None:
    """The rating list: every player with a rated game or an opening balance, at their final state. Only the rows
    that change from the `stored` list are written; the per-rating counts are counted again."""
    opened = {o.player for o in facts.openings}
    listed = {player: state for player, state in history.final.items() if state.games > 0 or player in opened}
    stale = [player for player, state in stored.items() if listed.get(player) != state]
    for start in range(0, len(stale), BATCH):
        PlayerRating.objects.filter(system=system, player_id__in=stale[start:start + BATCH]).delete()
    _insert(PlayerRating, ("system_id", "player_id", "rating", "games", "rank_code", "last_played"), (
        (system.code, player, s.rating, s.games, rank_for(ruleset, s.rating, s.games).code, s.last_played)
        for player, s in sorted(listed.items()) if stored.get(player) != s))
    counts = Counter(dict(PlayerRating.objects.filter(system=system).order_by().values("rating")
                          .annotate(n=Count("id")).values_list("rating", "n")))
    RatingCount.objects.filter(system=system).delete()
    _insert(RatingCount, ("system_id", "rating", "players"),
            ((system.code, rating, n) for rating, n in sorted(counts.items())))


_STANDING_FIELDS = ("tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins",
                    "draws", "losses", "games", "tiebreak", "rating_before", "rating_after", "performance")


def _results_write(system: RatingSystem, since: date | None, results: list[TournamentResults]) -> None:
    """Standings and outcomes of the tournaments from `since` on (those of a withdrawn tournament go too)."""
    of_system = {"tournament__system": system}
    if since is not None:
        of_system["tournament__end_date__gte"] = since
    Standing.objects.filter(**of_system).delete()
    TournamentOutcome.objects.filter(**of_system).delete()
    _insert(Standing, _STANDING_FIELDS, (
        (r.tournament, p.pool, p.row.rank, p.row.player, float(p.row.score), float(p.row.opponents_score),
         p.row.penalty, p.row.wins, p.row.draws, p.row.losses, p.row.games, p.row.decided_by or "",
         p.rating_before, p.rating_after, p.performance)
        for r in results for p in r.placings))
    _insert(TournamentOutcome, ("tournament_id", "average_rating", "ranked_players", "rated_games",
                                "charter_failures", "counts"), (
        (r.tournament, r.average_rating, r.ranked_players, r.rated_games,
         _json([{"code": f.code, "params": dict(f.params)} for f in r.charter_failures]), r.counts)
        for r in results))
    TournamentRow.objects.filter(pk__in=[r.tournament for r in results], status=TournamentRow.RECEIVED).update(
        status=TournamentRow.RATED)


def _json(value) -> str | list:
    # COPY takes JSON as text; the ORM takes the value itself.
    return json.dumps(value, separators=(",", ":")) if connection.vendor == "postgresql" else value


def _championship_write(system: RatingSystem, since: date | None, results: list[TournamentResults]) -> None:
    """The championship's results and totals of every year from `since`'s on: the replayed tournaments' results,
    the year's earlier results as stored, and the tables of those years worked out again."""
    first_year = since.year if since is not None else None
    kept = ChampionshipResult.objects.none()
    if first_year is not None:  # the year's results before `since`: their tournaments are not replayed
        kept = ChampionshipResult.objects.filter(tournament__system=system, year__gte=first_year,
                                                 tournament__end_date__lt=since)
    counting = [result for r in results for result in r.championship]
    counting += [championship.Result(tid, player, points, end, country, worlds) for tid, player, points, end, country,
                 worlds in kept.values_list("tournament_id", "player_id", "points", "tournament__end_date",
                                            "tournament__country_id", "tournament__worlds")]
    tables = championship.year_tables(counting)
    stale = ChampionshipResult.objects.filter(tournament__system=system)
    totals = ChampionshipTotal.objects.all()  # the championship is one system's (rulesets.Ruleset.championship)
    if first_year is not None:
        stale, totals = stale.filter(year__gte=first_year), totals.filter(year__gte=first_year)
    stale.delete()
    totals.delete()
    _insert(ChampionshipResult, ("tournament_id", "player_id", "year", "points", "counted"), (
        (r.tournament, r.player, r.year, r.points, (r.tournament, r.player) in tables.counted)
        for r in sorted(counting, key=lambda r: (r.year, r.tournament, r.player))))
    # Unordered: the players' own order (by name) sorted every player of the federation for a dict.
    country = dict(Player.objects.exclude(country=None).order_by().values_list("id", "country_id"))
    _insert(ChampionshipTotal, ("year", "player_id", "total", "results", "rank", "international",
                                "international_rank", "country_id"), (
        (t.year, t.player, t.total, t.results, t.rank, t.international_rank is not None, t.international_rank,
         country.get(t.player))
        for t in tables.totals))

