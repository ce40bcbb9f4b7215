"""The rating history: every rated game and yearly downgrade, in order, on plain values (RULES.md §2, §3, §5).

Terms
-----
history order
    Official tournaments by (end date, start date, ID); inside one, games by (round, table). The downgrade of
    year Y comes after every tournament ending on or before 31 December Y, and only for closed years.
rated game
    A game of an official tournament that is not a forfeit and where neither player is excluded. Free games of
    the last round are rated.
spare
    The stand-in for the odd player of a pool (`rulesets.SPARE_ID`): rated at the ruleset's spare rating, never
    changed, never listed. A game against it is rated for the real player only.
excluded player
    Leaves the history entirely: no state, no event, and every game of theirs is void for both sides.
event
    One change of one player's rating: a rated game (one event per real player of the game) or a downgrade.
    Each event records the player's state just before it (rating, rated games, last rated game), so a replay
    from a date can start from the first event on or after it without reading anything older.
activity (for the downgrade)
    A player is adjusted at the close of year Y when they had a rated game before the end of Y — or an
    opening balance with games, counted from its `as_of` year — and none in a tournament ending in Y.

`replay` is the whole computation: the ratings service reads the facts, calls it, and writes what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from rules.elo import UnknownResult, game_change, inactivity_adjusted, k_factor, raw_change, round_change
from rules.elo import expected_score as expected
from rules.facts import Game, Opening, PlayerState, Tournament
from rules.rulesets import SPARE_ID, Ruleset

# From which year an opening balance counts as activity when it has no date: always.
_ALWAYS = -(10**9)


class Event(NamedTuple):
    """One change of one player's rating, with the player's state before it. A downgrade has a year and no
    tournament, game, opponent, K, expected score or result value."""

    player: int
    date: date
    tournament: int | None
    game: int | None
    opponent: int | None
    year: int | None
    rating_before: int
    rating_after: int
    games_before: int
    last_played_before: date | None
    opponent_rating: int | None
    k: int | None
    expected: float | None
    score: float | None  # the player's result value S

    @property
    def change(self) -> int:
        return self.rating_after - self.rating_before


class History(NamedTuple):
    events: list[Event]  # in history order
    final: dict[int, PlayerState]  # every player met, excluded players and the spare left out
    pre_tournament: dict[int, dict[int, tuple[int, int]]]  # tournament -> player -> (rating, games) before it


class InvalidGame(ValueError):
    """A fact the history cannot rate; the message names the tournament and the game."""


@dataclass
class _Ratings:
    """Every player's current state while the history is replayed."""

    ruleset: Ruleset
    excluded: frozenset[int]
    state: dict[int, PlayerState] = field(default_factory=dict)
    active_from: dict[int, int] = field(default_factory=dict)  # player -> year an opening counts from

    def of(self, player: int) -> PlayerState:
        if player == SPARE_ID:
            return PlayerState(self.ruleset.spare_rating, 0)
        return self.state.setdefault(player, PlayerState(self.ruleset.initial_rating, 0))


def replay(ruleset: Ruleset, *, tournaments: Iterable[Tournament], openings: Iterable[Opening] = (),
           closed_years: Iterable[int] = (), excluded: Iterable[int] = (),
           start_state: Mapping[int, PlayerState] | None = None, since: date | None = None) -> History:
    """Rates the history and returns its events, every player's final state and the pre-tournament ratings.

    From scratch, `start_state` is None and every player starts from their opening balance or the ruleset's
    initial rating. With `since`, only tournaments ending on or after it and closed years whose 31 December is on
    or after it are replayed (earlier ones may be passed and are skipped), from `start_state`: every player's
    state at that date (the ratings service reads it from the stored events). Openings should be passed again:
    they still tell from when an opening counts as activity, and start a player `start_state` does not know.
    """
    ratings = _Ratings(ruleset, frozenset(excluded))
    for player, state in (start_state or {}).items():
        if player not in ratings.excluded and player != SPARE_ID:
            ratings.state[player] = PlayerState(*state)
    for opening in sorted(openings, key=lambda o: o.player):
        if opening.player in ratings.excluded or opening.player == SPARE_ID:
            continue
        ratings.state.setdefault(opening.player, PlayerState(opening.rating, opening.games))
        if opening.games > 0:
            ratings.active_from[opening.player] = _ALWAYS if opening.as_of is None else opening.as_of.year

    todo = sorted((t for t in tournaments if since is None or t.end >= since), key=lambda t: t.order)
    years = sorted({y for y in closed_years if since is None or date(y, 12, 31) >= since})
    events: list[Event] = []
    pre_tournament: dict[int, dict[int, tuple[int, int]]] = {}
    for t in todo:
        while years and date(years[0], 12, 31) < t.end:
            _downgrade(ratings, years.pop(0), events)
        pre_tournament[t.id] = _enter(ratings, t)
        if t.official:
            rate = _rate_by_game if ruleset.period == "game" else _rate_by_tournament
            rate(ratings, t, _rated_games(ruleset, t, ratings.excluded), events)
    for year in years:
        _downgrade(ratings, year, events)
    return History(events, dict(ratings.state), pre_tournament)


