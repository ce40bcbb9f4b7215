"""Properties of the pairing over random pools, clubs and results (hypothesis).

Pools of 2 to 64 players, odd and even; clubs from a few, some players independent; histories made of earlier
rounds (each a random complete pairing, the spare in it when the pool is odd), sometimes with extra games
thrown in so that rematch conflicts are common. Checked:

- each player exactly once per round, the spare only when P is odd, never a rematch;
- "no pairing" only when none exists (brute force over every pairing, on small pools);
- the spare against the lowest player who has not met it (the next one up only when the lowest would leave
  the rest without a pairing);
- round 1 `draw` with the fewest club-mates any pairing has (none wherever a pairing without them exists);
- the same seed giving the same draw;
- rounds from 2 on equal to tests/rules/pairing_reference.py, PAIRING.md §4 written out a second time.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rules.pairing import (
    Entrant,
    PairingRefused,
    Pool,
    choose_system,
    deal_groups,
    initial_standing,
    pair_round,
    round_one_methods,
)
from rules.pairing.round_one import level_groups
from tests.rules import pairing_reference as reference
from tests.rules.pairing_helpers import SPARE

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
THOROUGH = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_round(rng: random.Random, ids: list[int]) -> list[tuple[int, int]]:
    players = [*ids, SPARE] if len(ids) % 2 else list(ids)
    rng.shuffle(players)
    return list(zip(players[::2], players[1::2], strict=True))


@st.composite
def pools(draw, *, min_players=2, max_players=64, rnd=None, extra_games=True, groups=False, hats=False, odd=False):
    """A pool before some round, its history drawn at random (`odd`: an odd number of players)."""
    players = draw(st.integers(min_players, max_players))
    if odd:
        players -= 1 - players % 2
    rounds = draw(st.integers(2, 7))
    number = rnd if rnd is not None else draw(st.integers(2, rounds))
    rounds = max(rounds, number)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ids = rng.sample([i for i in range(1, 400) if i != SPARE], players)
    clubs = draw(st.integers(1, 6))
    independent = draw(st.floats(0, 0.5))
    entrants = [
        Entrant(i, rng.randrange(600, 1600), None if rng.random() < independent else rng.randrange(clubs),
                hat=rng.choice((1, 2)) if hats else None)
        for i in ids
    ]
    if groups:
        dealt = deal_groups(initial_standing(entrants))
        entrants = [Entrant(e.id, e.rating, e.club, e.hat, dealt[e.id]) for e in entrants]
    met = [pair for _ in range(number - 1) for pair in random_round(rng, ids)]
    if extra_games and draw(st.booleans()):
        density = draw(st.floats(0, 0.6))
        met += [(a, b) for a, b in reference.every_pair([*ids, SPARE]) if rng.random() < density * 0.5]
    standing = rng.sample(ids, len(ids))
    return Pool(entrants, standing, met, round=number, rounds=rounds)


def try_pair(pool: Pool, **kw):
    # The events show, with --hypothesis-show-statistics, that the pools drawn reach what they should.
    event("players", f"{(pool.size - 1) // 16 * 16 + 1}-{(pool.size - 1) // 16 * 16 + 16}")
    try:
        pairing = pair_round(pool, **kw)
    except PairingRefused as refused:
        assert refused.codes == ("no_pairing_without_rematch",), refused
        event("no pairing")
        return None
    for w in pairing.warnings:
        event(w.code)
    return pairing


def assert_each_player_once_and_no_rematch(pool: Pool, pairing) -> None:
    seen = Counter(x for p in pairing.pairs for x in (p.a, p.b))
    expected = set(pool.standing) | ({SPARE} if pool.size % 2 else set())
    assert set(seen) == expected and set(seen.values()) <= {1}
    assert not any(pool.met(p.a, p.b) for p in pairing.pairs)
    assert [p.table for p in pairing.pairs] == list(range(1, len(pairing.pairs) + 1))


# --- from round 2: the reference, step by step ------------------------------------------------------------------


@THOROUGH
@given(pool=pools(), system=st.sampled_from(["classic", "adapted"]))
def test_rounds_from_two_follow_pairing_md_section_4_step_by_step(pool, system):
    pairing = try_pair(pool, system=system)
    expected = reference.swiss(pool, system)
    if expected is reference.NO_PAIRING:
        assert pairing is None
        return
    assert pairing is not None
    assert_each_player_once_and_no_rematch(pool, pairing)
    assert [(p.a, p.b) for p in pairing.pairs] == in_table_order(pool, expected)


def in_table_order(pool: Pool, pairs) -> list[tuple[int, int]]:
    """§2.5 read plainly: the higher placed player first, pairs by their higher player, the spare's game last."""
    place = {p: n for n, p in enumerate(pool.standing)}
    place[SPARE] = len(place)
    oriented = [tuple(sorted(pair, key=place.__getitem__)) for pair in pairs]
    return sorted(oriented, key=lambda pair: (pair[1] == SPARE, place[pair[0]]))


