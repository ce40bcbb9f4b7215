"""The Elo engine: readable rules for one game, and the replay of a whole history (RULES.md §2, §3, §5).

Terms
-----
rating (N)
    A player's Elo level, a whole number.
games
    The rated games a player had played before the game being rated.
K
    The most one game can move a rating (ruleset K bands, read from rating and games).
expected score (P)
    P_A = 1 / (1 + 10^((N_B - N_A) / D)), D the ruleset's scale; P_B = 1 - P_A. Differences are clamped to
    +/- 10 x D (see rules.rulesets), in the readable helpers and in the engine alike.
result value (S)
    What a side scores for Elo (1, 0.5, 0; Battle Empire up to 1.5), from the result code.
raw change
    K x (S - P), after the gap rule, before rounding. The change is the raw change rounded as the ruleset
    says (truncated toward zero for AdlG).
spare
    The stand-in for an odd player (ID 99): rated at `ruleset.spare_rating`, never changed, never listed,
    no game count. A game against the spare is rated for the real player only.
excluded player
    Leaves every list (final states, pre-tournament ratings, adjustments); the games are void for both sides.
rated game
    A game of an official tournament, neither a forfeit nor involving an excluded player. Free games
    are rated.
replay point
    Where an event sits in history: (end, start, id) for a tournament, (31 Dec Y, date.max, inf) for the
    inactivity adjustment of year Y, which therefore follows every tournament ending on or before 31 Dec Y.
closed year
    A year whose inactivity adjustment has been run (§5).

Replay
------
`replay` applies, in replay-point order, the official tournaments' rated games and the adjustments of the
closed years, and returns a `History`. With `start_state` and `after` it replays only what follows a point
(an old correction recomputes only what follows it); see `replay`.

For the 'tournament' rating period (classic Elo) every game of a tournament is rated from the pre-tournament
ratings; each game record has before = the pre-tournament rating and the raw contribution of that game; the
player's last game of the tournament carries the whole rounded change, the earlier ones a change of 0. So,
for every ruleset, the changes of a player's records add up to the player's rating change.

Speed: the hot loop reads precomputed tables (one per K and result value, indexed by the rating difference)
giving the rounded change, the raw change, K and P at once; `game_change` is the readable version and the
tests hold both to the same results. The tables are built once per process and ruleset (about 0.1 s). The
cyclic garbage collector is paused during a replay: it only makes acyclic tuples.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import NamedTuple

from rules.rulesets import SPARE_ID, Ruleset

_SPARE = -1  # dense index of the spare
_EXCLUDED = -2  # dense index of an excluded player
_NEVER = 10**9  # a year no one reaches


# --- inputs -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Game:
    """One game of a tournament; treat it as read-only. Not frozen: a full replay makes a million of them, and a
    frozen dataclass costs twice as much to make (each field set through object.__setattr__); not a named tuple
    either, whose fields the engine's hot loop reads more slowly than slots."""

    id: int
    round: int
    table: int
    a: int
    b: int
    result: str
    free: bool = False


@dataclass(frozen=True)
class Tournament:
    id: int
    start: date
    end: date
    official: bool
    games: Sequence[Game]
    players: Sequence[int] = ()  # registered players, whether they played or not


class PlayerState(NamedTuple):
    """A player's state at a point of history. A named tuple: replays make and read a hundred thousand of them
    (the whole list), and a frozen dataclass costs three times as much to make."""

    rating: int
    games: int
    last_played: date | None = None  # end of the last tournament where the player had a rated game


@dataclass(frozen=True, slots=True)
class Opening:
    """A balance migrated from the old site; `as_of` None means "before any history"."""

    player: int
    rating: int
    games: int
    as_of: date | None = None


# --- outputs ------------------------------------------------------------------------------------------


class GameRecord(NamedTuple):
    """Field order of `History.games` rows (they are plain tuples; `GameRecord._make(row)` names them).

    A spare side has k 0, change 0, raw 0.0 and before = the spare's rating: skip it.
    """

    game: int
    tournament: int
    a: int
    b: int
    before_a: int
    change_a: int
    k_a: int
    before_b: int
    change_b: int
    k_b: int
    p_a: float  # expected score of A; B's is 1 - p_a
    raw_a: float
    raw_b: float


