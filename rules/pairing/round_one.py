"""Round 1 by lot (PAIRING.md §3): `draw` (single hat), `hats`, `elo-levels`.

Each method pairs a list of players given in standing order (the whole pool, or one of the two groups) with a
`random.Random` the caller seeded: the same seed and the same players give the same pairing. The draw starts
from the players sorted by ID, so the order the caller lists them in does not matter.

Round 1 is always a club round: club-mates meet only when the players cannot be paired otherwise, and then as
few times as possible (the completion keeps the fewest club-mate games). Rematches cannot happen in round 1;
they are still ruled out, so a caller that passes games by mistake gets no rematch.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.pairing.matching import Completion
from rules.pairing.model import HAT_NAMES, Notice, PairingRefused, Pool
from rules.pairing.swiss import checked, no_pairing, not_met, pair_spare
from rules.rulesets import SPARE_ID

# "4 groups from 32 players" (PAIRING.md §3 elo-levels), 3 below.
LEVELS_SMALL, LEVELS_LARGE, LEVELS_LARGE_FROM = 3, 4, 32


def _shuffled(players: Sequence[int], rng: random.Random) -> list[int]:
    order = sorted(players)
    rng.shuffle(order)
    return order


def _draw_walk(pool: Pool, order: Sequence[int], completion: Completion, spare: bool) -> list[tuple[int, int]]:
    """Each player in turn (in the drawn order) with the next undrawn player of another club, as long as the
    rest can still be paired with no more club-mates than the fewest possible; club-mates only after the
    others. With the spare, the last player left meets it (PAIRING.md §2.3, the decision for `draw`)."""
    pairs = []
    for i, p in enumerate(order):
        if p not in completion.unpaired:
            continue
        listed = [c for c in order[i + 1:] if c in completion.unpaired]
        listed.sort(key=lambda c: pool.club_mates(p, c))  # stable: club-mates behind, in drawn order
        if spare:
            # Last: with no earlier game, someone of another club (or a club-mate when only those are left)
            # always keeps the fewest club-mates as well as the spare would, so only the last player gets it.
            listed.append(SPARE_ID)
        c = completion.pair_first(p, listed)
        if c is None:  # the completion proved a partner exists
            raise AssertionError(f"no undrawn player keeps the draw complete for {p}")
        pairs.append((p, c))
    return pairs


def draw(pool: Pool, players: Sequence[int], rng: random.Random, warnings: list[Notice]) -> list[tuple[int, int]]:
    """`draw` (single hat, App. 2 §3.a.i): a random order of all players, each in turn paired with the next
    undrawn player of another club while the rest can still be paired without club-mates."""
    order = _shuffled(players, rng)
    spare = len(order) % 2 == 1
    completion = Completion([*order, SPARE_ID] if spare else order, not_met(pool), soft=pool.club_mates)
    if not completion.feasible:
        raise no_pairing(pool)
    return _draw_walk(pool, order, completion, spare)


def _spare_then_rest(pool: Pool, players: Sequence[int], warnings: list[Notice]) -> tuple[list[int], list]:
    """The spare's pair first, against the lowest player of the standing (§2.3): `elo-levels` is not a draw
    by lot, so the general rule applies."""
    order = list(players)
    if len(order) % 2 == 0:
        return order, []
    partner = pair_spare(pool, order, checked(pool, order, not_met(pool)), warnings)
    order.remove(partner)
    return order, [(partner, SPARE_ID)]


def check_hats(pool: Pool) -> None:
    """Every player of the pool in hat 1 or 2, or a refusal naming all those who are not."""
    missing = [p.id for p in pool.players if p.hat not in HAT_NAMES]
    if missing:
        raise PairingRefused.one("hat_missing", players=missing)


def hats(pool: Pool, players: Sequence[int], rng: random.Random, warnings: list[Notice]) -> list[tuple[int, int]]:
    """`hats` (App. 2 §3.a.ii): each pair one name from each hat; what is left of the larger hat drawn as `draw`.

    The smaller hat's names are drawn in a random order, each taking the next undrawn name of the larger hat;
    the larger hat's names left are then drawn among themselves. **Decision** (PAIRING.md §2.3, 2026-12-02):
    `hats` is a draw by lot, so with an odd number of players the spare is put aside and meets the last name
    left once the hats are drawn (the last of the larger hat): two names of a hat never meet while the other
    hat still has one. **Decisions** (PAIRING.md is silent): round 1 is a club round, so club-mates are kept
    apart as in `draw` (the fewest club-mate games any pairing across the hats allows); hat 1 counts as the
    smaller when the two are equal.
    """
    check_hats(pool)
    order = list(players)
    ones = [p for p in order if pool.by_id[p].hat == 1]
    twos = [p for p in order if pool.by_id[p].hat == 2]
    small, large = (ones, twos) if len(ones) <= len(twos) else (twos, ones)
    small_order, large_order = _shuffled(small, rng), _shuffled(large, rng)
    in_small = set(small)
    played = pool.played
    spare = len(order) % 2 == 1

    def allowed(a: int, b: int) -> bool:
        # Two names of the smaller hat never meet, nor does one of them meet the spare: a complete pairing then
        # gives each a name of the larger hat, and the spare one of the larger hat's names left.
        if SPARE_ID in (a, b):
            return (b if a == SPARE_ID else a) not in in_small and frozenset((a, b)) not in played
        return not (a in in_small and b in in_small) and frozenset((a, b)) not in played

    completion = Completion([*order, SPARE_ID] if spare else order, allowed, soft=pool.club_mates)
    if not completion.feasible:
        raise no_pairing(pool)
    pairs = []
    for p in small_order:
        listed = [c for c in large_order if c in completion.unpaired]
        listed.sort(key=lambda c: pool.club_mates(p, c))
        partner = completion.pair_first(p, listed)
        if partner is None:
            raise AssertionError(f"no name of the larger hat keeps the draw complete for {p}")
        pairs.append((p, partner))
    left = [c for c in large_order if c in completion.unpaired]
    return pairs + _draw_walk(pool, left, completion, spare=spare)


def level_groups(order: Sequence[int], count: int) -> list[list[int]]:
    """The standing cut into `count` groups of sizes as equal as possible, higher groups taking the extra
    players; then each odd group, from the top, passes its last player down to the next (PAIRING.md §3)."""
    base, extra = divmod(len(order), count)
    groups, start = [], 0
    for n in range(count):
        size = base + (n < extra)
        groups.append(list(order[start:start + size]))
        start += size
    for upper, lower in zip(groups, groups[1:], strict=False):
        if len(upper) % 2:
            lower.insert(0, upper.pop())
    return groups


def elo_levels(pool: Pool, players: Sequence[int], rng: random.Random,
               warnings: list[Notice]) -> list[tuple[int, int]]:
    """`elo-levels` (App. 2 §3.a.iii): the standing cut into 3 groups (4 from 32 players), a `draw` in each.

    The spare's pair is made first (the lowest player of the standing), then the rest is cut: the number of
    groups is read from P, the players of the list, spare's partner included.
    """
    count = LEVELS_LARGE if len(players) >= LEVELS_LARGE_FROM else LEVELS_SMALL
    order, pairs = _spare_then_rest(pool, players, warnings)
    for level in level_groups(order, count):
        pairs += draw(pool, level, rng, warnings)
    return pairs


METHODS = {"draw": draw, "hats": hats, "elo-levels": elo_levels}