@FAST
@given(pool=pools(max_players=40, groups=True))
def test_two_groups_from_round_two_follow_pairing_md_step_by_step(pool):
    pairing = try_pair(pool, system="groups")
    expected = reference.groups(pool)
    if expected is reference.NO_PAIRING:
        assert pairing is None
        return
    assert pairing is not None
    event("stage", pairing.stage)
    assert_each_player_once_and_no_rematch(pool, pairing)
    assert [(p.a, p.b) for p in pairing.pairs] == in_table_order(pool, expected)
    group = {p.id: p.group for p in pool.players}
    if pairing.stage == "inside":
        crossing = [p for p in pairing.pairs if p.b != SPARE and group[p.a] != group[p.b]]
        odd_groups = sum(sum(g == name for g in group.values()) % 2 for name in "AB")
        assert len(crossing) == (1 if odd_groups == 2 else 0)


# --- never a rematch, or "no pairing" only when none exists -----------------------------------------------------


@THOROUGH
@given(pool=pools(max_players=9), system=st.sampled_from(["classic", "adapted"]))
def test_no_pairing_is_answered_only_when_no_pairing_without_a_rematch_exists(pool, system):
    pairing = try_pair(pool, system=system)
    assert (pairing is None) == (not reference.exists_pairing(pool))
    if pairing is not None:
        assert_each_player_once_and_no_rematch(pool, pairing)


@THOROUGH
@given(pool=st.one_of(pools(min_players=3, odd=True), pools(min_players=3, max_players=11, odd=True)))
def test_the_spare_meets_the_lowest_player_who_has_not_met_it(pool):
    pairing = try_pair(pool, system="classic")
    assume(pairing is not None)
    partner = next(p.a for p in pairing.pairs if p.b == SPARE)
    assert pairing.pairs[-1].b == SPARE  # and its game is the last table
    not_met = [q for q in reversed(pool.standing) if not pool.met(q, SPARE)]
    feasibility = reference.Feasibility(pool.standing, reference.allowed_by(pool))
    # The lowest who has not met it, passed over only when the rest could not then be paired at all.
    skipped = not_met[:not_met.index(partner)]
    assert all(not feasibility.can_pair([p for p in pool.standing if p != q]) for q in skipped)
    assert ([w.params["lowest"] for w in pairing.warnings if w.code == "spare_not_lowest"]
            == ([not_met[0]] if skipped else []))


@FAST
@given(pool=pools(max_players=64, extra_games=False), system=st.sampled_from(["classic", "adapted"]))
def test_a_tournament_history_without_extra_games_is_paired_with_each_player_once(pool, system):
    pairing = try_pair(pool, system=system)
    if pairing is None:
        assert not reference.Feasibility([*pool.standing, SPARE], reference.allowed_by(pool)).can_pair(
            [*pool.standing, SPARE] if pool.size % 2 else pool.standing)
    else:
        assert_each_player_once_and_no_rematch(pool, pairing)


