"""A year's championship as rows (COMMANDS.md `export_championship`): overall, national or international."""

from __future__ import annotations

from collections.abc import Iterator

from championship.models import ChampionshipTotal
from players.models import Player
from rules.championship import has_national_ranking

CHAMPIONSHIP_COLUMNS = ("rank", "id", "total", "results")


def national_ranking_exists(country: str) -> bool:
    """RULES.md §7: a country has a national ranking once it has at least 5 registered players."""
    return has_national_ranking(Player.objects.public().filter(country_id=country).count())


def championship_export_rows(*, year: int, country: str | None = None, international: bool = False) -> Iterator[tuple]:
    totals = ChampionshipTotal.objects.filter(year=year, player__excluded_at__isnull=True)
    if international:
        rows = totals.filter(international=True).order_by("international_rank")
        for total in rows.values_list("international_rank", "player_id", "total", "results"):
            yield (total[0], total[1], f"{total[2]:.2f}", total[3])
        return
    if country is not None:
        if not national_ranking_exists(country):
            return
        rows = totals.filter(country_id=country).order_by("rank")
        for position, (pid, value, results) in enumerate(rows.values_list("player_id", "total", "results"), 1):
            yield (position, pid, f"{value:.2f}", results)
        return
    for rank, pid, value, results in totals.order_by("rank").values_list("rank", "player_id", "total", "results"):
        yield (rank, pid, f"{value:.2f}", results)
