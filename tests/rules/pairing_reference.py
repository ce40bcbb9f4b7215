"""PAIRING.md §4 written out a second time, plainly, to check rules/pairing against (property tests).

Nothing is shared with the production code but the Pool it reads. Feasibility is a memoised backtracking search
over bitmasks (the production code asks networkx), candidate lists are built by sorting places with a key
(the production code concatenates ranges), and each system is one straight function. Deliberately slow and
obvious: it only has to be right on the pools hypothesis draws.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from rules.rulesets import SPARE_ID

NO_PAIRING = None


class Feasibility:
    """Can a set of players all be paired by allowed games? Players become bits; `allowed(a, b)` the edges."""

    def __init__(self, players, allowed):
        self.players = list(players)
        self.bit = {p: 1 << n for n, p in enumerate(self.players)}
        self.adjacent = [
            sum(1 << m for m, q in enumerate(self.players) if q != p and allowed(p, q)) for p in self.players
        ]
        self._search = lru_cache(maxsize=None)(self._can)

    def mask(self, players) -> int:
        return sum(self.bit[p] for p in players)

    def can_pair(self, players) -> bool:
        return self._search(self.mask(players))

    def _can(self, mask: int) -> bool:
        if mask == 0:
            return True
        # The player with the fewest partners left first: a dead end shows at once.
        best, best_options = None, None
        rest = mask
        while rest:
            low = rest & -rest
            n = low.bit_length() - 1
            options = self.adjacent[n] & mask
            if best_options is None or options.bit_count() < best_options.bit_count():
                best, best_options = n, options
            rest ^= low
        if not best_options:
            return False
        without = mask & ~(1 << best)
        options = best_options
        while options:
            low = options & -options
            if self._search(without & ~low):
                return True
            options ^= low
        return False


def all_pairings(players, allowed):
    """Every complete pairing of `players` by allowed games (brute force, for small pools)."""
    players = list(players)
    if not players:
        yield []
        return
    first, others = players[0], players[1:]
    for partner in others:
        if allowed(first, partner):
            left = [p for p in others if p != partner]
            for rest in all_pairings(left, allowed):
                yield [(first, partner), *rest]


def allowed_by(pool):
    return lambda a, b: frozenset((a, b)) not in pool.played


def _club_sorted(pool, p, listed):
    if not pool.club_round:
        return listed
    return [c for c in listed if not pool.club_mates(p, c)] + [c for c in listed if pool.club_mates(p, c)]


def _walk(pool, order, feasibility, candidate_list, first=()):
    """Steps 2-5: each highest unpaired player takes its first allowed candidate leaving the rest pairable."""
    unpaired = list(order)
    pairs = []
    walk_order = [*first, *[p for p in order if p not in first]]
    for p in walk_order:
        if p not in unpaired:
            continue
        listed = [c for c in candidate_list(p, unpaired) if frozenset((p, c)) not in pool.played]
        for c in _club_sorted(pool, p, listed):
            rest = [q for q in unpaired if q not in (p, c)]
            if feasibility.can_pair(rest):
                pairs.append((p, c))
                unpaired = rest
                break
        else:
            raise AssertionError("the reference lost its way")
    return pairs


def _spare(pool, order, feasibility, bottom_up):
    """The lowest (of bottom_up) who has not met the spare and leaves the rest pairable; None when no one."""
    for q in bottom_up:
        if frozenset((q, SPARE_ID)) in pool.played:
            continue
        if feasibility.can_pair([p for p in order if p != q]):
            return q
    return None


def _below(order):
    return lambda p, unpaired: [c for c in order[order.index(p) + 1:] if c in unpaired]


def swiss(pool, system):
    """Classic or adapted Swiss; NO_PAIRING when no pairing without a rematch exists."""
    order = list(pool.standing)
    feasibility = Feasibility([*order, SPARE_ID], allowed_by(pool))
    pairs = []
    if len(order) % 2:
        q = _spare(pool, order, feasibility, list(reversed(order)))
        if q is None:
            return NO_PAIRING
        pairs.append((q, SPARE_ID))
        order.remove(q)
    elif not feasibility.can_pair(order):
        return NO_PAIRING
    if system == "classic":
        return pairs + _walk(pool, order, feasibility, _below(order))
    a = min(2 ** (pool.rounds - pool.round + 1), len(order))
    half = a // 2

    def adapted(p, unpaired):
        i = order.index(p) + 1
        if i > half:
            return _below(order)(p, unpaired)
        target = i + half

        def key(place):
            if half < place <= a:  # the second half: from the ideal partner down, then up from above it
                return (0, place) if place >= target else (1, -place)
            if place <= half:  # the first half below p
                return (2, place)
            return (3, place)  # table B

        places = sorted((n for n in range(i + 1, len(order) + 1)), key=key)
        return [order[n - 1] for n in places if order[n - 1] in unpaired]

    return pairs + _walk(pool, order, feasibility, adapted)


def groups(pool):
    """The two-groups system from round 2 (inside, join, joined); NO_PAIRING when none exists."""
    group = {p.id: p.group for p in pool.players}
    if pool.round == pool.rounds:
        return swiss(pool, "classic")
    order = list(pool.standing)
    a_order = [p for p in order if group[p] == "A"]
    b_order = [p for p in order if group[p] == "B"]
    if pool.round == pool.rounds - 1:
        feasibility = Feasibility([*order, SPARE_ID], allowed_by(pool))
        pairs = []
        if len(order) % 2:
            q = _spare(pool, order, feasibility, list(reversed(order)))
            if q is None:
                return NO_PAIRING
            pairs.append((q, SPARE_ID))
            order.remove(q)
            a_order, b_order = [p for p in a_order if p != q], [p for p in b_order if p != q]
        elif not feasibility.can_pair(order):
            return NO_PAIRING
        special = {}
        if a_order:
            special[a_order[0]] = b_order[1:] + a_order[1:] + b_order[:1]
        if b_order:
            special[b_order[0]] = a_order[1:] + b_order[1:] + a_order[:1]

        def join(p, unpaired):
            listed = special[p] if p in special else _below(order)(p, unpaired)
            return [c for c in listed if c in unpaired]

        firsts = sorted(special, key=order.index)
        return pairs + _walk(pool, order, feasibility, join, first=firsts)
    # Inside the groups.
    odd = [g for g, members in (("A", a_order), ("B", b_order)) if len(members) % 2]
    if odd:
        group = {**group, SPARE_ID: odd[0]}

    def same(a, b):
        return group.get(a) == group.get(b) and frozenset((a, b)) not in pool.played

    feasibility = Feasibility([*order, SPARE_ID], same)
    pairs = []
    if len(odd) == 2:
        found = next(((a, b) for b in reversed(b_order) for a in reversed(a_order)
                      if frozenset((a, b)) not in pool.played
                      and feasibility.can_pair([p for p in order if p not in (a, b)])), None)
        if found is None:
            return NO_PAIRING
        pairs.append(found)
        order = [p for p in order if p not in found]
    elif odd:
        members = a_order if odd[0] == "A" else b_order
        q = _spare(pool, order, feasibility, list(reversed(members)))
        if q is None:
            return NO_PAIRING
        pairs.append((q, SPARE_ID))
        order.remove(q)
    elif not feasibility.can_pair(order):
        return NO_PAIRING
    return pairs + _walk(pool, order, feasibility,
                         lambda p, unpaired: [c for c in _below(order)(p, unpaired) if group[c] == group[p]])


def min_club_mates(pool, players):
    """The fewest club-mate games of any complete pairing of `players` (and the spare when they are odd)."""
    players = [*players, SPARE_ID] if len(players) % 2 else list(players)
    costs = [sum(pool.club_mates(a, b) for a, b in pairing)
             for pairing in all_pairings(players, allowed_by(pool))]
    return min(costs) if costs else None


def exists_pairing(pool, allowed=None):
    players = list(pool.standing)
    if len(players) % 2:
        players.append(SPARE_ID)
    allowed = allowed or allowed_by(pool)
    return any(True for _ in all_pairings(players, allowed))


def every_pair(players):
    return combinations(players, 2)
