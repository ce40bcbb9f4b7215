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

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import connection

from championship.models import ChampionshipResult, ChampionshipTotal
from championship.points import Result, international_ranking, round_points, tournament_points, year_totals
from players.models import Player
from ratings.history_writer import BULK_READ, COPY_NULL, other_systems, replacing, rows_insert, rows_update
from tournaments.models import Tournament

# (pool, rank, player, score, scored rounds) of one ranked player
Placing = tuple[str, int, int, float, int]

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


def championship_read(*, system, since: date | None) -> Stored:
    """Everything the refresh of `system` from `since` reads, before any of the replay's rows are written."""
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
        countries=dict(Player.objects.exclude(country__isnull=True).order_by().values_list("id", "country_id")
                       .iterator(chunk_size=BULK_READ)),
        bulk=bulk,
    )


def championship_rows(*, stored: Stored, replayed: Mapping[int, tuple], placings: Mapping[int, Sequence[Placing]]
                      ) -> tuple[dict, dict]:
    """The result and total rows from the replay's first year on. Pure.

    `replayed`: the counting tournaments the replay went through, (end, rounds, worlds, country);
    `placings`: their ranked players (tournaments.results.counting_placings)."""
    cents: dict[tuple[int, int], Decimal] = {}  # (tournament, player) -> the points as stored, two decimals
    by_year = _replayed_results(replayed, placings, cents)
    for (tid, player), (_, (_, points, _)) in stored.results.items():
        if tid in stored.kept:
            end, _, worlds, country = stored.kept[tid]
            by_year[end.year].append(Result(player=player, tournament=tid, points=float(points), end=end,
                                            country=country, worlds=worlds))
            cents[tid, player] = points
    return _rows(by_year, cents, stored.countries)


@dataclass(frozen=True)
class Writes:
    """The statements' data, made before they run (championship_prepare): a first replay's rows in bulk (COPY
    lines on PostgreSQL), or the differences with what is stored: (stale ids, changed rows, new rows)."""

    bulk: bool
    results: object
    totals: object


def championship_prepare(*, stored: Stored, rows: tuple[dict, dict]) -> Writes:
    """What championship_write will write, worked out without a query (the replay's thread does it while the
    other thread is writing): every row of a first replay, else only the differences, from the replay's first
    year on (every year when it is a replay from scratch)."""
    results, totals = rows
    if not stored.bulk:
        return Writes(False, _differences(stored.results, results), _differences(stored.totals, totals))
    result_rows = [(tid, player, year, points, counted) for (tid, player), (year, points, counted) in results.items()]
    total_rows = [(year, player, *values) for (year, player), values in totals.items()]
    if connection.vendor == "postgresql":
        result_rows, total_rows = list(map(_result_line, result_rows)), list(map(_total_line, total_rows))
    return Writes(True, result_rows, total_rows)


def championship_write(*, system, writes: Writes) -> None:
    if writes.bulk:
        _rewrite(system, writes.results, writes.totals)
    else:
        _apply(ChampionshipResult, RESULT_COLUMNS, writes.results)
        _apply(ChampionshipTotal, TOTAL_COLUMNS, writes.totals)


def _replayed_results(replayed: Mapping[int, tuple], placings: Mapping[int, Sequence[Placing]],
                      cents: dict[tuple[int, int], Decimal]) -> dict[int, list[Result]]:
    by_year: dict[int, list[Result]] = defaultdict(list)
    # The points depend on six small numbers that recur all over a history: worked out once per combination.
    known: dict[tuple, tuple[Decimal, float]] = {}
    for tid, (end, rounds, worlds, country) in replayed.items():
        pool_sizes: dict[str, int] = defaultdict(int)
        for pool, *_ in placings.get(tid, ()):
            pool_sizes[pool] += 1
        year = by_year[end.year]
        for pool, rank, player, score, games in placings.get(tid, ()):
            if games == 0:
                continue  # a registered player who played no round earns no championship result
            key = (pool_sizes[pool], rounds, rank, score, games, worlds)
            points = known.get(key)
            if points is None:
                exact = round_points(tournament_points(players=key[0], rounds=rounds, rank=rank, score=score,
                                                       games=games, worlds=worlds))
                points = known[key] = (exact, float(exact))
            year.append(Result(player, tid, points[1], end, country, worlds))
            cents[tid, player] = points[0]
    return by_year