def _enter(ratings: _Ratings, t: Tournament) -> dict[int, tuple[int, int]]:
    """Each player of `t` (registered or playing) and their (rating, games) before it; newcomers start here."""
    players = {e.player for e in t.entrants} | {g.a for g in t.games} | {g.b for g in t.games}
    players -= ratings.excluded | {SPARE_ID}
    return {p: tuple(ratings.of(p)[:2]) for p in sorted(players)}


def _rated_games(ruleset: Ruleset, t: Tournament, excluded: frozenset[int]) -> list[Game]:
    """The games of `t` that are rated, in (round, table) order; refuses a game the history cannot rate."""
    rated = []
    for g in sorted(t.games, key=lambda g: (g.round, g.table, g.id)):
        if g.a == g.b:
            raise InvalidGame(f"tournament {t.id}, game {g.id}: player {g.a} cannot play against himself")
        if g.result not in ruleset.result_values:
            if g.result in ruleset.forfeits:
                continue  # a forfeit is scored, never rated
            known = ", ".join(sorted(ruleset.codes))
            raise UnknownResult(f"tournament {t.id}, game {g.id}: unknown result {g.result!r} for {ruleset.code} "
                                f"(known: {known})")
        if g.a in excluded or g.b in excluded:
            continue  # void for both sides
        rated.append(g)
    return rated


def _event(t: Tournament, g: Game, player: int, before: PlayerState, after: int, opponent: int,
           opponent_rating: int, k: int, p: float, s: float) -> Event:
    return Event(player, t.end, t.id, g.id, opponent, None, before.rating, after, before.games, before.last_played,
                 opponent_rating, k, p, s)


def _rate_by_game(ratings: _Ratings, t: Tournament, games: list[Game], events: list[Event]) -> None:
    """The 'game' period: each game from the ratings the previous one left."""
    ruleset = ratings.ruleset
    for g in games:
        a, b = ratings.of(g.a), ratings.of(g.b)
        change = game_change(ruleset, a.rating, a.games, b.rating, b.games, g.result)
        s_a, s_b = ruleset.result_values[g.result]
        for player, me, other, delta, k, p, s in (
                (g.a, a, b, change.change_a, change.k_a, change.p_a, s_a),
                (g.b, b, a, change.change_b, change.k_b, 1.0 - change.p_a, s_b)):
            if player == SPARE_ID:
                continue
            opponent = g.b if player == g.a else g.a
            events.append(_event(t, g, player, me, me.rating + delta, opponent, other.rating, k, p, s))
            ratings.state[player] = PlayerState(me.rating + delta, me.games + 1, t.end)


def _rate_by_tournament(ratings: _Ratings, t: Tournament, games: list[Game], events: list[Event]) -> None:
    """The 'tournament' period: every game from the pre-tournament ratings, one rounding per player. Each game
    gives its event with the raw contribution summed so far; the player's last game carries the whole change."""
    ruleset = ratings.ruleset
    pre = {p: ratings.of(p) for g in games for p in (g.a, g.b)}
    raw: dict[int, float] = {}
    rows: list[tuple[int, Game, int, float, float]] = []  # (player, game, k, p, s)
    for g in games:
        s_a, s_b = ruleset.result_values[g.result]
        p_a = expected(ruleset, pre[g.a].rating, pre[g.b].rating)
        for player, opponent, p, s in ((g.a, g.b, p_a, s_a), (g.b, g.a, 1.0 - p_a, s_b)):
            if player == SPARE_ID:
                continue
            me, other = pre[player], pre[opponent]
            k = k_factor(ruleset, me.rating, me.games)
            raw[player] = raw.get(player, 0.0) + raw_change(ruleset, k=k, s=s, p=p, lead=me.rating - other.rating)
            rows.append((player, g, k, p, s))
    last_row = {player: index for index, (player, *_) in enumerate(rows)}
    played: dict[int, int] = {}
    for index, (player, g, k, p, s) in enumerate(rows):
        me = pre[player]
        opponent = g.b if player == g.a else g.a
        earlier = played.get(player, 0)
        before = PlayerState(me.rating, me.games + earlier, t.end if earlier else me.last_played)
        after = me.rating + (round_change(ruleset, raw[player]) if last_row[player] == index else 0)
        events.append(_event(t, g, player, before, after, opponent, pre[opponent].rating, k, p, s))
        played[player] = earlier + 1
    for player, count in played.items():
        me = pre[player]
        ratings.state[player] = PlayerState(me.rating + round_change(ruleset, raw[player]), me.games + count, t.end)


def _downgrade(ratings: _Ratings, year: int, events: list[Event]) -> None:
    """The inactivity adjustment of a closed year: players by ID, only the ratings that change recorded."""
    for player in sorted(ratings.state):
        state = ratings.state[player]
        if state.last_played is not None:
            active = state.last_played.year == year
        else:
            active = ratings.active_from.get(player, year + 1) > year  # no activity at all yet: not inactive
        if active:
            continue
        after = inactivity_adjusted(ratings.ruleset, state.rating)
        if after != state.rating:
            events.append(Event(player, date(year, 12, 31), None, None, None, year, state.rating, after, state.games,
                                state.last_played, None, None, None, None))
            ratings.state[player] = state._replace(rating=after)
