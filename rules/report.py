"""A tournament's report, from its published results: what an organiser writes in a recap, worked out.

Terms
-----
podium
    The first three of each pool's standings.
upset
    A rated game won by the lower-rated player (by rating before the game): the winner's chances (their expected
    score P, rules.predictions) say how unlikely it was; the lowest chances first.
rating move
    A player's rating after the tournament minus before it; the biggest gains and the biggest losses.
new player
    A player whose first rated game is in this tournament (no rated game before it, no opening balance).
armies
    Each army named by the tournament's players (after the board's mapping), with how many played it and their
    games won, drawn and lost (mirror games included: here the tournament, not the army, is told).
championship points
    The points the tournament gave (charter App. 6), best first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules.names import name_key

MOST = 5  # lines of each list


class Podium(NamedTuple):
    pool: str
    places: list[tuple[int, str, float]]  # (rank, name, score)


class Upset(NamedTuple):
    winner: str
    loser: str
    winner_rating: int
    loser_rating: int
    chances: float  # the winner's expected score before the game
    round: int


class Move(NamedTuple):
    name: str
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


class ArmyLine(NamedTuple):
    army: str
    players: int
    wins: int
    draws: int
    losses: int


class Report(NamedTuple):
    podiums: list[Podium]
    upsets: list[Upset]
    gains: list[Move]
    losses: list[Move]
    new_players: list[str]
    armies: list[ArmyLine]
    points: list[tuple[str, float]]


def upsets(games: Iterable[tuple[str, str, int, int, float, float, int]], most: int = MOST) -> list[Upset]:
    """From (name A, name B, rating A, rating B, P_A, S_A, round) of the rated games: the wins of the lower-rated
    player, the least likely first."""
    found = []
    for a, b, rating_a, rating_b, p_a, s_a, rnd in games:
        if s_a > 0.5 and p_a < 0.5:
            found.append(Upset(a, b, rating_a, rating_b, p_a, rnd))
        elif s_a < 0.5 and p_a > 0.5:
            found.append(Upset(b, a, rating_b, rating_a, 1 - p_a, rnd))
    return sorted(found, key=lambda u: (u.chances, u.round, u.winner))[:most]


def moves(players: Iterable[Move], most: int = MOST) -> tuple[list[Move], list[Move]]:
    """The biggest gains and the biggest losses (a player who did not move is in neither)."""
    ordered = sorted(players, key=lambda m: (-m.change, name_key(m.name)))
    gains = [m for m in ordered if m.change > 0][:most]
    losses = [m for m in reversed(ordered) if m.change < 0][:most]
    return gains, losses


def army_lines(played: Iterable[tuple[str, int, float]]) -> list[ArmyLine]:
    """From (army, player, result value) of each side of each rated game whose player named an army: each army,
    most played first."""
    counts: dict[str, list] = {}
    for army, player, s in played:
        line = counts.setdefault(army, [set(), 0, 0, 0])
        line[0].add(player)
        line[1 if s > 0.5 else 2 if s == 0.5 else 3] += 1
    lines = [ArmyLine(army, len(players), w, d, l_) for army, (players, w, d, l_) in counts.items()]
    return sorted(lines, key=lambda line: (-line.players, -(line.wins + line.draws / 2), name_key(line.army)))
