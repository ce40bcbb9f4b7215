"""Read the stored facts of one rating system into the engine's plain values, in a handful of bulk queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db import connection

from players.models import OpeningBalance, Player
from ratings.engine import Game, Opening, Tournament
from ratings.history_writer import bulk_rows
from ratings.models import ClosedYear, RatingSystem
from tournaments.models import Game as GameRow
from tournaments.models import Registration
from tournaments.models import Tournament as TournamentRow


@dataclass
class TournamentInfo:
    """What the standings and the championship need beyond the engine's Tournament."""

    id: int
    name: str
    start: date
    end: date
    country: str
    official: bool
    worlds: bool
    rounds: int
    counts_override: bool | None
    registrations: list[tuple] = field(default_factory=list)  # (player, pool, penalty, club_id)
    games: list[tuple] = field(default_factory=list)  # (id, round, table, a, b, result, a_loss, b_loss, free)


@dataclass
class Facts:
    system: RatingSystem
    tournaments: list[Tournament]
    info: dict[int, TournamentInfo]
    openings: list[Opening]
    closed_years: list[int]
    excluded: frozenset[int]

    def result_of(self) -> dict[int, str]:
        """Each game's result code, by game."""
        return {g[0]: g[5] for t in self.info.values() for g in t.games}


def facts_load(*, system: RatingSystem, since: date | None = None) -> Facts:
    """Every fact the replay of `system` needs; with `since`, only the tournaments ending on or after it."""
    tournaments_qs = TournamentRow.objects.filter(system=system).exclude(status=TournamentRow.REGISTERED)
    if since is not None:
        tournaments_qs = tournaments_qs.filter(end_date__gte=since)
    rows = tournaments_qs.values_list(
        "id", "name", "start_date", "end_date", "country_id", "official", "worlds", "rounds", "counts_override"
    )
    info = {
        tid: TournamentInfo(tid, name, start, end, country, official, worlds, rounds, override)
        for tid, name, start, end, country, official, worlds, rounds, override in rows
    }
    # A million games: the loop binds each row's fields once and appends to lists looked up in plain dicts.
    games_by_tournament: dict[int, list[Game]] = {tid: [] for tid in info}
    info_games = {tid: t.games for tid, t in info.items()}
    for gid, tid, rnd, table, a, b, result, a_losses, b_losses, free in _game_rows(system, since):
        games_by_tournament[tid].append(Game(gid, rnd, table, a, b, result, free))
        info_games[tid].append((gid, rnd, table, a, b, result, a_losses, b_losses, free))
    players_by_tournament: dict[int, list[int]] = {tid: [] for tid in info}
    for tid, player, pool, penalty, club in _rows_of(
        Registration, "r.tournament_id, r.player_id, r.pool, r.penalty, r.club_id", system, since
    ):
        players_by_tournament[tid].append(player)
        info[tid].registrations.append((player, pool, penalty, club))
    tournaments = [
        Tournament(
            id=t.id, start=t.start, end=t.end, official=t.official,
            games=games_by_tournament[t.id], players=players_by_tournament[t.id],
        )
        for t in info.values()
    ]
    openings = [
        Opening(player, rating, games, as_of)
        for player, rating, games, as_of in bulk_rows(OpeningBalance.objects.filter(system=system).order_by()
                                                       .values_list("player_id", "rating", "games", "as_of"))
    ]
    excluded = frozenset(Player.objects.filter(excluded_at__isnull=False).values_list("id", flat=True))
    return Facts(
        system=system,
        tournaments=tournaments,
        info=info,
        openings=openings,
        closed_years=sorted(ClosedYear.objects.filter(system=system).values_list("year", flat=True)),
        excluded=excluded,
    )


def _rows_of(model, columns: str, system: RatingSystem, since: date | None) -> list[tuple]:
    """Rows of a tournament's child table (alias r) for the system's received tournaments, in one query:
    a million rows through the ORM's row-by-row machinery would cost more than rating them."""
    sql = (
        f"SELECT {columns} FROM {model._meta.db_table} r "  # noqa: S608 - names from the models
        f"JOIN {TournamentRow._meta.db_table} t ON t.id = r.tournament_id WHERE t.system_id = %s AND t.status <> %s"
    )
    params: list = [system.code, TournamentRow.REGISTERED]
    if since is not None:
        sql += " AND t.end_date >= %s"
        params.append(since)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _game_rows(system: RatingSystem, since: date | None) -> list[tuple]:
    rows = _rows_of(GameRow, 'r.id, r.tournament_id, r.round, r."table", r.player_a_id, r.player_b_id, r.result, '
                    "r.a_losses, r.b_losses, r.free", system, since)
    if connection.vendor == "sqlite":
        rows = [(*row[:9], bool(row[9])) for row in rows]  # SQLite returns 0/1
    return rows
