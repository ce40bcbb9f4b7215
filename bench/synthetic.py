"""A synthetic federation for benchmarks and long-history tests: the rules' plain facts, deterministic for a seed.

Terms
-----
federation
    Players (ids 1..n, skipping the spare's 99), tournaments spread over `years` like the real history in
    shared/data/real-history (a few per year at first, then steady; 8-64 players, 3-6 rounds), and opening
    balances for a few players migrated from an old site.
strength
    A hidden level per player that biases results, so ratings spread as they do in real life.
activity
    How often a player enters tournaments: a few players play a lot, most rarely (as in the real data).
Swiss-ish pairing
    Round 1 random; later rounds pair neighbours in the current standings (wins, then a random draw).
    An odd player meets the spare. A few games are forfeits; some last-round games are free. Played games have
    losses (the AdlG scores read them); players belong to a few dozen clubs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from rules.facts import Entrant, Game, Opening, Tournament
from rules.rulesets import SPARE_ID

FORFEIT_RATE = 0.005
DRAW_RATE = 0.10
DOUBLE_DEMORALISATION_RATE = 0.02
FREE_RATE = 0.03
OPENING_RATE = 0.05


@dataclass(frozen=True)
class Federation:
    tournaments: list[Tournament]
    openings: list[Opening]
    players: list[int]
    years: range

    @property
    def games(self) -> int:
        return sum(len(t.games) for t in self.tournaments)


def _player_ids(count: int) -> list[int]:
    return [p for p in range(1, count + 2) if p != SPARE_ID][:count]


# The result vocabulary of each game family: forfeits and double demoralisations exist only in AdlG.
VOCABULARIES = {"adlg": ("", True), "battle-empire": ("+", False), "classic": ("", False)}


def _result(rng: random.Random, edge: float, vocabulary: str) -> str:
    margins, adlg = VOCABULARIES[vocabulary]
    roll = rng.random()
    if adlg and roll < FORFEIT_RATE:
        return "FA" if rng.random() < 0.5 else "FB"
    if adlg and roll < FORFEIT_RATE + DOUBLE_DEMORALISATION_RATE:
        return "DD"
    if roll > 1 - DRAW_RATE:
        return "D"
    winner = "A" if rng.random() < 1.0 / (1.0 + 10.0 ** (-edge / 400.0)) else "B"
    return winner + margins * rng.randrange(3)


class _Builder:
    def __init__(self, rng: random.Random, players: list[int], vocabulary: str) -> None:
        self.rng = rng
        self.vocabulary = vocabulary
        self.players = players
        self.strength = {p: rng.gauss(0.0, 150.0) for p in players}
        self.strength[SPARE_ID] = -100.0
        self.club = {p: f"Club {rng.randrange(40)}" if rng.random() < 0.9 else None for p in players}
        self.next_game = 1

    def entrants(self, size: int) -> list[int]:
        # Squaring a uniform draw makes low indices (the keen players) far more frequent.
        n, rng = len(self.players), self.rng
        chosen: set[int] = set()
        while len(chosen) < size:
            chosen.add(self.players[int(n * rng.random() ** 2)])
        return sorted(chosen)

    def tournament(self, tid: int, start: date, size: int, rounds: int) -> Tournament:
        rng, strength = self.rng, self.strength
        entrants = self.entrants(size)
        wins = dict.fromkeys(entrants, 0)
        games = []
        for rnd in range(1, rounds + 1):
            if rnd == 1:
                order = entrants[:]
                rng.shuffle(order)
            else:
                order = sorted(entrants, key=lambda p: (-wins[p], rng.random()))
            if len(order) % 2:
                order.append(SPARE_ID)
            for table in range(len(order) // 2):
                a, b = order[2 * table], order[2 * table + 1]
                result = _result(rng, strength[a] - strength[b], self.vocabulary)
                free = rnd == rounds and rnd > 1 and rng.random() < FREE_RATE
                losses = (None, None)
                if self.vocabulary == "adlg" and result in ("A", "B", "D"):
                    winner_losses, loser_losses = rng.randrange(0, 60), rng.randrange(40, 101)
                    losses = (loser_losses, winner_losses) if result == "B" else (winner_losses, loser_losses)
                games.append(Game(self.next_game, rnd, table + 1, a, b, result, *losses, free=free))
                self.next_game += 1
                side = result.strip("F+")  # FA -> A, B++ -> B, DD stays
                winner = a if side == "A" else b if side == "B" else None
                if winner in wins:
                    wins[winner] += 1
        end = start + timedelta(days=rng.choice((0, 1, 1, 2)))
        return Tournament(tid, start, end, official=rng.random() > 0.03, games=games, rounds=rounds,
                          entrants=[Entrant(p, "A", 0, self.club[p]) for p in entrants], country="FR")


def _year_weights(years: range) -> list[float]:
    # The real history starts with a handful of tournaments a year and grows for about a third of it.
    ramp = max(1, len(years) // 3)
    return [min(1.0, (i + 1) / ramp) for i in range(len(years))]


def make_federation(
    *,
    players: int = 100_000,
    games: int = 1_000_000,
    seed: int = 1,
    years: range = range(1998, 2025),
    vocabulary: str = "adlg",
) -> Federation:
    """`vocabulary`: the result codes to use, 'adlg', 'battle-empire' (A+, B++...) or 'classic' (A, B, D)."""
    rng = random.Random(seed)
    ids = _player_ids(players)
    builder = _Builder(rng, ids, vocabulary)
    weights = _year_weights(years)
    tournaments: list[Tournament] = []
    made = 0
    while made < games:
        year = rng.choices(years, weights)[0]
        start = date(year, 1, 1) + timedelta(days=rng.randrange(364))
        size = min(64, max(8, int(rng.lognormvariate(3.0, 0.45))))
        rounds = min(6, max(3, size.bit_length() - 1 + rng.choice((-1, 0, 0, 1))))
        t = builder.tournament(len(tournaments) + 1, start, min(size, len(ids)), rounds)
        tournaments.append(t)
        made += len(t.games)
    first = date(years.start, 1, 1)
    openings = [
        Opening(p, rating=int(1000 + builder.strength[p]), games=rng.randrange(1, 60), as_of=first)
        for p in ids
        if rng.random() < OPENING_RATE
    ]
    return Federation(tournaments, openings, ids, years)