def _from_year(queryset, first_year: int | None):
    return queryset if first_year is None else queryset.filter(year__gte=first_year)


def _stored_results(first_year: int | None) -> dict[tuple[int, int], tuple[int, tuple]]:
    """(tournament, player) -> (id, (year, points, counted)) of the stored results from `first_year` on (None: all)."""
    return {
        (tid, player): (rid, (year, points, counted))
        for rid, tid, player, year, points, counted in _from_year(ChampionshipResult.objects, first_year)
        .order_by().values_list("id", "tournament_id", "player_id", "year", "points", "counted")
        .iterator(chunk_size=BULK_READ)
    }


def _stored_totals(first_year: int | None) -> dict[tuple[int, int], tuple[int, tuple]]:
    """(year, player) -> (id, (total, results, rank, international, international rank, country)) of the stored
    totals from `first_year` on (None: all)."""
    return {
        (year, player): (tid, tuple(values))
        for tid, year, player, *values in _from_year(ChampionshipTotal.objects, first_year).order_by()
        .values_list("id", *TOTAL_COLUMNS).iterator(chunk_size=BULK_READ)
    }


def _rows(by_year: dict[int, list[Result]], cents: dict[tuple[int, int], Decimal], countries: dict[int, str]
          ) -> tuple[dict[tuple[int, int], tuple], dict[tuple[int, int], tuple]]:
    """The result rows {(tournament, player): (year, points, counted)} and the total rows
    {(year, player): (total, results, rank, international, international rank, country)} of `by_year`;
    `cents` holds each result's points as stored."""
    results, totals = {}, {}
    for year, year_results in sorted(by_year.items()):
        year_total_list = year_totals(year_results, year=year)
        counted = {(r.player, r.tournament) for t in year_total_list for r in t.counted}
        for r in year_results:
            key = (r.tournament, r.player)
            results[key] = (year, cents[key], (r.player, r.tournament) in counted)
        international = {row.player: row.rank for row in international_ranking(year_total_list, year_results)}
        # Best total first, then lower ID (reversed rather than negating a Decimal per total)
        ordered = sorted(year_total_list, key=lambda t: (t.display, -t.player), reverse=True)
        for rank, t in enumerate(ordered, start=1):
            totals[year, t.player] = (t.display, len(t.counted), rank, t.player in international,
                                      international.get(t.player), countries.get(t.player))
    return results, totals


def _rewrite(system, results: list, totals: list) -> None:
    """A first replay: both tables emptied and written in bulk (`results` and `totals` are COPY text lines on
    PostgreSQL, tuples elsewhere)."""
    whole = not ChampionshipResult.objects.filter(tournament__system_id__in=other_systems(system)).exists()
    pg = connection.vendor == "postgresql"
    with replacing(table=ChampionshipResult._meta.db_table, stale=ChampionshipResult.objects.all(), full=True,
                   whole=whole):
        rows_insert(table=ChampionshipResult._meta.db_table, columns=RESULT_COLUMNS, rows=results, encoded=pg)
    with replacing(table=ChampionshipTotal._meta.db_table, stale=ChampionshipTotal.objects.all(), full=True,
                   whole=True):
        rows_insert(table=ChampionshipTotal._meta.db_table, columns=TOTAL_COLUMNS, rows=totals, encoded=pg)


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


def _result_line(row: tuple) -> str:
    tid, player, year, points, counted = row
    return f"{tid}\t{player}\t{year}\t{points}\t{'t' if counted else 'f'}"


def _total_line(row: tuple) -> str:
    year, player, total, results, rank, international, international_rank, country = row
    international_rank = COPY_NULL if international_rank is None else international_rank
    return (f"{year}\t{player}\t{total}\t{results}\t{rank}\t{'t' if international else 'f'}\t"
            f"{international_rank}\t{COPY_NULL if country is None else country}")
