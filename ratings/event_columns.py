"""The history's event rows as columns: one row per player per rated game and per inactivity adjustment, in
history order, each with the player's rated games and last rated game before it (RULES.md §3).

Why columns: a full replay writes two million such rows. numpy expands the engine's records into them with a
few array operations where a Python loop kept each player's count and date row by row (4.6 s at a million
games), and binary COPY (ratings.copy_binary) takes the arrays as they are. SQLite takes them as tuples.

Order: the engine lists games in replay order; the adjustment of year Y follows every game of a tournament
ending on or before 31 December Y (its replay point, ratings.engine) and precedes the later ones, players in
the engine's order. A game gives player A's row, then player B's; the spare (ID 99) gets none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import date
from itertools import chain

import numpy as np

from ratings.copy_binary import BinaryCopy, Column, pg_days
from ratings.engine import GameRecord
from ratings.sorted_lookup import sorted_lookup

# The engine's game records (ratings.engine.GameRecord) start with ten whole numbers, then A's expected score.
_P_A = GameRecord._fields.index("p_a")


@dataclass(frozen=True)
class EventColumns:
    """The rows in EVENT_COLUMNS order (ratings.history_writer), one array per column, dates as ordinals.

    `is_game` tells game rows from adjustment rows: an adjustment has no tournament, game, opponent, opponent
    rating, K, expected score or result value; a game row has no year. `last_played` is 0 where the player
    had no rated game yet."""

    code: str
    player: np.ndarray
    seq: np.ndarray
    is_game: np.ndarray
    day: np.ndarray
    tournament: np.ndarray
    game: np.ndarray
    opponent: np.ndarray
    year: np.ndarray
    before: np.ndarray
    after: np.ndarray
    change: np.ndarray
    games_before: np.ndarray
    opponent_rating: np.ndarray
    k: np.ndarray
    expected: np.ndarray
    score: np.ndarray
    last_played: np.ndarray

    def __len__(self) -> int:
        return len(self.seq)

    def binary_copy(self) -> BinaryCopy:
        """The rows as binary COPY data for the rating event table (its column types, in EVENT_COLUMNS order)."""
        adjustment = ~self.is_game
        never = self.last_played == 0
        return BinaryCopy([
            Column("text", self.code),
            Column("int4", self.player),
            Column("int8", self.seq),
            Column("text", np.where(self.is_game, b"game", b"adjustment")),
            Column("date", pg_days(self.day)),
            Column("int8", self.tournament, adjustment),
            Column("int8", self.game, adjustment),
            Column("int4", self.opponent, adjustment),
            Column("int2", self.year, self.is_game),
            Column("int4", self.before),
            Column("int4", self.after),
            Column("int4", self.change),
            Column("int4", self.games_before),
            Column("int4", self.opponent_rating, adjustment),
            Column("int2", self.k, adjustment),
            Column("float8", self.expected, adjustment),
            Column("float8", self.score, adjustment),
            Column("date", pg_days(self.last_played), never),
        ], len(self))

    def tuples(self) -> Iterator[tuple]:
        """The rows as Python tuples in EVENT_COLUMNS order (None for NULL, dates as dates)."""
        days: dict[int, date] = {}

        def day(ordinal: int) -> date | None:
            if ordinal == 0:
                return None
            value = days.get(ordinal)
            if value is None:
                value = days[ordinal] = date.fromordinal(ordinal)
            return value

        columns = (self.player, self.seq, self.is_game, self.day, self.tournament, self.game, self.opponent,
                   self.year, self.before, self.after, self.change, self.games_before, self.opponent_rating, self.k,
                   self.expected, self.score, self.last_played)
        code = self.code
        for (player, seq, is_game, on, tid, gid, opponent, year, before, after, change, games, opponent_rating, k,
             expected, score, played) in zip(*(column.tolist() for column in columns), strict=True):
            if is_game:
                yield (code, player, seq, "game", day(on), tid, gid, opponent, None, before, after, change, games,
                       opponent_rating, k, expected, score, day(played))
            else:
                yield (code, player, seq, "adjustment", day(on), None, None, None, year, before, after, change,
                       games, None, None, None, None, day(played))


@dataclass(frozen=True)
class RecordColumns:
    """The engine's game records (ratings.engine.GameRecord), one array per field, in replay order: made once
    by the history's expansion and read again by the standings (tournaments.results)."""

    game: np.ndarray
    tournament: np.ndarray
    a: np.ndarray
    b: np.ndarray
    before_a: np.ndarray
    change_a: np.ndarray
    k_a: np.ndarray
    before_b: np.ndarray
    change_b: np.ndarray
    k_b: np.ndarray
    p_a: np.ndarray  # floats
    # Each game's result as an index into `result_codes`, when known (the expansion looks them up anyway).
    result: np.ndarray | None = None
    result_codes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.game)

    def with_results(self, result_of: Mapping[int, str], codes: tuple[str, ...]) -> RecordColumns:
        """These records with each game's result looked up (`result_of`: game -> result code) as an index into
        `codes`."""
        return replace(self, result=result_indexes(self.game, result_of, codes), result_codes=codes)

    @classmethod
    def joined(cls, parts: list[RecordColumns]) -> RecordColumns:
        names = list(cls.__dataclass_fields__)[:_P_A + 1]
        fields = [np.concatenate([getattr(part, name) for part in parts]) if parts else np.zeros(0, dtype=dtype)
                  for name, dtype in zip(names, (*[np.int64] * _P_A, np.float64), strict=True)]
        codes = {part.result_codes for part in parts}
        if parts and len(codes) == 1 and all(part.result is not None for part in parts):
            return cls(*fields, np.concatenate([part.result for part in parts]), codes.pop())
        return cls(*fields)


