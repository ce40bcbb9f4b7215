"""Championship points of counting tournaments and the yearly totals (charter App. 6), written by the replay.

A year's totals depend on every result of that year. The replay hands over the standings it has just
computed for the tournaments it went through; their points are computed afresh, the points of the year's
other counting tournaments are read back as stored, and each touched year's totals are worked out again.

Four steps, so that the replay can compute while its other rows are being written (ratings.write_behind):
`championship_read` reads what is stored before any write, `championship_rows` computes (pure),
`championship_prepare` works out what to write, without a query, and `championship_write` writes it. A first
replay, into empty tables, writes in bulk. Any other replay compares with what is stored and writes only the
differences: a correction five years back recomputes some 160,000 results whose points seldom change (only the
corrected tournament's, and a few ranks decided by rating).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import numpy as np
from django.db import connection
from django.db.models import Q

from championship.models import ChampionshipResult, ChampionshipTotal
from championship.points import round_points, tournament_points
from championship.year_tables import Placings, Results, YearTables, year_tables
from players.models import Player
from ratings.copy_binary import BinaryCopy, Column, column_of
from ratings.history_writer import binary_types, bulk_rows, other_systems, replacing, rows_insert, rows_update
from ratings.sorted_lookup import index_lookup
from tournaments.models import Registration, Tournament

RESULT_COLUMNS = ("tournament_id", "player_id", "year", "points", "counted")
TOTAL_COLUMNS = ("year", "player_id", "total", "results", "rank", "international", "international_rank",
                 "country_id")


@dataclass
class Stored:
    """What a championship refresh reads before it computes: read up front, so that the computation runs while
    the replay's other rows are being written (ratings.write_behind)."""

    # The counting tournaments of the replay's first year that the replay does not go through: (end, rounds,
    # worlds, country); their results keep their points, only which four count may change.
    kept: dict[int, tuple]
    results: dict[tuple[int, int], tuple[int, tuple]]  # stored results from the first year (championship_read)
    totals: dict[tuple[int, int], tuple[int, tuple]]  # stored totals from the first year
    countries: dict[int, str]
    bulk: bool  # nothing stored at all (a first replay): write in bulk


def championship_applies(system) -> bool:
    return system.get_ruleset().code in ("adlg-2018", "adlg-annex-a")  # L'Art de la Guerre's (charter App. 6)


def championship_read(*, system, since: date | None, at_head: bool = False) -> Stored:
    """Everything the refresh of `system` from `since` reads, before any of the replay's rows are written.
    `at_head`: nothing is stored after `since` (a new tournament), so few players' countries are needed."""
    first_year = since.year if since is not None else None
    kept = {}
    if since is not None:
        kept = {
            tid: (end, rounds, worlds, country)
            for tid, end, rounds, worlds, country in Tournament.objects.filter(
                system=system, outcome__counts=True, end_date__gte=date(first_year, 1, 1), end_date__lt=since,
            ).values_list("id", "end_date", "rounds", "worlds", "country_id")
        }
    bulk = since is None and not ChampionshipResult.objects.exists() and not ChampionshipTotal.objects.exists()
    return Stored(
        kept=kept,
        results={} if bulk else _stored_results(first_year),
        totals={} if bulk else _stored_totals(first_year),
        countries=_countries(system, since if at_head else None),
        bulk=bulk,
    )


def _countries(system, since: date | None) -> dict[int, str]:
    """player -> country of every player the totals from `since` on can name (None: of every player): those
    with a stored result from `since`'s year on and those registered in the tournaments from `since` on. For a
    tournament at the head of history, a year's players instead of the whole federation; further back, the
    query costs more than reading every player."""
    players = Player.objects.exclude(country__isnull=True).order_by()
    if since is not None:
        players = players.filter(
            Q(id__in=ChampionshipResult.objects.filter(year__gte=since.year).values("player_id"))
            | Q(id__in=Registration.objects.filter(tournament__system=system, tournament__end_date__gte=since)
                .values("player_id")))
    return dict(bulk_rows(players.values_list("id", "country_id")))


