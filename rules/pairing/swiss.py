"""From round 2 on: classic and adapted Swiss, the two groups, the spare, and the repair order of PAIRING.md §4.

Every system is the same walk (§4 steps 2-5) over an order of players, with its own candidate lists:

1. the spare's pair first, when P is odd (`pair_spare`);
2. the highest player p of the order not yet paired;
3. p's candidates, in the system's order (`classic_candidates`, `adapted_candidates`, the join's);
4. those p has not met; in a club round, p's club-mates moved behind the others, keeping their order;
5. the first of them that leaves the rest a complete pairing without a rematch (`Completion.pair_first`).

Before walking, the whole pool is checked once: when no pairing without a rematch exists, nothing is paired
and `PairingRefused` says so (§2.2). From then on the completion guarantees that some candidate works, since
every candidate list holds every unpaired player the system allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.pairing.matching import Completion
from rules.pairing.model import ADAPTED, CLASSIC, GROUP_NAMES, Notice, PairingRefused, Pool
from rules.rulesets import SPARE_ID

Candidates = Callable[[int, set[int]], list[int]]


def no_pairing(pool: Pool) -> PairingRefused:
    return PairingRefused.one("no_pairing_without_rematch", round=pool.round)


def not_met(pool: Pool) -> Callable[[int, int], bool]:
    played = pool.played
    return lambda a, b: frozenset((a, b)) not in played


def pair_spare(pool: Pool, order: Sequence[int], completion: Completion, warnings: list[Notice]) -> int:
    """§2.3: the spare plays the lowest player of `order` who has not met it; that pair is made first.

    **Decision** (PAIRING.md is silent): when that player's pair would leave the rest no pairing without a
    rematch, the spare takes the next one up who has not met it, and the referee is told (`spare_not_lowest`).
    Never a rematch (§2.2) outranks the spare's place; nothing is paired only when no pairing exists at all.
    """
    listed = [player for player in reversed(order) if not pool.met(player, SPARE_ID)]
    player = completion.pair_first(SPARE_ID, listed)
    if player is None:
        raise no_pairing(pool)
    if player != listed[0]:
        warnings.append(Notice("spare_not_lowest", {"player": player, "lowest": listed[0]}))
    return player


def walk(pool: Pool, order: Sequence[int], candidates: Candidates, completion: Completion) -> list[tuple[int, int]]:
    """§4 steps 2-5 over `order`, each player in turn taking its first candidate that keeps the rest pairable."""
    unpaired = set(order)
    pairs = []
    club_round = pool.club_round
    for p in order:
        if p not in unpaired:
            continue
        listed = [c for c in candidates(p, unpaired) if not pool.met(p, c)]
        if club_round:
            listed.sort(key=lambda c: pool.club_mates(p, c))  # stable: club-mates behind, in their order
        c = completion.pair_first(p, listed)
        if c is None:  # the completion proved a partner exists, and every list holds every allowed unpaired player
            raise AssertionError(f"no candidate of {p} keeps the rest pairable although the pool was")
        pairs.append((p, c))
        unpaired -= {p, c}
    return pairs


def classic_candidates(order: Sequence[int]) -> Candidates:
    """Classic Swiss (§4.a.i): the unpaired players below p, in standing order."""
    index = {player: n for n, player in enumerate(order)}
    return lambda p, unpaired: [c for c in order[index[p] + 1:] if c in unpaired]


def table_a_size(pool: Pool, players: int) -> int:
    """Table A: the first 2^R' players of the standing, all of them when there are no more (§4.a.ii)."""
    return min(2 ** (pool.rounds - pool.round + 1), players)


def adapted_candidates(order: Sequence[int], a: int) -> Candidates:
    """Adapted Swiss (§4.a.ii, §4 step 3). Places are 1-based in `order`, the spare's pair already out.

    A player of table A's first half at place i: the second half from place i + a/2 down to the end of the
    table, then the rest of the second half from i + a/2 - 1 up to a/2 + 1, then the unpaired players of the
    first half below p, then table B in standing order. Everyone else: the unpaired players below p.
    """
    half, size = a // 2, len(order)
    place = {player: n for n, player in enumerate(order, 1)}

    def candidates(p: int, unpaired: set[int]) -> list[int]:
        i = place[p]
        if i <= half:
            places = [*range(i + half, a + 1), *range(i + half - 1, half, -1), *range(i + 1, half + 1),
                      *range(a + 1, size + 1)]
        else:
            places = range(i + 1, size + 1)
        return [order[n - 1] for n in places if order[n - 1] in unpaired]

    return candidates


def swiss_round(pool: Pool, system: str, warnings: list[Notice]) -> list[tuple[int, int]]:
    """One round of classic or adapted Swiss over the whole pool (also the two groups' last round)."""
    order = list(pool.standing)
    completion = checked(pool, order, not_met(pool))
    pairs = spare_first(pool, order, completion, warnings)
    if system == CLASSIC:
        candidates = classic_candidates(order)
    elif system == ADAPTED:
        candidates = adapted_candidates(order, table_a_size(pool, len(order)))
    else:
        raise ValueError(f"not a Swiss system: {system!r}")
    return pairs + walk(pool, order, candidates, completion)


