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
for a matching itself, except to *find* a cheaper proof. `pair_first(p, candidates)` first tries to repair
the kept completion around p and its first candidate (the partners they leave behind meet each other, or each
meet one end of one other pair); if that works the answer is yes, since a complete pairing is in hand. When it
does not, one weighted matching decides among all of p's candidates at once (see `pair_first`). The answers
therefore never depend on which of several maximum matchings networkx returns, only the time does.
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
        return self.pair_first(p, [c]) == c

    def pair_first(self, p: int, candidates: Iterable[int]) -> int | None:
        """Pair p with the first of `candidates` that leaves the rest a completion at the best cost, and
        return it; None (nothing changed) when none does.

        The first candidate is tried by repairing the kept completion, which is all a typical round needs.
        When that gives no proof, one weighted matching decides among all the candidates at once: p keeps only
        its games with them, each worth a bonus that falls with its rank, too small to outweigh one soft game.
        The heaviest complete pairing then has the fewest soft games and, among those, p's earliest candidate
        (each candidate's bonus differs, so that candidate is the same whichever matching networkx returns).
        One solve per player at most, however many candidates are ruled out.
        """
        if self._mate is None or p not in self.unpaired:
            return None
        listed = [c for c in dict.fromkeys(candidates) if c != p and c in self.unpaired and self._allowed(p, c)]
        if not listed:
            return None
        if self._repaired(p, listed[0]):
            return listed[0]
        rank = {c: len(listed) - n for n, c in enumerate(listed)}
        solved = self._solve(self.unpaired, only=(p, rank))
        if solved is None or solved[1] != self.cost:
            return None
        mate, cost = solved
        partner = mate.pop(p)
        del mate[partner]
        self._mate = mate
        self.unpaired -= {p, partner}
        self.cost = cost - self._soft(p, partner)
        return partner

    def _repaired(self, p: int, c: int) -> bool:
        """Pair p with c when the kept completion, mended around them, proves the rest still complete."""
        mate, allowed, soft = self._mate, self._allowed, self._soft
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
        return False

    def _commit(self, p: int, c: int, changes: dict[int, int], cost: int) -> None:
        del self._mate[p], self._mate[c]
        self._mate.update(changes)
        self.unpaired -= {p, c}
        self.cost = cost

    def _solve(self, players: set[int], only: tuple[int, dict[int, int]] | None = None
               ) -> tuple[dict[int, int], int] | None:
        """A best completion of `players` (the mates and the soft games' count), or None when there is none.

        only: (p, bonus) keeps p's games with the players of `bonus` alone, each worth its bonus on top.
        """
        if len(players) % 2:
            return None
        step = 1 + max(only[1].values()) if only else 1  # one soft game outweighs every bonus
        graph = nx.Graph()
        ordered = sorted(players)  # the same graph, built the same way, for the same players
        graph.add_nodes_from(ordered)
        allowed, soft = self._allowed, self._soft
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                if only and only[0] in (a, b):
                    bonus = only[1].get(b if a == only[0] else a)
                    if bonus is None:
                        continue
                elif allowed(a, b):
                    bonus = 0
                else:
                    continue
                # Among the complete pairings (maxcardinality), the heaviest has the most non-soft games.
                # Unweighted, every game weighs the same and only completeness (and the bonus) counts.
                graph.add_edge(a, b, weight=step * (1 if self._weighted and soft(a, b) else 2) + bonus)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(players):
            return None
        mate: dict[int, int] = {}
        cost = 0
        for a, b in matching:
            mate[a], mate[b] = b, a
            cost += soft(a, b)
        return mate, cost