def championship_rows(*, stored: Stored, replayed: Mapping[int, tuple], placings: Placings) -> Rows:
    """The result and total rows from the replay's first year on. Pure.

    `replayed`: the counting tournaments the replay went through, (end, rounds, worlds, country);
    `placings`: their ranked players (tournaments.results.counting_placings)."""
    columns = _Columns()
    _add_replayed(columns, replayed, placings)
    for (tid, player), (_, (_, cents, _)) in stored.results.items():
        if tid in stored.kept:
            end, _, worlds, country = stored.kept[tid]
            columns.add(tid, player, cents, end, country, worlds)
    results = columns.results()
    return Rows(results, year_tables(results), stored.countries)


@dataclass(frozen=True)
class Rows:
    """The championship's rows from the replay's first year on, as columns (championship.year_tables)."""

    results: Results
    tables: YearTables
    countries: dict[int, str]  # player -> country, for the totals

    def result_rows(self) -> Iterator[tuple[int, int, int, int, bool]]:
        """(tournament, player, year, points in cents, counted) per result."""
        r = self.results
        return zip(r.tournament.tolist(), r.player.tolist(), r.year.tolist(), r.cents.tolist(),
                   self.tables.counted.tolist(), strict=True)

    def total_rows(self) -> Iterator[tuple]:
        """(year, player, total in cents, results, rank, international, international rank or None, country)."""
        t, countries = self.tables, self.countries
        for year, player, cents, results, rank, international in zip(
                t.year.tolist(), t.player.tolist(), t.cents.tolist(), t.results.tolist(), t.rank.tolist(),
                t.international_rank.tolist(), strict=True):
            yield (year, player, cents, results, rank, international > 0, international or None,
                   countries.get(player))


class _Columns:
    """Counting results gathered in bulk (a replay's, some 300,000) and one by one (the kept ones), then made
    numpy columns."""

    def __init__(self) -> None:
        self._chunks: list[tuple[np.ndarray, ...]] = []  # (tournament, player, cents, end, country, worlds)
        self._rows: list[tuple[int, int, int, int, int, bool]] = []
        self._countries: dict[str | None, int] = {}

    def country_code(self, country: str | None) -> int:
        return self._countries.setdefault(country, len(self._countries))

    def add(self, tournament: int, player: int, cents: int, end: date, country: str | None, worlds: bool) -> None:
        self._rows.append((tournament, player, cents, end.toordinal(), self.country_code(country), worlds))

    def extend(self, *, tournament: np.ndarray, player: np.ndarray, cents: np.ndarray, end: np.ndarray,
               country: np.ndarray, worlds: np.ndarray) -> None:
        """Results as columns: `end` as ordinals, `country` as country_code() gave them."""
        self._chunks.append((tournament, player, cents, end, country, worlds))

    def results(self) -> Results:
        rows = list(zip(*self._rows, strict=True)) or [()] * 6
        parts = [*self._chunks, tuple(np.array(column, dtype=dtype) for column, dtype in zip(
            rows, (np.int64, np.int64, np.int64, np.int64, np.int64, bool), strict=True))]
        tournament, player, cents, end, country, worlds = (
            np.concatenate(column) for column in zip(*parts, strict=True))
        distinct, inverse = np.unique(end, return_inverse=True)
        years = np.array([date.fromordinal(ordinal).year for ordinal in distinct.tolist()], dtype=np.int64)
        return Results(tournament=tournament, player=player, cents=cents, end=end, year=years[inverse.reshape(-1)],
                       country=country, worlds=worlds.astype(bool))


def _add_replayed(columns: _Columns, replayed: Mapping[int, tuple], placings: Placings) -> None:
    """The points of every ranked player with a scored round in the counting tournaments the replay went
    through, in the order of `replayed`."""
    if not replayed or not len(placings):
        return
    tids = np.fromiter(replayed, dtype=np.int64, count=len(replayed))
    ends, rounds, worlds, countries = zip(*replayed.values(), strict=True)
    end = np.array([day.toordinal() for day in ends], dtype=np.int64)
    rounds, worlds = np.array(rounds, dtype=np.int64), np.array(worlds, dtype=bool)
    country = np.array([columns.country_code(code) for code in countries], dtype=np.int64)
    place, known = index_lookup(tids, placings.tournament)  # each row's tournament's place in `replayed`
    pool_size = placings.pool_sizes()
    rows = np.flatnonzero(known & (placings.games > 0))  # a player who played no round earns no result
    at = place[rows]
    order = np.argsort(at, kind="stable")
    rows, at = rows[order], at[order]
    # The points depend on six small numbers that recur all over a history: worked out once per combination.
    keys = [pool_size[rows], rounds[at], placings.rank[rows], placings.score[rows], placings.games[rows],
            worlds[at]]
    distinct, inverse = _distinct_rows(keys)
    cents = np.array([
        int(round_points(tournament_points(players=size, rounds=count, rank=rank, score=score, games=games,
                                           worlds=at_worlds)).scaleb(2))
        for size, count, rank, score, games, at_worlds in zip(*(key.tolist() for key in distinct), strict=True)
    ], dtype=np.int64)
    columns.extend(tournament=placings.tournament[rows], player=placings.player[rows], cents=cents[inverse],
                   end=end[at], country=country[at], worlds=worlds[at])


