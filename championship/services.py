"""Championship points of counting tournaments and the yearly totals (charter App. 6), written by the replay.

A year's totals depend on every result of that year, so the unit of work is the year: the replay names the
first date it touched, and every year from then on is recomputed in memory and rewritten in one go.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from championship.models import ChampionshipResult, ChampionshipTotal
from championship.points import Result, international_ranking, round_points, tournament_points, year_totals
from players.models import Player
from ratings.history_writer import rows_insert
from tournaments.models import Standing, Tournament


def championship_refresh(*, system, since: date | None) -> None:
    """Rewrite the points and totals of every year from `since` on (None: every year)."""
    if system.get_ruleset().code not in ("adlg-2018", "adlg-annex-a"):
        return  # the championship is L'Art de la Guerre's (charter App. 6)
    tournaments = Tournament.objects.filter(system=system, outcome__counts=True)
    if since is not None:
        tournaments = tournaments.filter(end_date__gte=date(since.year, 1, 1))
    info = {
        tid: (end, rounds, worlds, country)
        for tid, end, rounds, worlds, country in tournaments.values_list(
            "id", "end_date", "rounds", "worlds", "country_id")
    }
    pools: dict[tuple[int, str], list[tuple]] = defaultdict(list)
    for tid, pool, rank, player, score, games in (
        Standing.objects.filter(tournament_id__in=list(info), player__excluded_at__isnull=True)
        .values_list("tournament_id", "pool", "rank", "player_id", "score", "games").iterator(chunk_size=20000)
    ):
        pools[(tid, pool)].append((rank, player, score, games))
    by_year: dict[int, list[Result]] = defaultdict(list)
    for (tid, _), members in pools.items():
        end, rounds, worlds, country = info[tid]
        for rank, player, score, games in members:
            if games == 0:
                continue  # a registered player who played no round earns no championship result
            points = round_points(tournament_points(players=len(members), rounds=rounds, rank=rank, score=score,
                                                    games=games, worlds=worlds))
            by_year[end.year].append(Result(player=player, tournament=tid, points=float(points), end=end,
                                             country=country, worlds=worlds))
    stale_results = ChampionshipResult.objects.all()
    stale_totals = ChampionshipTotal.objects.all()
    if since is not None:
        stale_results = stale_results.filter(year__gte=since.year)
        stale_totals = stale_totals.filter(year__gte=since.year)
    stale_results._raw_delete(stale_results.db)
    stale_totals._raw_delete(stale_totals.db)
    countries = dict(Player.objects.exclude(country__isnull=True).values_list("id", "country_id"))
    result_rows, total_rows = [], []
    for year, results in sorted(by_year.items()):
        totals = year_totals(results, year=year)
        counted = {(r.player, r.tournament) for t in totals for r in t.counted}
        result_rows.extend((r.tournament, r.player, year, round_points(r.points), (r.player, r.tournament) in counted)
                           for r in results)
        international = {row.player: row.rank for row in international_ranking(totals, results)}
        ordered = sorted(totals, key=lambda t: (-t.display, t.player))
        total_rows.extend(
            (year, t.player, t.display, len(t.counted), rank, t.player in international, international.get(t.player),
             countries.get(t.player))
            for rank, t in enumerate(ordered, start=1)
        )
    rows_insert(table=ChampionshipResult._meta.db_table,
                columns=("tournament_id", "player_id", "year", "points", "counted"), rows=result_rows)
    rows_insert(table=ChampionshipTotal._meta.db_table,
                columns=("year", "player_id", "total", "results", "rank", "international", "international_rank",
                         "country_id"),
                rows=total_rows)
