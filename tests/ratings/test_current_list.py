"""The rating list's changes worked out from part of the stored list, at the head of history, are those worked out
from the whole list (ratings.current_list.list_changes with StoredList.whole False)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from players.models import SPARE_ID
from ratings.current_list import StoredList, list_changes
from ratings.engine import Opening, PlayerState
from rules.rulesets import get_ruleset

RULESET = get_ruleset("adlg-2018")
PLAYERS = range(1, 40)
states = st.builds(PlayerState, st.integers(900, 1600), st.integers(0, 60),
                   st.one_of(st.none(), st.dates(date(2015, 1, 1), date(2024, 12, 31))))


@st.composite
def head_replays(draw):
    stored = draw(st.dictionaries(st.sampled_from(PLAYERS), states, max_size=30))
    playing = draw(st.dictionaries(st.sampled_from([*PLAYERS, SPARE_ID]), states, max_size=12))
    openings = [Opening(player, state.rating, state.games, None) for player, state in
                draw(st.dictionaries(st.sampled_from(PLAYERS), states, max_size=8)).items()]
    excluded = frozenset(draw(st.sets(st.sampled_from(PLAYERS), max_size=4)))
    return stored, playing, openings, excluded


def _changes(stored: dict, playing: dict, openings: list, excluded: frozenset, *, held: set | None):
    """list_changes at the head of history, with the whole stored list or only the rows `held`."""
    counts = Counter(state.rating for state in stored.values())
    current = stored if held is None else {p: s for p, s in stored.items() if p in held or s.games == 0}
    ratings = {player: tuple(state) for player, state in current.items()}
    changes = list_changes(
        ruleset=RULESET, history=SimpleNamespace(final=playing), start_state=current,
        facts=SimpleNamespace(excluded=excluded, openings=openings),
        stored=StoredList(ratings, dict(counts), None, held is None))
    return (sorted(changes.stale), sorted(changes.changed, key=repr), sorted(changes.added, key=repr),
            sorted(changes.counts_gone), sorted(changes.counts_changed), sorted(changes.counts_added))


@settings(max_examples=300, deadline=None)
@given(head_replays())
def test_the_list_changes_from_the_rows_a_head_replay_can_change_are_those_from_the_whole_list(replay):
    stored, playing, openings, excluded = replay
    held = set(playing) | excluded | {opening.player for opening in openings}
    assert _changes(stored, playing, openings, excluded, held=held) == _changes(
        stored, playing, openings, excluded, held=None)


def test_a_player_who_moves_to_a_new_rating_moves_the_counts_of_both_ratings():
    stored = {1: PlayerState(1200, 10, date(2024, 1, 1)), 2: PlayerState(1200, 5, date(2024, 1, 1)),
              3: PlayerState(1300, 8, date(2024, 1, 1))}
    stale, changed, added, gone, counts_changed, counts_added = _changes(
        stored, {1: PlayerState(1310, 11, date(2024, 6, 1))}, [], frozenset(), held={1})
    assert (stale, added, gone) == ([], [], [])
    assert changed == [(1, 1310, 11, changed[0][3], date(2024, 6, 1))]
    assert counts_changed == [(1200, 1)] and counts_added == [(1310, 1)]