class Adjustment(NamedTuple):
    """Field order of `History.adjustments` rows: only adjustments that change a rating are recorded."""

    year: int
    player: int
    before: int
    after: int


class History(NamedTuple):
    games: list[tuple]  # GameRecord rows, in replay order
    adjustments: list[tuple]  # Adjustment rows, by year then player
    final: dict[int, PlayerState]  # every player met (games, registrations, openings, start_state)
    pre_tournament: dict[int, dict[int, tuple[int, int]]]  # tournament -> player -> (rating, games) before it


class PeriodChange(NamedTuple):
    change: int
    raw: float
    expected: float
    k: int


class InvalidGame(ValueError):
    """A fact the replay cannot rate; the message names the tournament and the game."""


class UnknownResult(InvalidGame):
    pass


# --- readable rules -----------------------------------------------------------------------------------


def k_factor(ruleset: Ruleset, rating: int, games: int) -> int:
    return next(band.k for band in ruleset.k_bands if band.applies(rating, games))


def _clamped(ruleset: Ruleset, diff: int) -> int:
    limit = ruleset.diff_limit
    return max(-limit, min(limit, diff))


def _p(diff: int, scale: int) -> float:
    # The one expression for P, shared by the helpers and the engine's table so both agree to the bit.
    return 1.0 / (1.0 + 10.0 ** (diff / scale))


def expected_score(ruleset: Ruleset, rating: int, opp_rating: int) -> float:
    return _p(_clamped(ruleset, opp_rating - rating), ruleset.scale)


def _half_away(raw: float) -> int:
    # Not round(): Python rounds halves to even, and floor(|x| + 0.5) errs just below a half.
    magnitude = abs(raw)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:
        whole += 1
    return whole if raw >= 0 else -whole


_ROUNDERS = {"truncate": int, "half_away": _half_away}


def round_change(ruleset: Ruleset, raw: float) -> int:
    return _ROUNDERS[ruleset.rounding](raw)


def _raw(ruleset: Ruleset, *, k: int, s: float, p: float, lead: int) -> float:
    """K x (S - P) after the gap rule; `lead` is own rating minus the opponent's (clamped)."""
    raw = k * (s - p)
    if ruleset.gap is not None and lead >= ruleset.gap and raw > 0:
        return 0.0
    return raw


def result_values(ruleset: Ruleset, result: str) -> tuple[float, float]:
    try:
        return ruleset.result_values[result]
    except KeyError:
        if result in ruleset.forfeits:
            raise UnknownResult(f"{result!r} is a forfeit: forfeits are not rated") from None
        known = ", ".join(sorted(ruleset.codes))
        raise UnknownResult(f"unknown result {result!r} for {ruleset.code} (known: {known})") from None


def game_change(
    ruleset: Ruleset, a_rating: int, a_games: int, b_rating: int, b_games: int, result: str
) -> tuple[int, int, int, int, float]:
    """(delta_a, delta_b, k_a, k_b, p_a) for one rated game, rounded, gap rule applied."""
    s_a, s_b = result_values(ruleset, result)
    k_a = k_factor(ruleset, a_rating, a_games)
    k_b = k_factor(ruleset, b_rating, b_games)
    diff = _clamped(ruleset, b_rating - a_rating)
    p_a = _p(diff, ruleset.scale)
    raw_a = _raw(ruleset, k=k_a, s=s_a, p=p_a, lead=-diff)
    raw_b = _raw(ruleset, k=k_b, s=s_b, p=1.0 - p_a, lead=diff)
    return round_change(ruleset, raw_a), round_change(ruleset, raw_b), k_a, k_b, p_a


def tournament_change(
    ruleset: Ruleset, *, rating: int, games: int, results: Sequence[tuple[int, str]]
) -> PeriodChange:
    """One player's change over a 'tournament' rating period.

    `results` are (opponent's pre-tournament rating, result code with the player as side A). Every game uses
    the player's pre-tournament rating and game count; the raw changes are summed and rounded once.
    """
    k = k_factor(ruleset, rating, games)
    raw = expected = 0.0
    for opp_rating, result in results:
        s, _ = result_values(ruleset, result)
        diff = _clamped(ruleset, opp_rating - rating)
        p = _p(diff, ruleset.scale)
        expected += p
        raw += _raw(ruleset, k=k, s=s, p=p, lead=-diff)
    return PeriodChange(round_change(ruleset, raw), raw, expected, k)


