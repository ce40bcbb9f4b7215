"""The values pairing reads and returns, and the charter's small rules that choose what applies (PAIRING.md §1-§4).

The terms (P, R, N, R', standing, met, club round…) are defined in the package's docstring, rules/pairing/__init__.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.charter import club_round
from rules.pairing.messages import notice_text
from rules.rulesets import SPARE_ID
from rules.words import Refused, Words

# Round-1 methods (PAIRING.md §3). `manual` pairs are entered by the referee (pair_manually).
DRAW, HATS, ELO_LEVELS, MANUAL = "draw", "hats", "elo-levels", "manual"
ROUND_ONE_METHODS = (DRAW, HATS, ELO_LEVELS, MANUAL)
# Systems from round 2 on (PAIRING.md §4), set when the tournament starts.
CLASSIC, ADAPTED, GROUPS = "classic", "adapted", "groups"
SYSTEMS = (CLASSIC, ADAPTED, GROUPS)
GROUP_NAMES = ("A", "B")
HAT_NAMES = (1, 2)
# A seed fits a PostgreSQL integer column and is short enough to read out in a hall.
SEED_LIMIT = 2**31


@dataclass(frozen=True, slots=True)
class Notice:
    """A refusal or a warning, as a code and its parameters; the caller words it in French or English.

    Codes and their params:
      refusals — no_pairing_without_rematch(round), elo_levels_required(players, ideal),
        method_not_allowed(method, allowed), method_not_for_round(method, round), hat_missing(players),
        group_missing(players), player_twice(player),
        player_unknown(player), player_withdrawn(player), player_other_pool(player), player_unpaired(player),
        player_against_self(player), spare_not_needed(), free_game_not_allowed(player)
      warnings, each saying why the rule was bent — club_mates(a, b) (round 1: no draw keeps more clubs
        apart), club_mates_swiss(a, b) (from round 2: when `a` was paired, any other partner still free would
        have forced a rematch), spare_not_lowest(player, lowest), groups_cross_pair(a, b); the referee's own
        pairs (pair_manually, a swap) — rematch(a, b), club_mates_by_hand(a, b)
      notes — system_chosen / system_default(system, players), system_charter(system, players, ideal),
        swiss_choice_not_applied(swiss, system, players, ideal) (`system_note`)
    """

    code: str
    params: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A copy of its own (plain, so that dataclasses.asdict and json.dumps take a Pairing as it is).
        object.__setattr__(self, "params", dict(self.params))

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.code}({args})"


class PairingRefused(Refused):
    """An input the referee can fix, or a pool that cannot be paired by the rules: shown to them as it is.

    Carries every problem found (a manual pairing lists them all, not the first only). A broken call from the
    code itself (a standing that misses a player, a round beyond the last) is a ValueError instead.
    """

    def __init__(self, notices: Iterable[Notice]):
        self.notices = tuple(notices)
        super().__init__((n.code, n.params) for n in self.notices)
        self.args = ("; ".join(map(str, self.notices)),)

    def __str__(self) -> str:  # the notices with their params: what a pairing test or a log compares
        return self.args[0]

    @staticmethod
    def wording(code: str, params: dict, words: Words, names=None) -> str:
        return notice_text(code, params, names, words)

    @classmethod
    def one(cls, code: str, **params: object) -> PairingRefused:
        return cls((Notice(code, params),))

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(n.code for n in self.notices)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player still in the pool. `club` is any hashable (None: independent, no club-mate); `hat` (1 or 2) is
    read by the `hats` method only, `group` ("A" or "B") by the two-groups system only."""

    id: int
    rating: int
    club: object = None
    hat: int | None = None
    group: str | None = None


