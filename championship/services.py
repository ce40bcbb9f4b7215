"""Championship points of counting tournaments and the yearly totals (charter App. 6), written by the replay.

A year's totals depend on every result of that year. The replay hands over the standings it has just
computed for the tournaments it went through; their points are computed afresh, the points of the year's
other counting tournaments are read back as stored, and each touched year's totals are rewritten.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date

from django.db import connection

from championship.models import ChampionshipResult, ChampionshipTotal
from championship.points import Result, international_ranking, round_points, tournament_points, year_totals
from players.models import Player
from ratings.history_writer import replacing, rows_insert, rows_update
from tournaments.models import Tournament

# (pool, rank, player, score, scored rounds) of one ranked player
Placing = tuple[str, int, int, float, int]


def championship_refresh(*, system, since: date | None, placings: Mapping[int, Sequence[Placing]]) -> None:
    """Rewrite the points of the tournaments ending on or after `since` and the totals of their years.

    `placings`: those of the counting tournaments the replay has just rewritten (tournament_results_write).
    """
    if system.get_ruleset().code not in ("adlg-2018", "adlg-annex-a"):
        return  # the championship is L'Art de la Guerre's (charter App. 6)
    first_year = since.year if since is not None else None
    tournaments = Tournament.objects.filter(system=system, outcome__counts=True)
    if first_year is not None:
        tournaments = tournaments.filter(end_date__gte=date(first_year, 1, 1))
    info = {
        tid: (end, rounds, worlds, country)
        for tid, end, rounds, worlds, country in tournaments.values_list(
            "id", "end_date", "rounds", "worlds", "country_id")
    }
    replayed = {tid for tid, (end, *_) in info.items() if since is None or end >= since}
    by_year: dict[int, list[Result]] = defaultdict(list)
    for tid in replayed:
        end, rounds, worlds, country = info[tid]
        pool_sizes: dict[str, int] = defaultdict(int)
        for pool, *_ in placings.get(tid, ()):
            pool_sizes[pool] += 1
        for pool, rank, player, score, games in placings.get(tid, ()):
            if games == 0:
                continue  # a registered player who played no round earns no championship result
            points = round_points(tournament_points(players=pool_sizes[pool], rounds=rounds, rank=rank, score=score,
                                                    games=games, worlds=worlds))
            by_year[end.year].append(Result(player=player, tournament=tid, points=float(points), end=end,
                                             country=country, worlds=worlds))
    # The year's other counting tournaments keep the points they have; only which four count may change.
    kept: dict[tuple[int, int], tuple[int, bool]] = {}
    for rid, tid, player, points, counted in ChampionshipResult.objects.filter(
        tournament_id__in=[tid for tid in info if tid not in replayed]
    ).values_list("id", "tournament_id", "player_id", "points", "counted").iterator(chunk_size=20000):
        end, _, worlds, country = info[tid]
        by_year[end.year].append(Result(player=player, tournament=tid, points=float(points), end=end,
                                        country=country, worlds=worlds))
        kept[(player, tid)] = (rid, counted)
    stale = ChampionshipResult.objects.exclude(tournament_id__in=[tid for tid in info if tid not in replayed])
    totals_stale = ChampionshipTotal.objects.all()
    if first_year is not None:
        stale = stale.filter(year__gte=first_year)
        totals_stale = totals_stale.filter(year__gte=first_year)
    totals_stale._raw_delete(totals_stale.db)
    countries = dict(Player.objects.exclude(country__isnull=True).values_list("id", "country_id"))
    new_results, flag_changes, total_rows = [], [], []
    for year, results in sorted(by_year.items()):
        totals = year_totals(results, year=year)
        counted = {(r.player, r.tournament) for t in totals for r in t.counted}
        for r in results:
            key = (r.player, r.tournament)
            if key in kept:
                rid, was_counted = kept[key]
                if was_counted != (key in counted):
                    flag_changes.append((rid, key in counted))
            else:
                # r.points is already a whole number of cents: its two-decimal text is exact
                new_results.append((r.tournament, r.player, year, f"{r.points:.2f}", key in counted))
        international = {row.player: row.rank for row in international_ranking(totals, results)}
        ordered = sorted(totals, key=lambda t: (-t.display, t.player))
        total_rows.extend(
            (year, t.player, t.display, len(t.counted), rank, t.player in international, international.get(t.player),
             countries.get(t.player))
            for rank, t in enumerate(ordered, start=1)
        )
    full = since is None
    whole = full and not ChampionshipResult.objects.exclude(tournament__system=system).exists()
    with replacing(table=ChampionshipResult._meta.db_table, stale=stale, full=full, whole=whole):
        rows_insert(table=ChampionshipResult._meta.db_table, columns=RESULT_COLUMNS, **_encoded(new_results))
    rows_update(table=ChampionshipResult._meta.db_table, key="id", columns=("counted",), rows=flag_changes)
    rows_insert(table=ChampionshipTotal._meta.db_table,
                columns=("year", "player_id", "total", "results", "rank", "international", "international_rank",
                         "country_id"),
                rows=total_rows)


RESULT_COLUMNS = ("tournament_id", "player_id", "year", "points", "counted")


def _encoded(rows: list[tuple]) -> dict:
    """COPY text lines on PostgreSQL (a million results in a full replay), the tuples elsewhere."""
    if connection.vendor != "postgresql":
        return {"rows": rows}
    return {"rows": (f"{t}\t{p}\t{y}\t{points}\t{'t' if counted else 'f'}" for t, p, y, points, counted in rows),
            "encoded": True}