def groups_of(pool: Pool) -> dict[int, str]:
    """Each player's group, or a refusal naming those without one (a late player must be given one)."""
    missing = [p.id for p in pool.players if p.group not in GROUP_NAMES]
    if missing:
        raise PairingRefused.one("group_missing", players=missing)
    return {p.id: p.group for p in pool.players}


def cross_pair(pool: Pool, order: Sequence[int], group: dict[int, str], warnings: list[Notice]) -> tuple[int, int]:
    """**Decision** (PAIRING.md is silent): when both groups have an odd number of players (the deal gives
    that when P = 4k + 2; a withdrawal can too) and there is no spare, one game joins them: the lowest player
    of B against the lowest of A, made first like the spare's. When that is a rematch or leaves a group no
    pairing, B's lowest tries A's players upwards, then B's next lowest, and so on.
    """
    a_order = [p for p in order if group[p] == "A"]
    b_order = [p for p in order if group[p] == "B"]
    inside = same_group_not_met(pool, group)
    for b in reversed(b_order):
        for a in reversed(a_order):
            if pool.met(a, b):
                continue
            if Completion([p for p in order if p not in (a, b)], inside).feasible:
                warnings.append(Notice("groups_cross_pair", {"a": a, "b": b}))
                return a, b
    raise no_pairing(pool)


def same_group_not_met(pool: Pool, group: dict[int, str]) -> Callable[[int, int], bool]:
    played = pool.played
    return lambda a, b: group[a] == group[b] and frozenset((a, b)) not in played


def split_groups(pool: Pool, warnings: list[Notice]) -> tuple[list[int], dict[int, str], list[tuple[int, int]]]:
    """The standing and groups for a round inside the groups: the cross pair made when both are odd; when P is
    odd the spare is put in the group with an odd number of players (§4 two groups)."""
    group = groups_of(pool)
    order = list(pool.standing)
    odd = [g for g in GROUP_NAMES if sum(group[p] == g for p in order) % 2]
    pairs = []
    if len(odd) == 2:
        pair = cross_pair(pool, order, group, warnings)
        pairs.append(pair)
        order = [p for p in order if p not in pair]
    elif odd:
        group = {**group, SPARE_ID: odd[0]}
    return order, group, pairs


def inside_round(pool: Pool, warnings: list[Notice]) -> list[tuple[int, int]]:
    """Rounds 2 to R - 2 of the two groups: classic Swiss inside each group, the spare in the odd one."""
    order, group, pairs = split_groups(pool, warnings)
    completion = checked(pool, order, same_group_not_met(pool, group))
    if SPARE_ID in group:
        own = [p for p in order if group[p] == group[SPARE_ID]]
        partner = pair_spare(pool, own, completion, warnings)
        order.remove(partner)
        pairs.append((partner, SPARE_ID))
    classic = classic_candidates(order)
    return pairs + walk(pool, order, lambda p, unpaired: [c for c in classic(p, unpaired) if group[c] == group[p]],
                        completion)


def join_round(pool: Pool, warnings: list[Notice]) -> list[tuple[int, int]]:
    """Round R - 1 of the two groups: after the spare's pair, 1st of A against 2nd of B, 1st of B against 2nd
    of A, everyone else by classic Swiss on the joined standing.

    The two firsts are paired first, the higher placed of them first; then the rest from the top (§4 step 2).
    **Decision** (PAIRING.md is silent) on their candidates when the ideal one is ruled out: the other group
    from its 2nd down, then their own group from its 2nd down, then the other group's 1st last, so that the
    second of these pairs stays possible as long as it can.
    """
    group = groups_of(pool)
    order = list(pool.standing)
    completion = checked(pool, order, not_met(pool))
    pairs = spare_first(pool, order, completion, warnings)
    a_order = [p for p in order if group[p] == "A"]
    b_order = [p for p in order if group[p] == "B"]
    special = {}
    if a_order:
        special[a_order[0]] = b_order[1:] + a_order[1:] + b_order[:1]
    if b_order:
        special[b_order[0]] = a_order[1:] + b_order[1:] + a_order[:1]
    firsts = [p for p in order if p in special]
    classic = classic_candidates(order)

    def candidates(p: int, unpaired: set[int]) -> list[int]:
        if p in special:
            return [c for c in special[p] if c in unpaired]
        return classic(p, unpaired)

    return pairs + walk(pool, firsts + [p for p in order if p not in special], candidates, completion)


def spare_first(pool: Pool, order: list[int], completion: Completion, warnings: list[Notice]) -> list[tuple[int, int]]:
    """The spare's pair when P is odd (taken out of `order`, whose places then count without it)."""
    if len(order) % 2 == 0:
        return []
    partner = pair_spare(pool, order, completion, warnings)
    order.remove(partner)
    return [(partner, SPARE_ID)]


def checked(pool: Pool, order: Sequence[int], allowed: Callable[[int, int], bool]) -> Completion:
    """The completion of the players of `order` (the spare added when they are odd), or no pairing (§2.2)."""
    players = [*order, SPARE_ID] if len(order) % 2 else list(order)
    completion = Completion(players, allowed)
    if not completion.feasible:
        raise no_pairing(pool)
    return completion