def _distinct_rows(columns: list[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray]:
    """The distinct rows of equal-length `columns` (as columns) and, per row, the index of its distinct row.
    One lexsort: np.unique(axis=0) compares whole rows as raw bytes, several times slower."""
    if not len(columns[0]):
        return [column[:0] for column in columns], np.zeros(0, dtype=np.int64)
    order = np.lexsort(columns[::-1])
    new = np.zeros(len(order), dtype=bool)
    new[0] = True
    for column in columns:
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    first = order[new]
    return [column[first] for column in columns], inverse


@dataclass(frozen=True)
class Writes:
    """The statements' data, made before they run (championship_prepare): a first replay's rows in bulk (binary
    COPY data on PostgreSQL), or the differences with what is stored: (stale ids, changed rows, new rows)."""

    bulk: bool
    results: object
    totals: object


def championship_prepare(*, stored: Stored, rows: Rows) -> Writes:
    """What championship_write will write, worked out without a query (the replay's thread does it while the
    other thread is writing): every row of a first replay, else only the differences, from the replay's first
    year on (every year when it is a replay from scratch)."""
    if stored.bulk and connection.vendor == "postgresql":
        return Writes(True, *_binary(rows))
    if stored.bulk:
        return Writes(True, [(tid, player, year, _decimal(cents), counted)
                             for tid, player, year, cents, counted in rows.result_rows()],
                      [(year, player, _decimal(cents), *rest) for year, player, cents, *rest in rows.total_rows()])
    # Compared in whole cents, as stored rows are read (_stored_rows); only the rows written become Decimals.
    results = {(tid, player): (year, cents, counted) for tid, player, year, cents, counted in rows.result_rows()}
    totals = {(year, player): (cents, *rest) for year, player, cents, *rest in rows.total_rows()}
    return Writes(False, _in_decimals(_differences(stored.results, results), 3),
                  _in_decimals(_differences(stored.totals, totals), 2))


def _in_decimals(differences: tuple[list[int], list[tuple], list[tuple]], position: int) -> tuple:
    """The differences with their points (at `position` in a new row, one less in a changed row, which starts
    with its id instead of a two-column key) as Decimals again."""
    stale, changed, added = differences

    def decimal_at(row: tuple, at: int) -> tuple:
        return (*row[:at], _decimal(row[at]), *row[at + 1:])

    return stale, [decimal_at(row, position - 1) for row in changed], [decimal_at(row, position) for row in added]


def _decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)  # 850 -> Decimal("8.50"), as a DecimalField of two places reads back


def championship_write(*, system, writes: Writes) -> None:
    if writes.bulk:
        _rewrite(system, writes.results, writes.totals)
    else:
        _apply(ChampionshipResult, RESULT_COLUMNS, writes.results)
        _apply(ChampionshipTotal, TOTAL_COLUMNS, writes.totals)


def _stored_results(first_year: int | None) -> dict[tuple[int, int], tuple[int, tuple]]:
    """(tournament, player) -> (id, (year, points in cents, counted)) of the stored results from `first_year` on
    (None: all)."""
    return {(tid, player): (rid, (year, cents, counted)) for rid, tid, player, year, cents, counted in _stored_rows(
        ChampionshipResult, ("id", "tournament_id", "player_id", "year", "points", "counted"), first_year)}


