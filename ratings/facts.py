"""Read the stored facts of one rating system into the engine's plain values, in a handful of bulk queries.

The games and registrations are also kept as columns (GameColumns, RegistrationColumns), tournament by
tournament: the standings and the history's expansion read them as numpy arrays, and at a million games making
a tuple per game for them cost more than reading the games from the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from players.models import OpeningBalance, Player
from ratings.column_reads import BOOL, INT, OPTIONAL, TEXT, columns_read, rows_as_columns
from ratings.engine import Game, Opening, Tournament
from ratings.history_writer import bulk_rows
from ratings.models import ClosedYear, RatingSystem
from ratings.sorted_lookup import index_lookup
from ratings.write_behind import write_behind
from tournaments.models import Game as GameRow
from tournaments.models import Registration
from tournaments.models import Tournament as TournamentRow

# The fields of a game row and of a registration row, as read (the tournament's ID first).
GAME_FIELDS = ("tournament", "id", "round", "table", "a", "b", "result", "a_losses", "b_losses", "free")
REGISTRATION_FIELDS = ("tournament", "player", "pool", "penalty", "club")
_GAME_KINDS = (INT, INT, INT, INT, INT, INT, TEXT, OPTIONAL, OPTIONAL, BOOL)
_REGISTRATION_KINDS = (INT, INT, TEXT, INT, OPTIONAL)


@dataclass
class TournamentInfo:
    """What the standings and the championship need of a tournament beyond the engine's Tournament (its games
    and registrations are in Facts.games and Facts.registrations)."""

    id: int
    name: str
    start: date
    end: date
    country: str
    official: bool
    worlds: bool
    rounds: int
    counts_override: bool | None


@dataclass(frozen=True)
class GameColumns:
    """Every game of the facts, tournament after tournament in the order of `Facts.info`, each tournament's
    games in the order read: one column per field. Tournament i's games are rows starts[i] to starts[i + 1].
    Losses are None where the sheet has none."""

    tournament: np.ndarray  # the tournament's ID
    id: np.ndarray
    round: np.ndarray
    table: np.ndarray
    a: np.ndarray
    b: np.ndarray
    result: np.ndarray  # objects: str
    a_losses: np.ndarray  # objects: int or None
    b_losses: np.ndarray
    free: np.ndarray
    starts: np.ndarray

    def __len__(self) -> int:
        return len(self.id)

    def rows(self, index: int) -> list[tuple]:
        """Tournament `index`'s games as (id, round, table, a, b, result, a_losses, b_losses, free)."""
        span = slice(int(self.starts[index]), int(self.starts[index + 1]))
        return list(zip(self.id[span].tolist(), self.round[span].tolist(), self.table[span].tolist(),
                        self.a[span].tolist(), self.b[span].tolist(), self.result[span].tolist(),
                        self.a_losses[span].tolist(), self.b_losses[span].tolist(), self.free[span].tolist(),
                        strict=True))


@dataclass(frozen=True)
class RegistrationColumns:
    """Every registered player of the facts' tournaments, grouped as GameColumns are; clubs None for none."""

    tournament: np.ndarray
    player: np.ndarray
    pool: np.ndarray  # objects: str
    penalty: np.ndarray
    club: np.ndarray  # objects: int or None
    starts: np.ndarray

    def __len__(self) -> int:
        return len(self.player)

    def rows(self, index: int) -> list[tuple]:
        """Tournament `index`'s registrations as (player, pool, penalty, club)."""
        span = slice(int(self.starts[index]), int(self.starts[index + 1]))
        return list(zip(self.player[span].tolist(), self.pool[span].tolist(), self.penalty[span].tolist(),
                        self.club[span].tolist(), strict=True))


@dataclass
class Facts:
    system: RatingSystem | None
    tournaments: list[Tournament]
    info: dict[int, TournamentInfo]
    games: GameColumns
    registrations: RegistrationColumns
    openings: list[Opening]
    closed_years: list[int]
    excluded: frozenset[int]

    def result_of(self) -> dict[int, str]:
        """Each game's result code, by game."""
        return dict(zip(self.games.id.tolist(), self.games.result.tolist(), strict=True))


def facts_of(*, info: dict[int, TournamentInfo], games: Iterable[tuple], registrations: Iterable[tuple],
             system: RatingSystem | None = None, tournaments: list[Tournament] | None = None,
             openings: Sequence[Opening] = (), closed_years: Iterable[int] = (),
             excluded: Iterable[int] = ()) -> Facts:
    """Facts from rows: `games` in GAME_FIELDS order, `registrations` in REGISTRATION_FIELDS order, each
    tournament's in its order, tournaments in any order. `tournaments`: the engine's, made from the rows when
    not given."""
    tids = list(info)
    game_columns = GameColumns(*_by_tournament(rows_as_columns(list(games), _GAME_KINDS), tids))
    registration_columns = RegistrationColumns(
        *_by_tournament(rows_as_columns(list(registrations), _REGISTRATION_KINDS), tids))
    if tournaments is None:
        tournaments = engine_tournaments(info, game_columns, registration_columns)
    return _facts(info=info, games=game_columns, registrations=registration_columns, system=system,
                  tournaments=tournaments, openings=openings, closed_years=closed_years, excluded=excluded)