def inactivity_adjusted(ruleset: Ruleset, rating: int) -> int:
    for step in ruleset.inactivity:
        if rating > step.above:
            lowered = rating - step.amount
            floor = ruleset.inactivity_floor
            return lowered if floor is None else max(floor, lowered)
    return rating


# --- engine tables ------------------------------------------------------------------------------------


class _Tables(NamedTuple):
    limit: int  # C: differences are clamped to [-C, C], table index = difference + C
    games_cap: int  # game counts at or above this all select the same K
    rating_base: int  # rating index = rating - rating_base, clamped to [0, rating_top]
    rating_top: int
    # result code -> (grid of A, grid of B); grid[games bucket][rating index][difference index] gives
    # (change, raw, k, p_a) for A and (change, raw, k) for B.
    sides: dict[str, tuple[list, list]]
    p: list[float]


def _thresholds(ruleset: Ruleset) -> tuple[list[int], list[int]]:
    games, ratings = set(), set()
    for band in ruleset.k_bands:
        games.update(x for x in (band.min_games, None if band.max_games is None else band.max_games + 1) if x)
        ratings.update(
            x for x in (band.min_rating, None if band.max_rating is None else band.max_rating + 1)
            if x is not None
        )  # fmt: skip
    return sorted(games), sorted(ratings)


@lru_cache(maxsize=16)
def _tables(ruleset: Ruleset) -> _Tables:
    limit = ruleset.diff_limit
    p = [_p(d, ruleset.scale) for d in range(-limit, limit + 1)]
    game_marks, rating_marks = _thresholds(ruleset)
    games_cap = game_marks[-1] if game_marks else 0
    # Index 0 stands for every rating below the first threshold, the last for every rating from the last.
    rating_base = rating_marks[0] - 1 if rating_marks else 0
    rating_top = rating_marks[-1] - rating_base if rating_marks else 0
    by_value: dict[tuple, list] = {}

    def column(k: int, s: float, side: str) -> list:
        # The same expressions as `game_change` (through `_raw`), list by list: identical floats.
        key = (k, s, side)
        if key not in by_value:
            own_p = p if side == "a" else [1.0 - p_a for p_a in p]
            raws = [k * (s - q) for q in own_p]
            if ruleset.gap is not None:
                for i in range(len(raws)):
                    lead = limit - i if side == "a" else i - limit  # own rating minus the opponent's
                    if lead >= ruleset.gap and raws[i] > 0:
                        raws[i] = 0.0
            changes = map(_ROUNDERS[ruleset.rounding], raws)
            extra = (repeat(k), p) if side == "a" else (repeat(k),)
            by_value[key] = list(zip(changes, raws, *extra, strict=False))
        return by_value[key]

    def grid(s: float, side: str) -> list[list[list]]:
        return [
            [column(k_factor(ruleset, rating_base + x, g), s, side) for x in range(rating_top + 1)]
            for g in range(games_cap + 1)
        ]

    sides = {o.code: (grid(float(o.a), "a"), grid(float(o.b), "b")) for o in ruleset.outcomes}
    return _Tables(limit, games_cap, rating_base, rating_top, sides, p)


# --- replay state -------------------------------------------------------------------------------------


def _point_key(after: tuple[date, date, int] | date | None) -> tuple:
    if after is None:
        return (date.min, date.min, -math.inf)
    if isinstance(after, date):
        return (after, date.max, math.inf)
    return tuple(after)


def _tournament_key(t: Tournament) -> tuple:
    return (t.end, t.start, t.id)


def _year_key(year: int) -> tuple:
    return (date(year, 12, 31), date.max, math.inf)


