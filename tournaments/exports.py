"""A tournament's standings as rows (COMMANDS.md `export_standings`)."""

from __future__ import annotations

from collections.abc import Iterator

from championship.models import ChampionshipResult
from tournaments.models import Standing, Tournament

STANDING_COLUMNS = ("pool", "rank", "id", "score", "opponents_score", "championship_points")


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def standing_rows(*, tournament: Tournament) -> Iterator[tuple]:
    points = dict(ChampionshipResult.objects.filter(tournament=tournament).values_list("player_id", "points"))
    for pool, rank, pid, score, opponents in (
        Standing.objects.filter(tournament=tournament, player__excluded_at__isnull=True)
        .order_by("pool", "rank").values_list("pool", "rank", "player_id", "score", "opponents_score")
    ):
        value = points.get(pid)
        yield (pool, rank, pid, _number(score), _number(opponents), f"{value:.2f}" if value is not None else "")
