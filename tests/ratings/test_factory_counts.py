"""The test factories keep the per-rating counts (RatingCount) as a recount from the ratings gives them, one rating
written at a time: pages read positions from those counts."""

from __future__ import annotations

import pytest

from ratings.models import RatingCount
from ratings.positions import rating_counts_recount
from tests import factories

pytestmark = pytest.mark.django_db


def _counts() -> list[tuple[str, int, int]]:
    return list(RatingCount.objects.order_by("system_id", "rating").values_list("system_id", "rating", "players"))


def test_ratings_written_changed_and_shared_leave_the_counts_a_recount_gives():
    ann, bob, eve = factories.player("Ann", "A"), factories.player("Bob", "B"), factories.player("Eve", "E")
    factories.rating(ann, value=1100)
    factories.rating(bob, value=1100)
    factories.rating(eve, value=900, system_code="battle-empire")
    factories.rating(ann, value=1250)  # moved: 1100 keeps Bob, 1250 gets Ann
    factories.rating(bob, value=1250)  # moved too: 1100 is left with nobody
    factories.rating(bob, value=1250, games=30)  # the same rating again: counted once
    kept = _counts()
    assert kept == [("adlg", 1250, 2), ("battle-empire", 900, 1)]
    rating_counts_recount("adlg")
    rating_counts_recount("battle-empire")
    assert _counts() == kept