class _State:
    """Per-player state in lists indexed by a dense index; ids are mapped once, on first sight."""

    def __init__(self, ruleset: Ruleset, *, excluded: Iterable[int], spare: int) -> None:
        self.initial = ruleset.initial_rating
        self.spare_rating = ruleset.spare_rating
        self.index: dict[int, int] = dict.fromkeys(excluded, _EXCLUDED)
        self.index[spare] = _SPARE
        self.ids: list[int] = []
        self.rating: list[int] = []
        self.games: list[int] = []
        self.last: list[date | None] = []
        self.open_year: list[int] = []  # from which year an opening balance counts as activity (§5)
        self.skip = {p for p, i in self.index.items() if i < 0}
        # Players (dense indices) whose rating may exceed the lowest inactivity threshold: those above it
        # at the last close (None: not known yet, look at everyone), and those who played a tournament since.
        self.watch: set[int] | None = None
        self.touched: set[int] = set()

    def add(self, players: list[int], *, rating: int, games: int, last: date | None = None) -> None:
        first = len(self.ids)
        self.index.update(zip(players, range(first, first + len(players)), strict=True))
        self.ids.extend(players)
        self.rating.extend([rating] * len(players))
        self.games.extend([games] * len(players))
        self.last.extend([last] * len(players))
        self.open_year.extend([_NEVER] * len(players))

    def load(self, openings: Iterable[Opening], start_state: Mapping[int, PlayerState]) -> None:
        for player in sorted(start_state):
            if player not in self.index:
                s = start_state[player]
                self.add([player], rating=s.rating, games=s.games, last=s.last_played)
        for o in sorted(openings, key=attrgetter("player")):
            if o.player not in self.index:
                self.add([o.player], rating=o.rating, games=o.games)
            i = self.index[o.player]
            if i >= 0 and o.games > 0:
                self.open_year[i] = -_NEVER if o.as_of is None else o.as_of.year

    def enter(self, t: Tournament) -> dict[int, tuple[int, int]]:
        """Registers new players and returns each participant's (rating, games) before `t`."""
        index, rating, games = self.index, self.rating, self.games
        players = {*t.players, *map(_A, t.games), *map(_B, t.games)}
        players.difference_update(self.skip)
        new = players.difference(index)
        if new:
            self.add(sorted(new), rating=self.initial, games=0)
        pre = {p: (rating[i], games[i]) for p in players for i in (index[p],)}
        self.touched.update(map(index.__getitem__, players))  # while these entries are fresh in the cache
        return pre

    def close_year(self, ruleset: Ruleset, year: int, out: list[tuple]) -> None:
        """The inactivity adjustment of `year`: only ratings above the lowest step can move."""
        if not ruleset.inactivity:
            return
        lowest = min(step.above for step in ruleset.inactivity)
        rating, last, open_year, ids = self.rating, self.last, self.open_year, self.ids
        watch = range(len(rating)) if self.watch is None else self.watch | self.touched
        adjusted: dict[int, int] = {}  # the same few hundred ratings recur among thousands of players
        changed = []
        still_high = set()
        for i in watch:
            before = rating[i]
            if before <= lowest:
                continue
            played = last[i]
            if played is None:
                if open_year[i] > year:
                    still_high.add(i)
                    continue  # no activity at all yet: a newcomer is not inactive
            elif played.year == year:
                still_high.add(i)
                continue
            after = adjusted.get(before)
            if after is None:
                after = adjusted[before] = inactivity_adjusted(ruleset, before)
            if after != before:
                changed.append((year, ids[i], before, after))
                rating[i] = after
            if after > lowest:
                still_high.add(i)
        self.watch, self.touched = still_high, set()
        changed.sort(key=itemgetter(1))
        out.extend(changed)

    def final(self) -> dict[int, PlayerState]:
        return dict(zip(self.ids, map(PlayerState, self.rating, self.games, self.last), strict=True))


# --- rating one tournament ----------------------------------------------------------------------------

_ORDER = attrgetter("round", "table", "id")
_A = attrgetter("a")
_B = attrgetter("b")


def _rate_by_game(
    ruleset: Ruleset, t: Tournament, games: list[Game], tables: _Tables, state: _State, out: list
) -> None:
    """The hot loop: each game rated from the ratings left by the previous one."""
    forfeits = ruleset.forfeits
    index, rating, count, last = state.index, state.rating, state.games, state.last
    end = t.end
    sides = tables.sides
    limit, cap, base, top = tables.limit, tables.games_cap, tables.rating_base, tables.rating_top
    below = -limit
    append, tid = out.append, t.id
    for g in games:
        grids = sides.get(g.result)
        if grids is None:
            if g.result in forfeits:
                continue
            raise _unknown_result(ruleset, t, g)
        a = g.a
        b = g.b
        ia = index[a]
        ib = index[b]
        if ia < 0 or ib < 0 or ia == ib:
            _rate_odd_game(t, g, ia, ib, tables, state, out)
            continue
        ra = rating[ia]
        rb = rating[ib]
        ga = count[ia]
        gb = count[ib]
        d = rb - ra
        if d > limit:
            d = limit
        elif d < below:
            d = below
        i = d + limit
        grid_a, grid_b = grids
        x = ra - base
        da, wa, ka, pa = grid_a[ga if ga < cap else cap][0 if x < 0 else (x if x < top else top)][i]
        x = rb - base
        db, wb, kb = grid_b[gb if gb < cap else cap][0 if x < 0 else (x if x < top else top)][i]
        rating[ia] = ra + da
        rating[ib] = rb + db
        count[ia] = ga + 1
        count[ib] = gb + 1
        last[ia] = last[ib] = end
        append((g.id, tid, a, b, ra, da, ka, rb, db, kb, pa, wa, wb))