# --- round 1 ------------------------------------------------------------------------------------------------------


@st.composite
def round_one_pools(draw, max_players=64, hats=False, groups=False):
    """A pool before round 1: no game played, the standing by rating."""
    pool = draw(pools(max_players=max_players, rnd=1, extra_games=False, hats=hats, groups=groups))
    return Pool(pool.players, initial_standing(pool.players), (), round=1, rounds=pool.rounds)


@THOROUGH
@given(pool=round_one_pools(max_players=9), seed=st.integers(0, 2**31 - 1))
def test_round_one_draw_keeps_club_mates_apart_wherever_the_pool_allows(pool, seed):
    assume("draw" in round_one_methods(pool.size, pool.rounds))
    pairing = pair_round(pool, system="adapted", method="draw", seed=seed)
    assert_each_player_once_and_no_rematch(pool, pairing)
    club_mates = sum(pool.club_mates(p.a, p.b) for p in pairing.pairs)
    assert club_mates == reference.min_club_mates(pool, pool.standing)
    assert [w.code for w in pairing.warnings] == ["club_mates"] * club_mates


@FAST
@given(pool=round_one_pools(), seed=st.integers(0, 2**31 - 1), shuffle=st.randoms(use_true_random=False))
def test_the_same_seed_gives_the_same_draw(pool, seed, shuffle):
    system = "classic" if pool.size > 2**pool.rounds else "adapted"  # groups have their own property
    for method in round_one_methods(pool.size, pool.rounds)[:3]:
        if method == "hats":
            continue  # no hats in this pool: see the hats property
        first = pair_round(pool, system=system, method=method, seed=seed)
        listed = list(pool.players)
        shuffle.shuffle(listed)
        again = pair_round(Pool(listed, pool.standing, (), round=1, rounds=pool.rounds), system=system,
                           method=method, seed=seed)
        assert first == again and first.seed == seed
        assert_each_player_once_and_no_rematch(pool, first)


@FAST
@given(pool=round_one_pools(hats=True), seed=st.integers(0, 2**31 - 1))
def test_hats_pair_across_the_hats_as_far_as_the_smaller_one_goes(pool, seed):
    assume("hats" in round_one_methods(pool.size, pool.rounds))
    pairing = pair_round(pool, system="adapted", method="hats", seed=seed)
    assert pairing == pair_round(pool, system="adapted", method="hats", seed=seed)
    assert_each_player_once_and_no_rematch(pool, pairing)
    hat = {p.id: p.hat for p in pool.players}
    played = [p for p in pairing.pairs if p.b != SPARE]
    smaller = min(sum(hat[p] == h for p in pool.standing) for h in (1, 2))
    assert sum(hat[p.a] != hat[p.b] for p in played) == smaller
    if pool.size % 2:  # the spare meets a name of the larger hat (PAIRING.md §2.3, 2026-12-02)
        larger = 1 if sum(hat[p] == 1 for p in pool.standing) > pool.size // 2 else 2
        assert pairing.pairs[-1].b == SPARE and hat[pairing.pairs[-1].a] == larger


@FAST
@given(small=st.integers(1, 20), seed=st.integers(0, 2**31 - 1), hat_one_larger=st.booleans(),
       clubs=st.lists(st.sampled_from(["X", "Y", "Z", None]), min_size=41, max_size=41),
       order=st.randoms(use_true_random=False))
