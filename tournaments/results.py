"""Standings, performance ratings and charter outcome of the tournaments a replay went through.

Reads nothing but the clubs' names: the replay hands over the facts it loaded and the engine's history;
`tournament_results_rows` calls the pure scoring rules and returns the derived rows of exactly those
tournaments (the replay computes them while its history is being written), and `tournament_results_write`
replaces them in the database.

Speed: this runs for every tournament of a full replay (a million games; bench/standings.py). Every
tournament is ranked at once on numpy columns (tournaments.standings_columns), and the rated outcomes (rating
after, performance) are group sums over the history's games. The cross-table (each player's rounds) is not
stored: the tournament page works it out from the games (tournaments.selectors), which halved what a full
replay writes. The tests hold the rows, byte for byte, to those of a plain reference
(tests/ratings/test_results_equivalence.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.db import connection

from championship.year_tables import Placings
from players.models import SPARE_ID, Club
from ratings.copy_binary import BinaryCopy, Column
from ratings.engine import History, collector_paused
from ratings.event_columns import RecordColumns, record_columns
from ratings.facts import Facts
from ratings.history_writer import binary_types, other_systems, replacing, rows_insert, rows_merge
from ratings.sorted_lookup import sorted_lookup
from rules.rulesets import Ruleset
from tournaments.models import Standing, Tournament, TournamentOutcome
from tournaments.scoring import charter_failures_from_rows, standings_from_rows
from tournaments.standings_columns import (
    DECIDED_BY,
    Entrants,
    Games,
    Ranked,
    entrant_keys,
    ranked_standings,
)

STANDING_COLUMNS = (
    "tournament_id", "pool", "rank", "player_id", "score", "opponents_score", "penalty", "wins", "draws", "losses",
    "games", "tiebreak", "rating_before", "rating_after", "performance",
)
OUTCOME_COLUMNS = ("tournament_id", "average_rating", "ranked_players", "rated_games", "charter_failures", "counts")
SCORING_SYSTEM = {"adlg-2018": "adlg", "adlg-annex-a": "adlg", "battle-empire": "battle-empire"}

def club_names() -> dict[int, str]:
    """What `tournament_results_rows` needs of the clubs (the charter's one-club rule)."""
    return dict(Club.objects.values_list("id", "name"))


def tournament_results_encoded(results: TournamentResults) -> BinaryCopy | None:
    """The standings of `results` as binary COPY data on PostgreSQL (None elsewhere): made by the replay's own
    thread while the other one writes, so that the writer only sends them."""
    return results.standings.binary() if connection.vendor == "postgresql" else None


def tournament_results_write(*, facts: Facts, results: TournamentResults, system, full: bool = False,
                             encoded: BinaryCopy | None = None) -> None:
    """Write the standings and outcomes (`results`, from tournament_results) of the tournaments of `facts`;
    `encoded`: the standings already as COPY data (tournament_results_encoded). `full`: facts hold every
    tournament of the system (a replay from scratch)."""
    tids = list(facts.info)
    TournamentOutcome.objects.filter(tournament_id__in=tids)._raw_delete(TournamentOutcome.objects.db)
    table = Standing._meta.db_table
    pg = connection.vendor == "postgresql"
    data = (encoded if encoded is not None else results.standings.binary()) if pg else results.standings.rows()
    if pg and (not full or Standing.objects.filter(tournament__system=system).exists()):
        # After a correction, or a replay from scratch of a stored history, most standings come out as they
        # were: only the differing ones are written (and readers are not held up). A first replay bulk-writes.
        of_system = f"e.tournament_id IN (SELECT id FROM {Tournament._meta.db_table} WHERE system_id = %s)"  # noqa: S608
        stale, params = (of_system, [system.code]) if full else ("e.tournament_id = ANY(%s)", [tids])
        rows_merge(table=table, columns=STANDING_COLUMNS, key=("tournament_id", "player_id"), stale=stale,
                   params=params, rows=data)
    else:
        stale = Standing.objects.filter(tournament__system=system) if full else Standing.objects.filter(
            tournament_id__in=tids)
        whole = full and not Standing.objects.filter(tournament__system_id__in=other_systems(system)).exists()
        with replacing(table=table, stale=stale, full=full, whole=whole) as keys:
            rows_insert(table=table, columns=STANDING_COLUMNS, rows=data, keys=keys)
    rows_insert(table=TournamentOutcome._meta.db_table, columns=OUTCOME_COLUMNS, rows=results.outcomes)
    Tournament.objects.filter(pk__in=tids, status=Tournament.RECEIVED).update(status=Tournament.RATED)


def counting_placings(facts: Facts, results: TournamentResults) -> tuple[dict[int, tuple], Placings]:
    """What the championship needs of `results` (tournament_results): the tournaments that count,
    {tournament: (end, rounds, worlds, country)}, and their ranked players. Pure: the championship need not
    read back the rows being written."""
    counting = {}
    for row in results.outcomes:
        if row[-1]:
            t = facts.info[row[0]]
            counting[t.id] = (t.end, t.rounds, t.worlds, t.country)
    s = results.standings
    chosen = np.flatnonzero(np.isin(s.tournament, np.fromiter(counting, dtype=np.int64, count=len(counting))))
    return counting, Placings(tournament=s.tournament[chosen], pool=s.pool[chosen], pool_names=s.pool_names,
                              rank=s.rank[chosen], player=s.player[chosen], score=s.score[chosen],
                              games=s.games[chosen])


@dataclass(frozen=True)
class StandingColumns:
    """The standing rows of a replay as columns, in row order: what a binary COPY sends as it is, without a
    Python tuple per row (470,000 at a million games). `pool` and `tiebreak` are codes into `pool_names` and
    DECIDED_BY; `rating_before_none` marks the players without a rating yet; NaN marks no rating after and no
    performance."""

    tournament: np.ndarray
    pool: np.ndarray
    pool_names: list[str]
    rank: np.ndarray
    player: np.ndarray
    score: np.ndarray
    opponents_score: np.ndarray
    penalty: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray
    games: np.ndarray
    tiebreak: np.ndarray
    rating_before: np.ndarray
    rating_before_none: np.ndarray
    rating_after: np.ndarray
    performance: np.ndarray

    def __len__(self) -> int:
        return len(self.player)

    def rows(self) -> list[tuple]:
        """The rows as tuples in STANDING_COLUMNS order (None for none)."""
        names = self.pool_names
        return list(zip(
            self.tournament.tolist(), [names[code] for code in self.pool.tolist()], self.rank.tolist(),
            self.player.tolist(), self.score.tolist(), self.opponents_score.tolist(), self.penalty.tolist(),
            self.wins.tolist(), self.draws.tolist(), self.losses.tolist(), self.games.tolist(),
            [DECIDED_BY[code] for code in self.tiebreak.tolist()],
            [None if none else value for value, none in zip(self.rating_before.tolist(),
                                                            self.rating_before_none.tolist(), strict=True)],
            [_int_or_none(value) for value in self.rating_after.tolist()],
            [_none_if_nan(value) for value in self.performance.tolist()], strict=True))

    def binary(self) -> BinaryCopy:
        """The rows as binary COPY data, each column in its type (read from the model): the bytes column_of
        makes of the rows' values (tested), without the tuples."""
        no_after, no_performance = np.isnan(self.rating_after), np.isnan(self.performance)
        values = (self.tournament, _texts(self.pool_names)[self.pool], self.rank, self.player, self.score,
                  self.opponents_score, self.penalty, self.wins, self.draws, self.losses, self.games,
                  _texts(DECIDED_BY)[self.tiebreak], self.rating_before,
                  np.where(no_after, 0, self.rating_after).astype(np.int64),
                  np.where(no_performance, 0.0, self.performance))
        nulls = (None,) * 12 + (_mask(self.rating_before_none), _mask(no_after), _mask(no_performance))
        return BinaryCopy([Column(pgtype, value, null) for pgtype, value, null in zip(
            binary_types(Standing, STANDING_COLUMNS), values, nulls, strict=True)], len(self))


def _texts(names: Sequence[str]) -> np.ndarray:
    return np.array([name.encode() for name in names] or [b""])


def _mask(nulls: np.ndarray) -> np.ndarray | None:
    return nulls if nulls.any() else None  # as column_of: no mask when nothing is missing


@dataclass(frozen=True)
class TournamentResults:
    standings: StandingColumns
    outcomes: list[tuple]  # OUTCOME_COLUMNS


def tournament_results_rows(
    *, facts: Facts, history: History, ruleset: Ruleset, club_names: dict[int, str]
) -> tuple[list[tuple], list[tuple]]:
    """(Standing rows in STANDING_COLUMNS order, TournamentOutcome rows in OUTCOME_COLUMNS order) of every
    tournament of `facts`. Pure: reads only its arguments (`facts.info`, `facts.excluded`, the history)."""
    results = tournament_results(facts=facts, history=history, ruleset=ruleset, club_names=club_names)
    return results.standings.rows(), results.outcomes


def tournament_results(*, facts: Facts, history: History, ruleset: Ruleset, club_names: dict[int, str],
                       records: RecordColumns | None = None) -> TournamentResults:
    """The same, the standings as columns: what the replay writes. `records`: the history's game records as
    columns with their results, when the caller has them already (the history's expansion)."""
    with collector_paused():  # hundreds of thousands of small acyclic tuples
        if records is None or records.result is None:
            records = records if records is not None else record_columns(history.games)
            records = records.with_results(facts.result_of(), tuple(sorted(ruleset.result_values)))
        return _results(facts, history, ruleset, club_names, records)


def _results(facts: Facts, history: History, ruleset: Ruleset, club_names: dict[int, str],
             records: RecordColumns) -> TournamentResults:
    scoring_system = SCORING_SYSTEM.get(ruleset.code, "adlg")
    infos = list(facts.info.values())
    entrants, names, before, clubs = _entrants(facts, history, ruleset)
    games = _games(facts)
    excluded = np.fromiter(facts.excluded, dtype=np.int64, count=len(facts.excluded))

    def refused(index: int) -> None:  # the rules say what is wrong with this tournament's games
        info = infos[index]
        pre = history.pre_tournament.get(info.id, {})
        standings_from_rows(system=scoring_system, excluded=facts.excluded, games=facts.games.rows(index),
                            entrants=[(player, pool, penalty, pre.get(player, (ruleset.initial_rating,))[0])
                                      for player, pool, penalty, _ in facts.registrations.rows(index)])

    ranked = ranked_standings(system=scoring_system, entrants=entrants, games=games, pools=len(names),
                              excluded=excluded, spare=SPARE_ID, refused=refused)
    after, performance, rated_games = _rated(infos, records, entrants, before, ruleset.scale)

    order = ranked.order
    tids = np.array([info.id for info in infos], dtype=np.int64)
    before_none = np.array([value is None for value in before], dtype=bool)
    before_values = np.array([0 if value is None else value for value in before], dtype=np.int64)
    standings = StandingColumns(
        tournament=tids[entrants.tournament[order]], pool=entrants.pool[order],
        pool_names=[name for _, name in names], rank=ranked.rank[order], player=entrants.player[order],
        score=ranked.score[order], opponents_score=ranked.opponents_score[order], penalty=ranked.penalty[order],
        wins=ranked.wins[order], draws=ranked.draws[order], losses=ranked.losses[order],
        games=(ranked.wins + ranked.draws + ranked.losses)[order], tiebreak=ranked.decided_by[order],
        rating_before=before_values[order], rating_before_none=before_none[order], rating_after=after[order],
        performance=performance[order])
    outcome_rows = _outcomes(infos, entrants, names, before, clubs, club_names, games, ranked, rated_games,
                             scoring_system)
    return TournamentResults(standings, outcome_rows)


def _entrants(facts: Facts, history: History, ruleset: Ruleset) -> tuple:
    """The ranked players of every tournament (neither the spare nor excluded), tournament by tournament in
    registration order: their columns, the pool codes' (tournament index, pool name) in code order, and per
    entrant the rating before the tournament (None: none yet) and club."""
    registered = facts.registrations
    excluded = np.fromiter(facts.excluded, dtype=np.int64, count=len(facts.excluded))
    kept = np.flatnonzero((registered.player != SPARE_ID) & ~np.isin(registered.player, excluded))
    tournament = np.repeat(np.arange(len(facts.info), dtype=np.int64), np.diff(registered.starts))[kept]
    player = registered.player[kept]
    pool, clubs = registered.pool[kept].tolist(), registered.club[kept].tolist()
    # Each entrant's rating before its tournament, looked up tournament by tournament.
    unrated = (ruleset.initial_rating,)
    rating, before = [], []
    players, bounds = player.tolist(), np.searchsorted(tournament, np.arange(len(facts.info) + 1)).tolist()
    for index, tid in enumerate(facts.info):
        first, end = bounds[index], bounds[index + 1]
        if first == end:
            continue
        pre = history.pre_tournament.get(tid, {})
        rating += [pre.get(p, unrated)[0] for p in players[first:end]]
        before += [pre.get(p, _NO_RATING)[0] for p in players[first:end]]
    index_list = tournament.tolist()
    names = sorted(set(zip(index_list, pool, strict=True)))
    code_of = {name: code for code, name in enumerate(names)}
    columns = Entrants(
        tournament=tournament, player=player,
        pool=np.fromiter(map(code_of.__getitem__, zip(index_list, pool, strict=True)), dtype=np.int64,
                         count=len(pool)),
        penalty=registered.penalty[kept], rating=np.array(rating, dtype=np.int64))
    return columns, names, before, clubs


def _games(facts: Facts) -> Games:
    played = facts.games
    return Games(
        tournament=np.repeat(np.arange(len(facts.info), dtype=np.int64), np.diff(played.starts)),
        round=played.round, table=played.table, a=played.a, b=played.b, free=played.free, result=played.result,
        a_losses=played.a_losses, b_losses=played.b_losses)


def _rated(infos: list, records: RecordColumns, entrants: Entrants, before: list, scale: int):
    """Per entrant: the rating after its last rated game of the tournament (its rating before, without one;
    NaN for none) and its performance rating (NaN without a rated game); per tournament, its rated games.
    The spare has no rated outcome."""
    n = len(records)
    index_of = {info.id: index for index, info in enumerate(infos)}
    tid, a, b = records.tournament, records.a, records.b
    before_a, change_a, before_b, change_b = records.before_a, records.change_a, records.before_b, records.change_b
    distinct, inverse = np.unique(tid, return_inverse=True)
    tournament = np.array([index_of[t] for t in distinct.tolist()], dtype=np.int64)[inverse.reshape(-1)]
    rated_games = np.bincount(tournament, minlength=len(infos))
    winner = np.array([_SIDES[_winner(code)] for code in records.result_codes] or [0],
                      dtype=np.int64)[records.result]
    on_a, on_b = a != SPARE_ID, b != SPARE_ID
    plain = np.array([np.nan if value is None else value for value in before], dtype=np.float64)
    if not (on_a.any() or on_b.any()):
        return plain, np.full(len(plain), np.nan), rated_games
    position = np.arange(n)
    keys = np.concatenate([entrant_keys(tournament[on_a], a[on_a]), entrant_keys(tournament[on_b], b[on_b])])
    # One row per player per rated game, grouped by (tournament, player), in history order within a group.
    by_key = np.lexsort((np.concatenate([position[on_a], position[on_b]]), keys))
    keys = keys[by_key]
    after = np.concatenate([(before_a + change_a)[on_a], (before_b + change_b)[on_b]])[by_key]
    opponent = np.concatenate([before_b[on_a], before_a[on_b]])[by_key]
    balance = np.concatenate([np.select([winner[on_a] == 1, winner[on_a] == 2], [1, -1], 0),
                              np.select([winner[on_b] == 2, winner[on_b] == 1], [1, -1], 0)])[by_key]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.append(starts[1:], len(keys))
    group_keys, last, count = keys[starts], after[ends - 1], ends - starts
    # (sum of opponents' ratings + D x (wins - losses)) / rated games: tournaments.scoring.performance_rating
    performance = (np.add.reduceat(opponent, starts) + scale * np.add.reduceat(balance, starts)).astype(
        np.float64) / count
    found, hit = sorted_lookup(group_keys, entrant_keys(entrants.tournament, entrants.player))
    return np.where(hit, last[found], plain), np.where(hit, performance[found], np.nan), rated_games


def _outcomes(infos: list, entrants: Entrants, names: list, before: list, clubs: list, club_names: dict,
              games: Games, ranked: Ranked, rated_games: np.ndarray, scoring_system: str) -> list[tuple]:
    """The TournamentOutcome rows: average rating of the ranked players who had one, ranked players, rated
    games, charter failures (JSON) and whether the tournament counts for the championship."""
    players_ranked = np.bincount(entrants.tournament, minlength=len(infos))
    known = np.array([value is not None for value in before], dtype=bool)
    ratings = np.array([value or 0 for value in before], dtype=np.float64)
    known_count = np.bincount(entrants.tournament[known], minlength=len(infos))
    # Exact: whole ratings sum exactly in a float far below 2**53, as Python's sum of ints does.
    known_sum = np.bincount(entrants.tournament[known], ratings[known], minlength=len(infos))
    rounds = _charter_rounds(names, games, ranked)
    starts = np.r_[0, np.cumsum(players_ranked)].tolist()
    players, pools = entrants.player.tolist(), entrants.pool.tolist()
    rows = []
    for index, info in enumerate(infos):
        span = range(starts[index], starts[index + 1])
        failures = charter_failures_from_rows(
            official=info.official,
            entrants=[(players[i], club_names.get(clubs[i]), names[pools[i]][1]) for i in span],
            rounds_by_pool={names[code][1]: rounds.get(code, 0) for code in {pools[i] for i in span}})
        counts = info.counts_override if info.counts_override is not None else (info.official and not failures)
        if scoring_system != "adlg":
            counts = False  # the championship is L'Art de la Guerre's (charter App. 6)
        count = int(known_count[index])
        rows.append((info.id, float(known_sum[index]) / count if count else None, int(players_ranked[index]),
                     int(rated_games[index]),
                     _json([{"code": f.code, "params": dict(f.params)} for f in failures]) if failures else "[]",
                     counts))
    return rows


def _charter_rounds(names: list, games: Games, ranked: Ranked) -> dict[int, int]:
    """Rounds played per pool code, for the charter: a game's pool is its first player's, else its second's
    ('' counts as none, as it always has); the spare and excluded players have none. Free games are no rounds
    of the charter."""
    pool_a, pool_b = ranked.pool_a, ranked.pool_b
    unnamed = np.array([name == "" for _, name in names] or [False], dtype=bool)
    pool = np.where((pool_a >= 0) & ~unnamed[np.maximum(pool_a, 0)], pool_a, pool_b)
    played = (pool >= 0) & ~games.free
    pool_rounds = np.unique(entrant_keys(pool[played], games.round[played]))
    codes, counts = np.unique(pool_rounds >> 32, return_counts=True)
    return dict(zip(codes.tolist(), counts.tolist(), strict=True))


def _int_or_none(value: float):
    return None if value != value else int(value)  # NaN marks "none"; ratings are whole numbers


def _none_if_nan(value: float):
    return None if value != value else value


_SIDES = {"A": 1, "B": 2, None: 0}  # winner -> side code of the rated outcomes


def _winner(result: str) -> str | None:
    if result.startswith("A") or result == "FA":
        return "A"
    if result.startswith("B") or result == "FB":
        return "B"
    return None


def _json(value) -> str:
    # COPY and executemany take JSON as text: PostgreSQL casts it to jsonb, SQLite stores it as it is.
    return json.dumps(value, separators=(",", ":"))


_NO_RATING = (None,)