def record_columns(games: list[tuple]) -> RecordColumns:
    """`games` (the engine's records) as columns."""
    n = len(games)
    # Every field of every record in one pass, as floats (IDs, ratings and counts are far below 2**53: exact).
    width = len(games[0]) if n else _P_A + 1
    records = np.fromiter(chain.from_iterable(games), dtype=np.float64, count=n * width).reshape(n, width)
    return RecordColumns(*np.array(records[:, :_P_A].T, dtype=np.int64), np.array(records[:, _P_A]))


def event_columns(*, code: str, games: list[tuple] | RecordColumns, adjustments: list[tuple],
                  end_of: Mapping[int, date], result_of: Mapping[int, str], values: Mapping[str, tuple[float, float]],
                  first_seq: int, start_games: Mapping[int, int], start_played: Mapping[int, date | None],
                  spare: int) -> EventColumns:
    """Expand the engine's game records (`games`, replay order, or their columns) and `adjustments` (year,
    player, before, after) into event rows numbered from `first_seq`.

    `end_of`: each tournament's end date; `result_of`: each game's result code and `values` each code's result
    values (A, B); `start_games` and `start_played`: the players' rated games and last rated game before the
    first row (none: 0 games, never played)."""
    records = games if isinstance(games, RecordColumns) else record_columns(games)
    return _event_columns(code=code, records=records, adjustments=adjustments, end_of=end_of, result_of=result_of,
                          values=values, first_seq=first_seq, starts=PlayerStarts.of(start_games, start_played),
                          spare=spare)