def test_hats_one_apart_with_the_spare_never_pair_two_names_of_a_hat(small, seed, hat_one_larger, clubs, order):
    """Hats of sizes n + 1 and n (an odd pool, so the spare plays): every pair is one name from each hat, and
    the spare takes the name of the larger hat left over (PAIRING.md §2.3, decision of 2026-12-02)."""
    ids = list(range(1, 2 * small + 2))
    order.shuffle(ids)
    larger, smaller = (1, 2) if hat_one_larger else (2, 1)
    hat = {p: (larger if n <= small else smaller) for n, p in enumerate(ids)}
    players = [Entrant(p, 1000 + 7 * p % 400, clubs[p - 1], hat[p]) for p in ids]
    pool = Pool(players, initial_standing(players), (), round=1, rounds=6)  # P <= N: hats allowed
    pairing = pair_round(pool, system="adapted", method="hats", seed=seed)
    assert_each_player_once_and_no_rematch(pool, pairing)
    assert all(hat[p.a] != hat[p.b] for p in pairing.pairs if p.b != SPARE)
    spare_games = [p for p in pairing.pairs if p.b == SPARE]
    assert len(spare_games) == 1 and hat[spare_games[0].a] == larger


@FAST
@given(pool=round_one_pools(), seed=st.integers(0, 2**31 - 1))
def test_elo_levels_pair_inside_each_level_the_spare_with_the_lowest(pool, seed):
    pairing = pair_round(pool, system="classic", method="elo-levels", seed=seed)
    assert_each_player_once_and_no_rematch(pool, pairing)
    order = list(pool.standing)
    if pool.size % 2:
        assert (pairing.pairs[-1].a, pairing.pairs[-1].b) == (order.pop(), SPARE)
    level = {p: n for n, members in enumerate(level_groups(order, 4 if pool.size >= 32 else 3)) for p in members}
    assert all(level[p.a] == level[p.b] for p in pairing.pairs if p.b != SPARE)


@FAST
@given(pool=round_one_pools(max_players=32, groups=True), seed=st.integers(0, 2**31 - 1),
       method=st.sampled_from(["draw", "hats", "elo-levels"]))
def test_groups_round_one_pairs_inside_each_group(pool, seed, method):
    assume(choose_system(pool.size, pool.rounds) == "groups")
    pool = Pool([Entrant(p.id, p.rating, p.club, 1 + p.id % 2, p.group) for p in pool.players], pool.standing,
                round=1, rounds=pool.rounds)
    pairing = pair_round(pool, system="groups", method=method, seed=seed)
    assert_each_player_once_and_no_rematch(pool, pairing)
    group = {p.id: p.group for p in pool.players}
    crossing = [p for p in pairing.pairs if p.b != SPARE and group[p.a] != group[p.b]]
    both_odd = all(sum(g == name for g in group.values()) % 2 for name in "AB")
    assert len(crossing) == int(both_odd)


# --- whole tournaments ------------------------------------------------------------------------------------------


@FAST
@given(players=st.integers(2, 64), rounds=st.integers(2, 7), seed=st.integers(0, 2**32 - 1),
       swiss=st.sampled_from([None, "classic"]))
def test_a_whole_tournament_pairs_each_player_once_a_round_without_a_rematch(players, rounds, seed, swiss):
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randrange(600, 1600), rng.choice([None, 1, 2, 3])) for i in range(1, players + 1)]
    system = choose_system(players, rounds, swiss if players == 2**rounds else None)
    if system == "groups":
        dealt = deal_groups(initial_standing(entrants))
        entrants = [Entrant(e.id, e.rating, e.club, None, dealt[e.id]) for e in entrants]
    standing = list(initial_standing(entrants))
    score = dict.fromkeys(standing, 0)
    played: list[tuple[int, int]] = []
    for number in range(1, rounds + 1):
        pool = Pool(entrants, standing, played, round=number, rounds=rounds)
        pairing = try_pair(pool, system=system, seed=seed)
        if pairing is None:
            expected = reference.groups(pool) if system == "groups" else reference.swiss(pool, system)
            assert expected is reference.NO_PAIRING
            return
        assert_each_player_once_and_no_rematch(pool, pairing)
        for p in pairing.pairs:
            played.append((p.a, p.b))
            winner = p.a if p.b == SPARE or rng.random() < 0.6 else p.b
            score[winner] = score.get(winner, 0) + 1
        standing.sort(key=lambda i: (-score[i], i))