def _rate_odd_game(
    t: Tournament, g: Game, ia: int, ib: int, tables: _Tables, state: _State, out: list
) -> None:
    """A game involving the spare or an excluded player."""
    if g.a == g.b:
        raise _self_game(t, g)
    if _EXCLUDED in (ia, ib):
        return  # void for both sides
    rating, count, spare = state.rating, state.games, state.spare_rating
    ra = spare if ia < 0 else rating[ia]
    rb = spare if ib < 0 else rating[ib]
    limit, cap, base, top = tables.limit, tables.games_cap, tables.rating_base, tables.rating_top
    i = max(-limit, min(limit, rb - ra)) + limit
    da = db = ka = kb = 0
    wa = wb = 0.0
    if ia >= 0:
        x = max(0, min(top, ra - base))
        da, wa, ka, pa = tables.sides[g.result][0][min(count[ia], cap)][x][i]
        rating[ia] = ra + da
        count[ia] += 1
        state.last[ia] = t.end
    else:
        pa = tables.p[i]
        x = max(0, min(top, rb - base))
        db, wb, kb = tables.sides[g.result][1][min(count[ib], cap)][x][i]
        rating[ib] = rb + db
        count[ib] += 1
        state.last[ib] = t.end
    out.append((g.id, t.id, g.a, g.b, ra, da, ka, rb, db, kb, pa, wa, wb))


def _rate_by_tournament(ruleset: Ruleset, t: Tournament, games: list[Game], state: _State, out: list) -> None:
    """The 'tournament' period: every game from pre-tournament values, one rounding per player."""
    index, rating, count, spare = state.index, state.rating, state.games, state.spare_rating
    rows = []
    total: dict[int, float] = {}
    played: dict[int, int] = {}
    last_row: dict[int, int] = {}
    for g in games:
        if g.result not in ruleset.result_values:
            if g.result in ruleset.forfeits:
                continue
            raise _unknown_result(ruleset, t, g)
        ia, ib = index[g.a], index[g.b]
        if g.a == g.b:
            raise _self_game(t, g)
        if _EXCLUDED in (ia, ib):
            continue
        ra = spare if ia < 0 else rating[ia]
        rb = spare if ib < 0 else rating[ib]
        s_a, s_b = ruleset.result_values[g.result]
        diff = _clamped(ruleset, rb - ra)
        p_a = _p(diff, ruleset.scale)
        ka = kb = 0
        wa = wb = 0.0
        if ia >= 0:
            ka = k_factor(ruleset, ra, count[ia])
            wa = _raw(ruleset, k=ka, s=s_a, p=p_a, lead=-diff)
            total[ia] = total.get(ia, 0.0) + wa
            played[ia] = played.get(ia, 0) + 1
            last_row[ia] = len(rows)
        if ib >= 0:
            kb = k_factor(ruleset, rb, count[ib])
            wb = _raw(ruleset, k=kb, s=s_b, p=1.0 - p_a, lead=diff)
            total[ib] = total.get(ib, 0.0) + wb
            played[ib] = played.get(ib, 0) + 1
            last_row[ib] = len(rows)
        rows.append((g.id, t.id, g.a, g.b, ra, ka, rb, kb, p_a, wa, wb, ia, ib))
    change = {i: round_change(ruleset, raw) for i, raw in total.items()}
    for n, (gid, tid, a, b, ra, ka, rb, kb, p_a, wa, wb, ia, ib) in enumerate(rows):
        da = change[ia] if ia >= 0 and last_row[ia] == n else 0
        db = change[ib] if ib >= 0 and last_row[ib] == n else 0
        out.append((gid, tid, a, b, ra, da, ka, rb, db, kb, p_a, wa, wb))
    for i, delta in change.items():
        rating[i] += delta
        count[i] += played[i]
        state.last[i] = t.end


