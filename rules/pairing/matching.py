"""Can the players not yet paired still all be paired? A perfect matching of the games the rules allow.

Every pairing method walks the pool one player at a time and gives each the first candidate that leaves the
rest a complete pairing (PAIRING.md §4 step 5; §3's draw "as long as the rest can still be paired without
club-mates"). `Completion` answers that question as the walk goes.

Terms
-----
allowed
    A game the rules permit at all: in practice two players who have not met (and, inside the two groups, of
    the same group; in a hat draw, not two players of the smaller hat).
soft
    An allowed game the rules would rather avoid: club-mates in a round-1 draw. The completion then keeps the
    fewest soft games any complete pairing can have, so club-mates meet only when the pool cannot be paired
    otherwise. Without `soft`, every allowed game is as good as another.
completion
    A perfect matching of the unpaired players over allowed games, with the fewest soft games. One is kept
    while the walk goes on: it proves the rest can be paired and makes most answers cheap.

Deciding is networkx's maximum matching (Edmonds' blossoms, integer weights, exact): nothing here searches
for a matching itself, except to *find* a cheaper proof. `try_pair(p, c)` first tries to repair the kept
completion around the new pair (the partners p and c leave behind meet each other, or each meet one end of
one other pair); if that works the answer is yes, since a complete pairing is in hand. Only when it does not
is the rest solved afresh, and only that full solve ever answers no. The answers therefore never depend on
which of several maximum matchings networkx returns, only the time does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import networkx as nx

Predicate = Callable[[int, int], bool]


def _never(a: int, b: int) -> bool:
    return False


class Completion:
    """The unpaired players of a walk, and a best complete pairing of them (None when there is none)."""

    def __init__(self, players: Iterable[int], allowed: Predicate, soft: Predicate | None = None):
        self._allowed = allowed
        self._soft = soft or _never
        self._weighted = soft is not None
        self.unpaired = set(players)
        solved = self._solve(self.unpaired)
        self._mate, self.cost = solved if solved else (None, None)

    @property
    def feasible(self) -> bool:
        """Whether the unpaired players can all be paired by allowed games."""
        return self._mate is not None

    def partner(self, player: int) -> int | None:
        """The player's partner in the kept completion (one possible answer, not a decision)."""
        return None if self._mate is None else self._mate.get(player)

    def try_pair(self, p: int, c: int) -> bool:
        """Pair p with c if the rest can still be completed at the best cost; say whether it was done."""
        mate, allowed, soft = self._mate, self._allowed, self._soft
        if mate is None or p == c or p not in self.unpaired or c not in self.unpaired or not allowed(p, c):
            return False
        if mate[p] == c:
            self._commit(p, c, {}, self.cost - soft(p, c))
            return True
        p2, c2 = mate[p], mate[c]
        # The kept completion, with p-p2 and c-c2 replaced by p-c: p2 and c2 are left to be paired again.
        # Its cost cannot drop below the best, so "no higher" means "still the best".
        delta = soft(p, c) - soft(p, p2) - soft(c, c2)
        if allowed(p2, c2) and delta + soft(p2, c2) <= 0:
            self._commit(p, c, {p2: c2, c2: p2}, self.cost - soft(p, c))
            return True
        for x, y in mate.items():
            if x in (p, c, p2, c2):
                continue
            # p2-x and y-c2 instead of x-y (each pair is seen from both ends, so both ways are tried).
            if allowed(p2, x) and allowed(y, c2) and delta + soft(p2, x) + soft(y, c2) - soft(x, y) <= 0:
                self._commit(p, c, {p2: x, x: p2, y: c2, c2: y}, self.cost - soft(p, c))
                return True
        rest = self.unpaired - {p, c}
        solved = self._solve(rest)
        if solved is None or solved[1] != self.cost - soft(p, c):
            return False
        self._mate = solved[0]
        self.unpaired = rest
        self.cost = solved[1]
        return True

    def _commit(self, p: int, c: int, changes: dict[int, int], cost: int) -> None:
        del self._mate[p], self._mate[c]
        self._mate.update(changes)
        self.unpaired -= {p, c}
        self.cost = cost

    def _solve(self, players: set[int]) -> tuple[dict[int, int], int] | None:
        if len(players) % 2:
            return None
        graph = nx.Graph()
        ordered = sorted(players)  # the same graph, built the same way, for the same players
        graph.add_nodes_from(ordered)
        allowed, soft = self._allowed, self._soft
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                if allowed(a, b):
                    # Among the complete pairings (maxcardinality), the heaviest has the most 2s: the fewest
                    # soft games. Unweighted, every edge weighs 1 and only completeness counts.
                    graph.add_edge(a, b, weight=1 if self._weighted and soft(a, b) else 2)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(players):
            return None
        mate: dict[int, int] = {}
        cost = 0
        for a, b in matching:
            mate[a], mate[b] = b, a
            cost += soft(a, b)
        return mate, cost
