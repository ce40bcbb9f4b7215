"""Championship points of counting tournaments and the yearly totals (charter App. 6), written by the replay."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from championship.models import ChampionshipResult, ChampionshipTotal
from championship.points import Result, international_ranking, round_points, tournament_points, year_totals
from players.models import Player
from ratings.history_writer import rows_insert
from tournaments.models import Standing, Tournament


def championship_refresh(*, system, since: date | None) -> None:
    """Rewrite the points of the system's tournaments ending on or after `since`, then those years' totals."""
    tournaments = Tournament.objects.filter(system=system)
    if since is not None:
        tournaments = tournaments.filter(end_date__gte=since)
    info = {
        tid: (end, rounds, worlds, counts)
        for tid, end, rounds, worlds, counts in tournaments.values_list(
            "id", "end_date", "rounds", "worlds", "outcome__counts")
    }
    ChampionshipResult.objects.filter(tournament_id__in=list(info))._raw_delete(ChampionshipResult.objects.db)
    counting = [tid for tid, (_, _, _, counts) in info.items() if counts]
    pools: dict[tuple[int, str], list[tuple]] = defaultdict(list)
    for tid, pool, rank, player, score, games in (
        Standing.objects.filter(tournament_id__in=counting, player__excluded_at__isnull=True)
        .values_list("tournament_id", "pool", "rank", "player_id", "score", "games")
    ):
        pools[(tid, pool)].append((rank, player, score, games))
    rows = []
    for (tid, _), members in pools.items():
        end, rounds, worlds, _ = info[tid]
        for rank, player, score, games in members:
            if games == 0:
                continue  # a registered player who played no round earns no championship result
            points = tournament_points(players=len(members), rounds=rounds, rank=rank, score=score, games=games,
                                       worlds=worlds)
            rows.append((tid, player, end.year, round_points(points), False))
    rows_insert(table=ChampionshipResult._meta.db_table,
                columns=("tournament_id", "player_id", "year", "points", "counted"), rows=rows)
    years = {end.year for end, *_ in info.values()}
    if since is not None:
        years |= set(
            ChampionshipTotal.objects.filter(year__gte=since.year).values_list("year", flat=True).distinct())
    for year in sorted(years):
        _year_refresh(year)


def _year_refresh(year: int) -> None:
    results = list(
        ChampionshipResult.objects.filter(year=year, player__excluded_at__isnull=True)
        .values_list("id", "player_id", "tournament_id", "points", "tournament__end_date",
                     "tournament__country_id", "tournament__worlds")
    )
    ChampionshipTotal.objects.filter(year=year)._raw_delete(ChampionshipTotal.objects.db)
    if not results:
        return
    by_key = {(player, tid): rid for rid, player, tid, *_ in results}
    pure = [Result(player=player, tournament=tid, points=float(points), end=end, country=country, worlds=worlds)
            for _, player, tid, points, end, country, worlds in results]
    totals = year_totals(pure)
    counted_ids = [by_key[(t.player, r.tournament)] for t in totals for r in t.counted]
    ChampionshipResult.objects.filter(year=year).update(counted=False)
    ChampionshipResult.objects.filter(id__in=counted_ids).update(counted=True)
    international = {row.player: row.rank for row in international_ranking(totals, pure)}
    countries = dict(Player.objects.filter(id__in=[t.player for t in totals]).values_list("id", "country_id"))
    ordered = sorted(totals, key=lambda t: (-round_points(t.total), t.player))
    rows_insert(
        table=ChampionshipTotal._meta.db_table,
        columns=("year", "player_id", "total", "results", "rank", "international", "international_rank",
                 "country_id"),
        rows=[(year, t.player, round_points(t.total), len(t.counted), rank, t.player in international,
               international.get(t.player), countries.get(t.player))
              for rank, t in enumerate(ordered, start=1)],
    )