def _event_columns(*, code: str, records: RecordColumns, adjustments: list[tuple], end_of: Mapping[int, date],
                   result_of: Mapping[int, str], values: Mapping[str, tuple[float, float]], first_seq: int,
                   starts: PlayerStarts, spare: int) -> EventColumns:
    n = len(records)
    gid, tid, a, b, p_a = records.game, records.tournament, records.a, records.b, records.p_a
    before_a, change_a, k_a = records.before_a, records.change_a, records.k_a
    before_b, change_b, k_b = records.before_b, records.change_b, records.k_b
    end = _ordinals_of(tid, end_of)
    if n and np.any(np.diff(end) < 0):
        raise ValueError("game records are not in replay order")
    codes = tuple(sorted(values))
    known = records.result is not None and records.result_codes == codes
    result = records.result if known else result_indexes(gid, result_of, codes)
    s_a = np.array([values[c][0] for c in codes] or [0.0], dtype=np.float64)[result]
    s_b = np.array([values[c][1] for c in codes] or [0.0], dtype=np.float64)[result]

    year, adjusted, adj_before, adj_after = (np.array([row[i] for row in adjustments], dtype=np.int64)
                                             for i in range(4))
    new_year = _ordinals_of(year, {y: date(y, 12, 31) for y in set(year.tolist())})
    # Each adjustment goes before the first game of a tournament ending after its 31 December.
    games_before_adjustment = np.searchsorted(end, new_year, side="right")

    on_a, on_b = a != spare, b != spare
    m, count_a = len(adjustments), int(on_a.sum())
    count_b = int(on_b.sum())
    zeros = np.zeros(m, dtype=np.int64)
    index = np.arange(n, dtype=np.int64)
    position = np.concatenate([3 * index[on_a] + 1, 3 * index[on_b] + 2, 3 * games_before_adjustment])
    order = np.argsort(position, kind="stable")

    def column(side_a, side_b, adjustment) -> np.ndarray:
        return np.concatenate([side_a[on_a], side_b[on_b], adjustment])[order]

    player = column(a, b, adjusted)
    is_game = np.concatenate([np.ones(count_a + count_b, dtype=bool), np.zeros(m, dtype=bool)])[order]
    day = column(end, end, new_year)
    before = column(before_a, before_b, adj_before)
    change = column(change_a, change_b, adj_after - adj_before)
    games_before, last_played = _player_cumulations(player, is_game, day, starts)
    return EventColumns(
        code=code,
        player=player,
        seq=np.arange(first_seq, first_seq + len(player), dtype=np.int64),
        is_game=is_game,
        day=day,
        tournament=column(tid, tid, zeros),
        game=column(gid, gid, zeros),
        opponent=column(b, a, zeros),
        year=column(np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), year),
        before=before,
        after=before + change,
        change=change,
        games_before=games_before,
        opponent_rating=column(before_b, before_a, zeros),
        k=column(k_a, k_b, zeros),
        expected=column(p_a, 1.0 - p_a, np.zeros(m)),
        score=column(s_a, s_b, np.zeros(m)),
        last_played=last_played,
    )


def result_indexes(gid: np.ndarray, result_of: Mapping[int, str], codes: tuple[str, ...]) -> np.ndarray:
    """The index in `codes` of each game's result (`result_of`: game -> result code)."""
    code_index = {result: i for i, result in enumerate(codes)}
    return np.array([code_index[result_of[g]] for g in gid.tolist()], dtype=np.int64)


def _ordinals_of(keys: np.ndarray, dates: Mapping[int, date]) -> np.ndarray:
    """The ordinal of `dates[key]` for each key (one lookup per distinct key)."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    ordinals = np.array([dates[key].toordinal() for key in distinct.tolist()], dtype=np.int64)
    return ordinals[inverse] if len(keys) else np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class PlayerStarts:
    """Players' rated games and last rated game (an ordinal, 0: never) before some row, as columns sorted by
    player: what each chunk of the expansion starts from and hands on, looked up for a chunk's players at
    once (a dict per player cost a third of the expansion)."""

    player: np.ndarray
    games: np.ndarray
    played: np.ndarray

    @classmethod
    def of(cls, start_games: Mapping[int, int], start_played: Mapping[int, date | None]) -> PlayerStarts:
        players = sorted(set(start_games) | set(start_played))
        return cls(np.array(players, dtype=np.int64),
                   np.array([start_games.get(p, 0) for p in players], dtype=np.int64),
                   np.array([_ordinal(start_played.get(p)) for p in players], dtype=np.int64))

    def lookup(self, players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The games and last game of each of `players` (0 and 0 for a player not known)."""
        if not len(self.player):  # nothing known: no value to take even where no player is found
            return np.zeros(len(players), dtype=np.int64), np.zeros(len(players), dtype=np.int64)
        found, known = sorted_lookup(self.player, players)
        return np.where(known, self.games[found], 0), np.where(known, self.played[found], 0)

    def updated(self, players: np.ndarray, games: np.ndarray, played: np.ndarray) -> PlayerStarts:
        """These starts with those of `players` (distinct, sorted) replaced by `games` and `played`."""
        kept = ~np.isin(self.player, players, assume_unique=True)
        player = np.concatenate([self.player[kept], players])
        order = np.argsort(player, kind="stable")
        return PlayerStarts(player[order], np.concatenate([self.games[kept], games])[order],
                            np.concatenate([self.played[kept], played])[order])