@dataclass(frozen=True)
class Pool:
    """One pool before round `round`: who is still in, their standing, and every game already played.

    `standing` may name players who are no longer in (the caller's standings list the withdrawn too): they are
    dropped. Every player still in must be in it. `played` holds one (a, b) per game of an earlier round of
    this tournament, free games and forfeits included, games against the spare (ID 99) too.
    """

    players: tuple[Entrant, ...]
    standing: tuple[int, ...]
    played: frozenset[frozenset[int]]
    round: int
    rounds: int
    by_id: Mapping[int, Entrant] = field(init=False, repr=False, compare=False)
    place: Mapping[int, int] = field(init=False, repr=False, compare=False)

    def __init__(self, players: Iterable[Entrant], standing: Iterable[int], played: Iterable[Iterable[int]] = (),
                 *, round: int, rounds: int):
        players = tuple(players)
        by_id = {p.id: p for p in players}
        if len(by_id) != len(players):
            raise ValueError("a player is listed twice in the pool")
        if SPARE_ID in by_id:
            raise ValueError(f"the spare ({SPARE_ID}) is added by pairing, not listed among the players")
        if not 1 <= round <= rounds:
            raise ValueError(f"round {round} is not one of the tournament's rounds 1-{rounds}")
        order = tuple(dict.fromkeys(i for i in standing if i in by_id))
        missing = sorted(set(by_id) - set(order))
        if missing:
            raise ValueError(f"the standing misses players {missing}")
        met = frozenset(frozenset(g) for g in played)
        if any(len(g) != 2 for g in met):
            raise ValueError("a game of `played` is not between two different players")
        object.__setattr__(self, "players", tuple(by_id[i] for i in order))
        object.__setattr__(self, "standing", order)
        object.__setattr__(self, "played", met)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "by_id", MappingProxyType(by_id))
        object.__setattr__(self, "place", MappingProxyType({i: n for n, i in enumerate(order, 1)}))

    @property
    def size(self) -> int:
        """P: the players still in, the spare not counted."""
        return len(self.players)

    def met(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.played

    def club_mates(self, a: int, b: int) -> bool:
        if SPARE_ID in (a, b):
            return False
        club = self.by_id[a].club
        return club is not None and club == self.by_id[b].club

    @property
    def club_round(self) -> bool:
        return club_round(self.round, self.rounds)


@dataclass(frozen=True, slots=True)
class Pair:
    """One game: `a` is the higher placed player in the standing before the round; the spare is always `b`."""

    table: int
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """A pool's pairing for one round, in table order.

    `system` is what PAIRING.md §8 prints: the round-1 method in round 1 (`draw`, `hats`, `elo-levels`,
    `manual`), else the tournament's system (`classic`, `adapted`, `groups`). `stage` says which part of the
    two-groups system applied (`inside`, `join`, `joined`; None for the others). `seed` is the seed of the
    draw, None when nothing was drawn.
    """

    round: int
    system: str
    seed: int | None
    pairs: tuple[Pair, ...]
    warnings: tuple[Notice, ...] = ()
    stage: str | None = None

    @property
    def next_table(self) -> int | None:
        """The first table number the pool paired after this one starts from (None: this one used none)."""
        return self.pairs[-1].table + 1 if self.pairs else None


def ideal_number(rounds: int) -> int:
    """N = 2^R (charter App. 1 §4)."""
    return 2**rounds


def choose_system(players: int, rounds: int, swiss: str | None = None) -> str:
    """The system from round 2 on, set once by P at the start (PAIRING.md §4's table).

    `swiss` is the referee's choice ("classic" or "adapted"); it is a choice only when P = N (adapted by
    default). **Decision** (PAIRING.md §4, 2026-11-26): for any other P the charter's system applies whatever
    was chosen (`system_note` says so in round 1's notes): a choice made at the start never blocks a round.
    """
    n = ideal_number(rounds)
    if swiss not in (None, CLASSIC, ADAPTED):
        raise ValueError(f"swiss must be {CLASSIC!r} or {ADAPTED!r}, not {swiss!r}")
    if players == n:
        return swiss or ADAPTED
    return _charter_system(players, n)


def _charter_system(players: int, n: int) -> str:
    if players > n:
        return CLASSIC
    if 2 * players > n:
        return ADAPTED
    return GROUPS


def system_note(players: int, rounds: int, swiss: str | None = None) -> Notice:
    """What round 1 of a pool says about the system from round 2 on (PAIRING.md §4): the referee's choice when
    P = N (`system_chosen`), else the charter's system (`system_charter`), and whether a choice made at the start
    was set aside because P is not N (`swiss_choice_not_applied`)."""
    n = ideal_number(rounds)
    system = choose_system(players, rounds, swiss)
    if players == n:
        return Notice("system_chosen" if swiss else "system_default", {"system": system, "players": players})
    if swiss is not None and swiss != system:
        return Notice("swiss_choice_not_applied", {"swiss": swiss, "system": system, "players": players,
                                                   "ideal": n})
    return Notice("system_charter", {"system": system, "players": players, "ideal": n})


def round_one_methods(players: int, rounds: int) -> tuple[str, ...]:
    """The round-1 methods the charter allows: only `elo-levels` when P > N (App. 2 §3.a.iii)."""
    if players > ideal_number(rounds):
        return (ELO_LEVELS,)
    return ROUND_ONE_METHODS


def initial_standing(players: Iterable[Entrant]) -> tuple[int, ...]:
    """The standing before round 1: pre-tournament rating, highest first, then lower ID."""
    return tuple(p.id for p in sorted(players, key=lambda p: (-p.rating, p.id)))


def deal_groups(standing: Iterable[int]) -> dict[int, str]:
    """The two groups of PAIRING.md §4, dealt before round 1 in standing order A, B, B, A, A, B, B, A, …"""
    return {player: "AB"[(n + 1) // 2 % 2] for n, player in enumerate(standing)}


def new_seed() -> int:
    """A fresh seed for a draw, from the operating system's randomness (nobody can arrange it)."""
    return secrets.randbelow(SEED_LIMIT)