def _self_game(t: Tournament, g: Game) -> InvalidGame:
    return InvalidGame(f"tournament {t.id}, game {g.id}: player {g.a} cannot play against himself")


def _unknown_result(ruleset: Ruleset, t: Tournament, g: Game) -> UnknownResult:
    known = ", ".join(sorted(ruleset.codes))
    return UnknownResult(
        f"tournament {t.id}, game {g.id}: unknown result {g.result!r} for {ruleset.code} (known: {known})"
    )


# --- replay -------------------------------------------------------------------------------------------


def replay(
    ruleset: Ruleset,
    *,
    tournaments: Iterable[Tournament],
    openings: Iterable[Opening] = (),
    closed_years: Iterable[int] = (),
    excluded: Iterable[int] = frozenset(),
    spare: int = SPARE_ID,
    start_state: Mapping[int, PlayerState] | None = None,
    after: tuple[date, date, int] | date | None = None,
    progress: Callable[[list, list], None] | None = None,
    every: int = 200_000,
) -> History:
    """Rates the history and returns its `History`.

    Incremental replay: `after` is a replay point, either a tournament's (end, start, id) — "just after that
    tournament" — or a date d — "at the end of day d, the adjustment of d's year included when d is 31 Dec".
    Only tournaments and closed years strictly after it are replayed; earlier ones may be passed and are
    skipped. `start_state` is every player's state at that point (e.g. the `final` of a replay of what
    precedes it); openings should be passed again: a player already in `start_state` keeps that state and
    the opening only tells from when it counts as activity for the adjustment. Players neither in
    `start_state` nor in `openings` start from the ruleset's initial rating.

    `progress(games, adjustments)`, if given, is called between tournaments each time at least `every` more
    game records are made, with the History's growing lists (records already made never change): the caller
    can write the history so far while the rest is rated. It is not called at the end.
    """
    with collector_paused():
        return _replay(
            ruleset,
            tournaments=tournaments,
            openings=openings,
            closed_years=closed_years,
            excluded=excluded,
            spare=spare,
            start_state=start_state or {},
            point=_point_key(after),
            progress=progress,
            every=every,
        )


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic collector off for a block that holds millions of small acyclic tuples (a history, its
    standings, its rows): each of its full passes would walk them all for nothing, seconds on a million games.
    Reference counting frees them. Nests: only the outermost block turns it back on."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _replay(
    ruleset: Ruleset,
    *,
    tournaments: Iterable[Tournament],
    openings: Iterable[Opening],
    closed_years: Iterable[int],
    excluded: Iterable[int],
    spare: int,
    start_state: Mapping[int, PlayerState],
    point: tuple,
    progress: Callable[[list, list], None] | None,
    every: int,
) -> History:
    state = _State(ruleset, excluded=excluded, spare=spare)
    state.load(openings, start_state)
    todo = sorted((t for t in tournaments if _tournament_key(t) > point), key=_tournament_key)
    years = sorted(y for y in set(closed_years) if _year_key(y) > point)
    tables = _tables(ruleset) if ruleset.period == "game" else None
    records: list[tuple] = []
    adjustments: list[tuple] = []
    pre_tournament: dict[int, dict[int, tuple[int, int]]] = {}
    y = 0
    reported = 0
    for t in todo:
        while y < len(years) and date(years[y], 12, 31) < t.end:
            state.close_year(ruleset, years[y], adjustments)
            y += 1
        pre_tournament[t.id] = state.enter(t)
        if not t.official:
            continue
        games = sorted(t.games, key=_ORDER)
        if tables is not None:
            _rate_by_game(ruleset, t, games, tables, state, records)
        else:
            _rate_by_tournament(ruleset, t, games, state, records)
        if progress is not None and len(records) - reported >= every:
            progress(records, adjustments)
            reported = len(records)
    for year in years[y:]:
        state.close_year(ruleset, year, adjustments)
    return History(records, adjustments, state.final(), pre_tournament)