def _facts(*, info: dict[int, TournamentInfo], games: GameColumns, registrations: RegistrationColumns,
           system: RatingSystem | None, tournaments: list[Tournament], openings: Sequence[Opening],
           closed_years: Iterable[int], excluded: Iterable[int]) -> Facts:
    return Facts(system=system, tournaments=tournaments, info=info, games=games, registrations=registrations,
                 openings=list(openings), closed_years=sorted(closed_years), excluded=frozenset(excluded))


def engine_tournaments(info: dict[int, TournamentInfo], games: GameColumns, registrations: RegistrationColumns,
                       every: list[Game] | None = None) -> list[Tournament]:
    """The engine's tournaments, in the order of `info`; `every`: engine_games(games), when already made."""
    if every is None:
        every = engine_games(games)
    players = registrations.player.tolist()
    game_starts, player_starts = games.starts.tolist(), registrations.starts.tolist()
    return [
        Tournament(id=t.id, start=t.start, end=t.end, official=t.official,
                   games=every[game_starts[i]:game_starts[i + 1]],
                   players=players[player_starts[i]:player_starts[i + 1]])
        for i, t in enumerate(info.values())
    ]


def engine_games(games: GameColumns) -> list[Game]:
    """The engine's games, in the order of `games`."""
    return list(map(Game, games.id.tolist(), games.round.tolist(), games.table.tolist(), games.a.tolist(),
                    games.b.tolist(), games.result.tolist(), games.free.tolist()))


def _by_tournament(columns: list[np.ndarray], tids: list[int]) -> list[np.ndarray]:
    """`columns` (the tournament's ID first) grouped tournament by tournament in the order of `tids` (each
    tournament's rows in their order), followed by where each tournament's rows start (one more: the end).
    Rows of other tournaments are left out: a tournament stored after `tids` were read waits for its own replay."""
    position, known = index_lookup(np.array(tids, dtype=np.int64), columns[0])  # each row's place in `tids`
    if not known.all():
        columns, position = [column[known] for column in columns], position[known]
    if np.any(position[1:] < position[:-1]):  # read in another order than the tournaments'
        order = np.argsort(position, kind="stable")
        columns = [column[order] for column in columns]
        position = position[order]
    return [*columns, np.searchsorted(position, np.arange(len(tids) + 1))]


def facts_load(*, system: RatingSystem, since: date | None = None) -> Facts:
    """Every fact the replay of `system` needs; with `since`, only the tournaments ending on or after it."""
    tournaments_qs = TournamentRow.objects.filter(system=system).exclude(status=TournamentRow.REGISTERED)
    if since is not None:
        tournaments_qs = tournaments_qs.filter(end_date__gte=since)
    rows = tournaments_qs.values_list(
        "id", "name", "start_date", "end_date", "country_id", "official", "worlds", "rounds", "counts_override"
    )
    info = {row[0]: TournamentInfo(*row) for row in rows}
    openings = [
        Opening(player, rating, games, as_of)
        for player, rating, games, as_of in bulk_rows(OpeningBalance.objects.filter(system=system).order_by()
                                                       .values_list("player_id", "rating", "games", "as_of"))
    ]
    tids = list(info)
    games = GameColumns(*_by_tournament(_columns_of(GameRow, _GAME_COLUMNS, _GAME_KINDS, system, since), tids))
    # The registrations are read on a second thread, on the same connection, while this one makes the engine's
    # games: PostgreSQL's half second at a million games passes behind Python's work (ratings.write_behind).
    with write_behind() as behind:
        read = behind.submit(_columns_of, Registration, _REGISTRATION_COLUMNS, _REGISTRATION_KINDS, system, since)
        every = engine_games(games)
    registrations = RegistrationColumns(*_by_tournament(read.result(), tids))
    return _facts(info=info, games=games, registrations=registrations, system=system,
                  tournaments=engine_tournaments(info, games, registrations, every), openings=openings,
                  closed_years=ClosedYear.objects.filter(system=system).values_list("year", flat=True),
                  excluded=Player.objects.filter(excluded_at__isnull=False).values_list("id", flat=True))


_GAME_COLUMNS = ("r.tournament_id", "r.id", "r.round", 'r."table"', "r.player_a_id", "r.player_b_id", "r.result",
                 "r.a_losses", "r.b_losses", "r.free")
_REGISTRATION_COLUMNS = ("r.tournament_id", "r.player_id", "r.pool", "r.penalty", "r.club_id")


def _columns_of(model, columns: Sequence[str], kinds: Sequence[str], system: RatingSystem,
                since: date | None) -> list[np.ndarray]:
    """Columns of a tournament's child table (alias r) for the system's received tournaments, in one query."""
    tail = (f"FROM {model._meta.db_table} r JOIN {TournamentRow._meta.db_table} t ON t.id = r.tournament_id "
            "WHERE t.system_id = %s AND t.status <> %s")
    params: list = [system.code, TournamentRow.REGISTERED]
    if since is not None:
        tail += " AND t.end_date >= %s"
        params.append(since)
    return columns_read(columns=list(zip(columns, kinds, strict=True)), tail=tail, params=params)
