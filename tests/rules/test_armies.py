"""Armies' records: the mapping of names, mirror games left out, and no share under the minimum sample."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.armies import ArmyGame, army_of, army_records, player_army_records

ALIASES = {"carthaginois": "Carthaginian", "carthage n°45": "Carthaginian"}
NAMES = st.sampled_from(["Carthaginois", "Carthaginian", "carthage n°45", "Romains", "Gaulois", "  romains ", ""])
GAMES = st.lists(st.builds(ArmyGame, NAMES, NAMES, st.sampled_from([0.0, 0.5, 1.0, 1.25, 1.5]),
                           st.integers(1, 6), st.integers(1, 6)), max_size=300)


def test_names_as_typed_map_to_one_army():
    assert army_of("Carthaginois", ALIASES) == army_of("carthage  N°45", ALIASES) == "Carthaginian"
    assert army_of("  Romains ", ALIASES) == "Romains"
    assert army_of("", ALIASES) == ""


def test_a_record_counts_the_mapping_and_leaves_mirror_games_out():
    games = [ArmyGame("Carthaginois", "Romains", 1.0), ArmyGame("carthage n°45", "romains", 0.5),
             ArmyGame("Carthaginian", "Carthaginois", 1.0), ArmyGame("Romains", "Gaulois", 1.0)]
    records, pairs = army_records(games, ALIASES, min_games=2)
    by_army = {r.army: r for r in records}
    assert (by_army["Carthaginian"].games, by_army["Carthaginian"].wins, by_army["Carthaginian"].draws) == (2, 1, 1)
    assert by_army["Romains"][2:6] == (3, 1, 1, 1)  # a loss, a draw, a win against the Gauls
    assert by_army["Carthaginian"].share.value == 0.75
    assert [(p.army, p.opponent, p.games) for p in pairs] == [("Carthaginian", "Romains", 2),
                                                              ("Romains", "Carthaginian", 2)]


@settings(max_examples=200, deadline=None)
@given(GAMES, st.integers(min_value=1, max_value=40))
def test_a_share_is_never_shown_under_the_minimum_sample(games, minimum):
    records, pairs = army_records(games, ALIASES, min_games=minimum)
    for record in records + pairs:
        assert (record.share is None) == (record.games < minimum)
        assert record.games == record.wins + record.draws + record.losses
    assert all(p.games >= minimum for p in pairs)
    # Each counted game is one army's win and the other's loss, or a draw for both.
    assert sum(r.wins for r in records) == sum(r.losses for r in records)


@settings(max_examples=100, deadline=None)
@given(GAMES)
def test_a_players_record_counts_each_of_their_games_once(games):
    played, met = player_army_records(1, games, ALIASES, min_games=5)
    mine = [g for g in games if 1 in (g.player_a, g.player_b)]
    with_army = [g for g in mine if army_of(g.army_a if g.player_a == 1 else g.army_b, ALIASES)]
    assert sum(r.games for r in played) == len(with_army)
    assert all((r.share is None) == (r.games < 5) for r in played + met)