def _player_cumulations(player: np.ndarray, is_game: np.ndarray, day: np.ndarray, starts: PlayerStarts
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the player's rated games before it (start count + earlier game rows) and the ordinal of the
    player's last rated game before it (the latest earlier game row, else the start date, else 0)."""
    if not len(player):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    players, group = np.unique(player, return_inverse=True)
    first_games, first_played = starts.lookup(players)
    # Rows grouped by player, in history order within each group (a stable sort keeps it).
    by_player = np.argsort(group, kind="stable")
    grouped = group[by_player]
    games = is_game[by_player].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    earlier = np.cumsum(games) - games
    earlier -= np.repeat(earlier[starts], np.diff(np.r_[starts, len(grouped)]))
    # Latest game day up to each row within its group: offset each group above the previous one so that one
    # running maximum never carries a day across players (days + 1, 0 meaning none yet).
    span = int(day.max()) + 2
    running = np.maximum.accumulate(grouped * span + np.where(games == 1, day[by_player] + 1, 0)) - grouped * span
    previous = np.r_[0, running[:-1]]
    previous[starts] = 0
    last = np.where(previous > 0, previous - 1, first_played[grouped])
    games_before = np.empty_like(earlier)
    games_before[by_player] = earlier + first_games[grouped]
    last_played = np.empty_like(last)
    last_played[by_player] = last
    return games_before, last_played


def _ordinal(value: date | None) -> int:
    return 0 if value is None else value.toordinal()


class EventExpansion:
    """The history's event rows made chunk by chunk while the engine runs (its `progress`), numbered on from
    `first_seq`: each call of `next` expands the records added since the last one, the players' game counts
    and last rated games carried over. The chunks, one after the other, are exactly `event_columns` of the
    whole history (tested)."""

    def __init__(self, *, code: str, end_of: Mapping[int, date], result_of: Mapping[int, str],
                 values: Mapping[str, tuple[float, float]], first_seq: int, start_games: Mapping[int, int],
                 start_played: Mapping[int, date | None], spare: int) -> None:
        self._fixed = {"code": code, "end_of": end_of, "result_of": result_of, "values": values, "spare": spare}
        self._seq = first_seq
        self._starts = PlayerStarts.of(start_games, start_played)
        self._codes = tuple(sorted(values))  # the result codes a record's result indexes
        self._done = (0, 0)  # game records, adjustments expanded so far
        self._records: list[RecordColumns] = []

    def next(self, games: list[tuple], adjustments: list[tuple]) -> EventColumns:
        """The rows of the records of `games` and `adjustments` (the engine's growing lists) not expanded yet."""
        done_games, done_adjustments = self._done
        records = record_columns(games[done_games:]).with_results(self._fixed["result_of"], self._codes)
        self._records.append(records)
        columns = _event_columns(records=records, adjustments=adjustments[done_adjustments:],
                                 first_seq=self._seq, starts=self._starts, **self._fixed)
        self._done = (len(games), len(adjustments))
        self._seq += len(columns)
        self._carry(columns)
        return columns

    def records(self) -> RecordColumns:
        """The columns of every game record expanded so far."""
        if len(self._records) != 1:
            self._records = [RecordColumns.joined(self._records)]
        return self._records[0]

    def _carry(self, columns: EventColumns) -> None:
        """Each player's rated games and last rated game after `columns`: what the next chunk starts from."""
        if not len(columns):
            return
        players, from_end = np.unique(columns.player[::-1], return_index=True)
        last = len(columns) - 1 - from_end  # each player's last row
        is_game = columns.is_game[last]
        games = columns.games_before[last] + is_game
        played = np.where(is_game, columns.day[last], columns.last_played[last])
        self._starts = self._starts.updated(players, games, played)