def _stored_totals(first_year: int | None) -> dict[tuple[int, int], tuple[int, tuple]]:
    """(year, player) -> (id, (total in cents, results, rank, international, international rank, country)) of the
    stored totals from `first_year` on (None: all)."""
    return {(year, player): (tid, tuple(values)) for tid, year, player, *values in _stored_rows(
        ChampionshipTotal, ("id", *TOTAL_COLUMNS), first_year)}


def _stored_rows(model, columns: tuple[str, ...], first_year: int | None) -> list[tuple]:
    """`columns` of `model`'s rows from `first_year` on, points as whole cents: a correction years back compares
    some 100,000 stored rows with the new ones, and a Decimal per row costs more than reading them."""
    fields = {field.column: field for field in model._meta.concrete_fields}
    quote = connection.ops.quote_name
    selected = ", ".join(
        f"CAST(ROUND({quote(c)} * 100) AS BIGINT)" if fields[c].get_internal_type() == "DecimalField" else quote(c)
        for c in columns)
    sql = f"SELECT {selected} FROM {quote(model._meta.db_table)}"  # noqa: S608 - names from the model
    with connection.cursor() as cursor:
        cursor.execute(sql + (" WHERE year >= %s" if first_year is not None else ""),
                       [first_year] if first_year is not None else [])
        return cursor.fetchall()


def _rewrite(system, results, totals) -> None:
    """A first replay: both tables emptied and written in bulk (`results` and `totals` are binary COPY data on
    PostgreSQL, tuples elsewhere)."""
    whole = not ChampionshipResult.objects.filter(tournament__system_id__in=other_systems(system)).exists()
    with replacing(table=ChampionshipResult._meta.db_table, stale=ChampionshipResult.objects.all(), full=True,
                   whole=whole) as keys:
        rows_insert(table=ChampionshipResult._meta.db_table, columns=RESULT_COLUMNS, rows=results, keys=keys)
    with replacing(table=ChampionshipTotal._meta.db_table, stale=ChampionshipTotal.objects.all(), full=True,
                   whole=True) as keys:
        rows_insert(table=ChampionshipTotal._meta.db_table, columns=TOTAL_COLUMNS, rows=totals, keys=keys)


def _differences(stored: dict[tuple, tuple[int, tuple]], rows: dict[tuple, tuple]
                 ) -> tuple[list[int], list[tuple], list[tuple]]:
    """(ids of the stored rows to delete, (id, *values) of those to update, (*key, *values) of new ones) that make
    the stored rows (key -> (id, values)) the new ones (key -> values). A changed total moves the ranks below it;
    the rest of the year stays as it is."""
    changed, added = [], []
    for key, values in rows.items():
        before = stored.get(key)
        if before is None:
            added.append((*key, *values))
        elif before[1] != values:
            changed.append((before[0], *values))
    return [row_id for key, (row_id, _) in stored.items() if key not in rows], changed, added


def _apply(model, columns: tuple[str, ...], differences: tuple[list[int], list[tuple], list[tuple]]) -> None:
    """`columns`: the key's columns, then the values'."""
    stale, changed, added = differences
    table = model._meta.db_table
    _delete_ids(model, stale)
    rows_update(table=table, key="id", columns=columns[2:], rows=changed)
    rows_insert(table=table, columns=columns, rows=added)


def _delete_ids(model, ids: list[int]) -> None:
    for start in range(0, len(ids), 5000):
        stale = model.objects.filter(id__in=ids[start:start + 5000])
        stale._raw_delete(stale.db)


def _binary(rows: Rows) -> tuple[BinaryCopy, BinaryCopy]:
    """The result and total rows as binary COPY data, straight from the columns."""
    r, t = rows.results, rows.tables
    results = BinaryCopy([Column(pgtype, values) for pgtype, values in zip(
        binary_types(ChampionshipResult, RESULT_COLUMNS), (r.tournament, r.player, r.year, r.cents, t.counted),
        strict=True)], len(r))
    unranked = t.international_rank == 0
    *types, country_type = binary_types(ChampionshipTotal, TOTAL_COLUMNS)
    totals = BinaryCopy([*(Column(pgtype, value, null) for pgtype, value, null in zip(
        types, (t.year, t.player, t.cents, t.results, t.rank, ~unranked, t.international_rank),
        (None,) * 6 + (unranked,), strict=True)),
        column_of(country_type, [rows.countries.get(player) for player in t.player.tolist()])], len(t.year))
    return results, totals
