"""The fast standings and charter check give exactly what the plain rules give.

`tournaments.scoring.standings` works on tuples, with cached game figures, one sort and a head-to-head
computed only for ties of two, for the replay's sake (bench/standings.py). This module keeps a compact, slow,
obviously correct reference: the rules of RULES.md §6-7 written straight, as the scoring module first had
them, and holds `standings`, `standings_from_rows` and `charter_failures` to it on a few thousand random
tournaments (pools, the spare, excluded players, penalties, forfeits, free games, ties of every kind),
values and types alike, and on the errors. tests/ratings/test_results_equivalence.py uses the same reference.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pytest

from tournaments.scoring import (
    CharterEntrant,
    CharterFailure,
    Entrant,
    RoundDetail,
    ScoredGame,
    StandingRow,
    battle_empire_scores,
    charter_failures,
    charter_failures_from_rows,
    game_scores,
    minimum_rounds,
    standings,
    standings_from_rows,
)

SPARE = 99

# --- the reference ------------------------------------------------------------------------------------


def reference_view(result: str, side: str) -> str:
    if result in ("D", "DD"):
        return result
    if result in ("FA", "FB"):
        return "FW" if result[1] == side else "FL"
    return ("W" if result[0] == side else "L") + result[1:]


@dataclass
class _Tally:
    games_score: float = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: int = 0
    rounds: list = field(default_factory=list)
    opponents: list = field(default_factory=list)
    head_to_head: dict = field(default_factory=dict)


def reference_standings(*, system, entrants, games, spare=SPARE, excluded=frozenset()):
    """RULES.md §6 written straight: a tally per (pool, player), a sort, then the tie-breaks."""
    if system not in ("adlg", "battle-empire"):
        raise ValueError(f"unknown scoring system {system!r} (known: adlg, battle-empire)")
    ranked = [e for e in entrants if e.player != spare and e.player not in excluded]
    pools = {e.player: e.pool for e in ranked}
    tallies = defaultdict(_Tally)
    for g in sorted(games, key=lambda g: (g.round, g.table)):
        if g.a in excluded or g.b in excluded:
            continue
        players = [p for p in (g.a, g.b) if p != spare]
        for player in players:
            if player not in pools:
                raise ValueError(f"round {g.round}, table {g.table}: player {player} is not an entrant")
        found = {pools[p] for p in players}
        if len(found) != 1:
            problem = "the spare cannot play itself" if not found else "the players are in different pools"
            raise ValueError(f"round {g.round}, table {g.table}: {problem}")
        pool = found.pop()
        if system == "adlg":
            a_score, b_score = game_scores(g.result, g.a_losses, g.b_losses)
        else:
            a_score, b_score = battle_empire_scores(g.result)
        for me, opponent, side, own, other in ((g.a, g.b, "A", a_score, b_score), (g.b, g.a, "B", b_score, a_score)):
            t = tallies[pool, me]
            letter = reference_view(g.result, side)
            t.rounds.append(RoundDetail(g.round, opponent, letter, own, other, g.free))
            if g.free:
                continue
            t.games_score += own
            t.games += 1
            outcome = 1 if letter in ("FW",) or letter[0] == "W" else -1 if letter in ("FL",) or letter[0] == "L" else 0
            t.wins += outcome == 1
            t.losses += outcome == -1
            t.draws += outcome == 0
            t.head_to_head[opponent] = t.head_to_head.get(opponent, 0) + outcome
            if g.result not in ("FA", "FB"):
                t.opponents.append(opponent)
    penalty = {e.player: e.penalty if system == "adlg" else 0 for e in ranked}
    final = {key: max(0, t.games_score - penalty.get(key[1], 0)) for key, t in tallies.items()}
    by_pool = defaultdict(list)
    for e in ranked:
        by_pool[e.pool].append(e)
    result = {}
    for pool, members in sorted(by_pool.items()):
        rows = []
        for e in members:
            t = tallies.get((pool, e.player), _Tally())
            rows.append((e, t, final.get((pool, e.player), 0), sum(final.get((pool, o), 0) for o in t.opponents)))
        rows.sort(key=lambda r: (-r[2], -r[3], r[0].pre_rating, r[0].player))

        def group(position, rows=rows):
            return [i for i, r in enumerate(rows) if r[2] == rows[position][2] and r[3] == rows[position][3]]

        position = 0
        while position < len(rows) - 1:
            tied = group(position)
            if len(tied) == 2 and rows[tied[0]][1].head_to_head.get(rows[tied[1]][0].player, 0) < 0:
                rows[tied[0]], rows[tied[1]] = rows[tied[1]], rows[tied[0]]
            position = tied[-1] + 1
        standing = []
        for i, (e, t, score, opponents_score) in enumerate(rows):
            if i == 0:
                decided_by = None
            else:
                above = rows[i - 1]
                if above[2] != score:
                    decided_by = "score"
                elif above[3] != opponents_score:
                    decided_by = "opponents"
                elif len(group(i)) == 2 and above[1].head_to_head.get(e.player, 0) > 0:
                    decided_by = "head_to_head"
                elif above[0].pre_rating != e.pre_rating:
                    decided_by = "rating"
                else:
                    decided_by = "id"
            standing.append(StandingRow(i + 1, e.player, score, opponents_score, penalty[e.player], t.wins, t.draws,
                                        t.losses, t.games, tuple(t.rounds), decided_by))
        result[pool] = standing
    return result


def reference_charter_failures(*, official, entrants, rounds_by_pool, spare=SPARE):
    """Charter App. 1 written straight (see tournaments.scoring.charter_failures)."""
    players = [e for e in entrants if e.player != spare]
    failures = []
    if not official:
        failures.append(CharterFailure("not_official"))
    if len(players) < 8:
        failures.append(CharterFailure("too_few_players", {"players": len(players), "minimum": 8}))
    clubs = defaultdict(int)
    independents = 0
    for e in players:
        if e.club is None:
            independents += 1
        else:
            clubs[e.club] += 1
    if len(clubs) + independents < 3:
        failures.append(CharterFailure("too_few_clubs", {"clubs": len(clubs) + independents, "minimum": 3}))
    for club, count in sorted(clubs.items()):
        if 3 * count > 2 * len(players):
            failures.append(CharterFailure("club_over_two_thirds", {"club": club, "players": count,
                                                                    "total": len(players)}))
    sizes = defaultdict(int)
    for e in players:
        sizes[e.pool] += 1
    for pool in sorted(set(sizes) | set(rounds_by_pool)):
        rounds, minimum = rounds_by_pool.get(pool, 0), minimum_rounds(sizes[pool])
        if rounds < minimum:
            failures.append(CharterFailure("too_few_rounds", {"pool": pool, "players": sizes[pool], "rounds": rounds,
                                                              "minimum": minimum}))
    return failures


# --- random tournaments -------------------------------------------------------------------------------

ADLG = ("A", "A", "A", "B", "B", "B", "D", "DD", "FA", "FB")
BATTLE_EMPIRE = ("A", "A+", "A++", "B", "B+", "B++", "D")


def random_tournament(rng: random.Random, system: str):
    """(entrants, games, excluded): a Swiss-ish tournament with everything the rules have to deal with."""
    pools = rng.choice([[""], ["A"], ["A", "B"], ["A", "B", "C"]])
    ids = rng.sample([p for p in range(1, 60) if p != SPARE], rng.randint(2, 30))
    ratings = (900, 1000, 1000, 1100)  # few values: ties of rating happen, so the ID decides
    entrants = [Entrant(p, pools[i % len(pools)], rng.choice((0, 0, 0, 0, 20, 50, 100)), rng.choice(ratings))
                for i, p in enumerate(ids)]
    if rng.random() < 0.2:
        entrants.append(Entrant(SPARE, pools[0]))  # the spare registered: never ranked
    excluded = frozenset(rng.sample(ids, 1)) if rng.random() < 0.2 else frozenset()
    coarse = rng.random() < 0.5  # losses by tens: many equal scores, so every tie-break is reached
    games, rounds = [], rng.randint(1, 5)
    for rnd in range(1, rounds + 1):
        table = 0
        for pool in pools:
            members = [e.player for e in entrants if e.pool == pool and e.player != SPARE]
            rng.shuffle(members)
            if len(members) % 2:
                members.append(SPARE)
            for i in range(0, len(members) - 1, 2):
                table += 1
                if rng.random() < 0.1:
                    continue  # a table not played
                a, b = (members[i], members[i + 1]) if rng.random() < 0.5 else (members[i + 1], members[i])
                result = rng.choice(ADLG if system == "adlg" else BATTLE_EMPIRE)
                if result in ("FA", "FB", "DD") and rng.random() < 0.5:
                    a_losses = b_losses = None
                elif coarse:
                    a_losses, b_losses = 10 * rng.randint(0, 10), 10 * rng.randint(0, 10)
                else:
                    a_losses, b_losses = rng.randint(0, 100), rng.randint(0, 100)
                free = rnd == rounds and rnd > 1 and rng.random() < 0.15
                games.append(ScoredGame(rnd, table, a, b, result, a_losses, b_losses, free))
    # Rematches of two players (their head-to-head then adds up), and games listed out of order.
    if len(games) > 2 and rng.random() < 0.3:
        g = rng.choice(games)
        games.append(ScoredGame(g.round, g.table, g.b, g.a, rng.choice(ADLG[:7] if system == "adlg" else BATTLE_EMPIRE),
                                g.b_losses, g.a_losses, g.free))
    rng.shuffle(games)
    return entrants, games, excluded


def as_rows(entrants, games):
    return ([(e.player, e.pool, e.penalty, e.pre_rating) for e in entrants],
            [(None, g.round, g.table, g.a, g.b, g.result, g.a_losses, g.b_losses, g.free) for g in games])


def reference_games(games):
    """The reference takes losses as the facts give them to the standings: blank counts as 0."""
    return [ScoredGame(g.round, g.table, g.a, g.b, g.result, g.a_losses or 0, g.b_losses or 0, g.free) for g in games]


def exactly(value):
    """A comparable form that also tells 1 from 1.0 and 0 from False (repr does)."""
    return repr(value)


# --- standings ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", ["adlg", "battle-empire"])
def test_standings_equal_the_reference_on_random_tournaments(system):
    rng = random.Random(20240316)
    seen = Counter()
    for _ in range(1500):
        entrants, games, excluded = random_tournament(rng, system)
        expected = reference_standings(system=system, entrants=entrants, games=reference_games(games),
                                       excluded=excluded)
        got = standings(system=system, entrants=entrants, games=games, excluded=excluded)
        assert exactly(got) == exactly(expected)
        rows_in, games_in = as_rows(entrants, games)
        fast = standings_from_rows(system=system, entrants=rows_in, games=games_in, excluded=excluded)
        assert exactly(fast) == exactly({
            pool: [(r.rank, r.player, r.score, r.opponents_score, r.penalty, r.wins, r.draws, r.losses, r.games,
                    tuple((d.round, d.opponent, d.result, d.score, d.opponent_score, d.free) for d in r.rounds),
                    r.decided_by) for r in rows]
            for pool, rows in expected.items()
        })
        seen.update(r.decided_by for rows in expected.values() for r in rows)
    # The corpus reaches every tie-break, so the comparison above is not vacuous.
    assert set(seen) == {None, "score", "opponents", "head_to_head", "rating", "id"}, seen


def test_a_tie_of_two_won_by_the_lower_placed_player_is_swapped_as_the_reference_swaps_it():
    # 3 beat 1, and a penalty brings 3 back to 1's score: by rating 1 (900) would come first.
    entrants = [Entrant(1, pre_rating=900), Entrant(2), Entrant(3, penalty=90), Entrant(4)]
    games = [ScoredGame(1, 1, 1, 3, "B", 0, 0), ScoredGame(1, 2, 2, 4, "A", 50, 0)]
    got = standings(system="adlg", entrants=entrants, games=games)
    assert exactly(got) == exactly(reference_standings(system="adlg", entrants=entrants, games=games))
    assert [(r.player, r.decided_by) for r in got[""]][2:] == [(3, "score"), (1, "head_to_head")]


def test_a_player_registered_twice_is_ranked_as_the_reference_ranks_it():
    entrants = [Entrant(1, "A"), Entrant(2, "A"), Entrant(1, "B", penalty=20), Entrant(3, "B")]
    games = [ScoredGame(1, 1, 1, 3, "A", 10, 20), ScoredGame(1, 2, 2, SPARE, "D", 30, 30)]
    got = standings(system="adlg", entrants=entrants, games=games)
    assert exactly(got) == exactly(reference_standings(system="adlg", entrants=entrants, games=games))


@pytest.mark.parametrize(("games", "excluded", "message"), [
    ([ScoredGame(1, 4, 1, 7, "A")], frozenset(), "round 1, table 4: player 7 is not an entrant"),
    ([ScoredGame(1, 1, 1, 3, "A")], frozenset(), "round 1, table 1: the players are in different pools"),
    ([ScoredGame(2, 1, SPARE, SPARE, "A")], frozenset(), "round 2, table 1: the spare cannot play itself"),
    ([ScoredGame(1, 1, 1, 2, "A+")], frozenset(), "unknown AdlG result 'A\\+'"),
    ([ScoredGame(1, 1, 1, 2, "A", 101, 0)], frozenset(), "0 to 100"),
    ([ScoredGame(1, 1, 1, 2, "A"), ScoredGame(1, 2, 3, 8, "A")], frozenset(), "player 8 is not an entrant"),
    ([ScoredGame(1, 1, 1, 7, "A", 200, 0)], frozenset({7}), None),  # void: an excluded player's game
])
def test_wrong_games_are_refused_as_the_reference_refuses_them(games, excluded, message):
    entrants = [Entrant(1, "A"), Entrant(2, "A"), Entrant(3, "B"), Entrant(4, "B")]
    if message is None:
        got = standings(system="adlg", entrants=entrants, games=games, excluded=excluded)
        assert got == reference_standings(system="adlg", entrants=entrants, games=games, excluded=excluded)
        return
    for compute in (standings, reference_standings):
        with pytest.raises(ValueError, match=message):
            compute(system="adlg", entrants=entrants, games=games, excluded=excluded)


def test_an_unknown_system_is_refused_by_the_fast_entry_point_too():
    with pytest.raises(ValueError, match="unknown scoring system 'chess'"):
        standings_from_rows(system="chess", entrants=[], games=[])


# --- charter ------------------------------------------------------------------------------------------


def test_charter_failures_equal_the_reference_on_random_fields():
    rng = random.Random(7)
    seen = Counter()
    for _ in range(3000):
        clubs = rng.choice([["Paris"], ["Paris", "Lyon"], ["Paris", "Lyon", None], ["Paris", "Lyon", "Nantes", None]])
        pools = rng.choice([[""], ["A", "B"]])
        entrants = [CharterEntrant(p, rng.choice(clubs), rng.choice(pools)) for p in range(1, rng.randint(1, 70))]
        if rng.random() < 0.2:
            entrants.append(CharterEntrant(SPARE, None, pools[0]))
        rounds = {pool: rng.randint(0, 7) for pool in pools if rng.random() < 0.9}
        official = rng.random() < 0.8
        expected = reference_charter_failures(official=official, entrants=entrants, rounds_by_pool=rounds)
        assert charter_failures(official=official, entrants=entrants, rounds_by_pool=rounds) == expected
        assert charter_failures_from_rows(official=official, entrants=[(e.player, e.club, e.pool) for e in entrants],
                                          rounds_by_pool=rounds) == expected
        seen.update(f.code for f in expected)
    assert set(seen) == {"not_official", "too_few_players", "too_few_clubs", "club_over_two_thirds", "too_few_rounds"}
