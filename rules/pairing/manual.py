"""Pairs the referee enters or changes (PAIRING.md §5), and the last round's free games (§6).

A manual pairing is refused, with every problem listed, when a player plays twice, is unknown, withdrawn or
of another pool, plays themself, is left out, or when the spare is used without being needed. It is accepted
with warnings (for the referee to give a reason, kept and shown) for a rematch, or club-mates in a club round.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from rules.pairing.model import MANUAL, Notice, Pairing, PairingRefused, Pool
from rules.pairing.rounds import club_mate_warnings, tables
from rules.rulesets import SPARE_ID

# PAIRING.md §6: "score + 100 below the 4th's": the most one AdlG game scores.
ADLG_GAME_MAXIMUM = 100
TOP = 4


def pair_manually(pool: Pool, pairs: Iterable[tuple[int, int]], *, withdrawn: Collection[int] = (),
                  elsewhere: Collection[int] = (), first_table: int = 1) -> Pairing:
    """The referee's pairs as a Pairing (tables per §2.5, warnings), or PairingRefused listing every problem.

    withdrawn: this pool's players who have withdrawn; elsewhere: the tournament's players of other pools.
    Anyone else not in the pool is unknown. Whether `manual` may be the round-1 method is the caller's to ask
    (`round_one_methods`): this check also serves to change a proposed pairing, in any round.
    """
    pairs = [tuple(pair) for pair in pairs]
    problems: list[Notice] = []
    seen: set[int] = set()
    reported: set[tuple[str, int]] = set()

    def problem(code: str, player: int) -> None:
        if (code, player) not in reported:
            reported.add((code, player))
            problems.append(Notice(code, {"player": player}))

    for a, b in pairs:
        if a == b:
            problem("player_against_self", a)
        for x in (a, b):
            if x == SPARE_ID:
                if pool.size % 2 == 0 and ("spare_not_needed", x) not in reported:
                    reported.add(("spare_not_needed", x))
                    problems.append(Notice("spare_not_needed"))
            elif x in pool.by_id:
                pass
            elif x in withdrawn:
                problem("player_withdrawn", x)
            elif x in elsewhere:
                problem("player_other_pool", x)
            else:
                problem("player_unknown", x)
            if x in seen:
                problem("player_twice", x)
            seen.add(x)
    for player in pool.standing:
        if player not in seen:
            problem("player_unpaired", player)
    if problems:
        raise PairingRefused(problems)
    numbered = tables(pool, pairs, first_table)
    return Pairing(round=pool.round, system=MANUAL, seed=None, pairs=numbered,
                   warnings=change_warnings(pool, [(p.a, p.b) for p in numbered]))


def change_warnings(pool: Pool, pairs: Iterable[tuple[int, int]]) -> tuple[Notice, ...]:
    """The rules the referee's own pairs bend (PAIRING.md §5), each needing a reason: a rematch, club-mates in a
    club round. For a whole manual pairing, or only the pairs a swap makes."""
    pairs = [tuple(pair) for pair in pairs]
    rematches = [Notice("rematch", {"a": a, "b": b}) for a, b in pairs if pool.met(a, b)]
    return (*rematches, *club_mate_warnings(pool, pairs, "club_mates_by_hand"))


def free_game_players(*, standing: Sequence[int], scores: Mapping[int, float], round: int, rounds: int,
                      game_maximum: float = ADLG_GAME_MAXIMUM) -> frozenset[int]:
    """Who may play a free game in the last round (App. 2 §5, PAIRING.md §6): the players of the lower half
    of the standing whose score + 100 is below the 4th's score. None in any other round.

    standing: the pool's standing before the last round, every ranked player; scores: their tournament scores.
    **Decision**: the lower half is the last ⌊n/2⌋ places (the middle player of an odd standing is not in it).
    `game_maximum` is PAIRING.md's 100, the most one AdlG game scores; a Battle Empire caller passes its own.
    """
    if round != rounds or len(standing) <= TOP:
        return frozenset()
    fourth = scores[standing[TOP - 1]]
    lower = standing[len(standing) - len(standing) // 2:]
    return frozenset(p for p in lower if scores[p] + game_maximum < fourth)


def free_game_problems(a: int, b: int, may_play: Collection[int]) -> tuple[Notice, ...]:
    """A free game is refused for anyone who may not play one (§6): **Decision**, both players, since the game
    counts in the standings for neither (the opponent of choice must also be out of the top 4's reach)."""
    return tuple(Notice("free_game_not_allowed", {"player": x}) for x in (a, b) if x not in may_play)
