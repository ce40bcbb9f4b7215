"""The one check behind the question "the winner lost more than the loser": the referee's entry and a player's ask
it through this function (tournaments.live.results.lost_more_question)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.scoring import winner_lost_more

losses = st.integers(min_value=0, max_value=100)


@given(a=losses, b=losses)
def test_a_win_asks_exactly_when_its_winner_lost_more(a, b):
    assert (winner_lost_more("A", a, b) is not None) == (a > b)
    assert (winner_lost_more("B", a, b) is not None) == (b > a)


@given(a=losses, b=losses, code=st.sampled_from(["D", "DD", "FA", "FB"]))
def test_a_draw_or_a_forfeit_never_asks(a, b, code):
    assert winner_lost_more(code, a, b) is None


def test_it_names_the_winners_side_and_both_losses():
    assert winner_lost_more("A", 60, 20) == ("A", 60, 20)
    assert winner_lost_more("B", 10, 30) == ("B", 30, 10)
    assert winner_lost_more("A", None, 20) is None  # losses not typed: nothing to compare
