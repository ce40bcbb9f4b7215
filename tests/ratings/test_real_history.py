"""Four years of a real federation's history, received as the site receives it: the players imported, each
tournament's sheet uploaded in turn, each year closed once it is over, one tournament arriving late, after its
year was closed. Every replay along the way starts from the date its change touches; a replay from scratch at the
end must find every derived row exactly as those replays left it."""

from __future__ import annotations

import pytest

from players.services import players_import_csv
from ratings.closing import year_close
from ratings.models import RatingEvent, RatingSystem
from ratings.services import replay_from_scratch
from tests.ratings.helpers import derived_state, imported
from tests.ratings.real_history import players_csv, tournaments


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_real_years_replayed_as_they_came_equal_a_replay_from_scratch():
    players_import_csv(text=players_csv())
    received = list(tournaments())
    late = next(t for t in received if t.end.year == 2002 and t.end.month < 12)
    year = received[0].end.year
    for t in received:
        if t is late:
            continue
        while t.end.year > year:
            year_close(year=year)
            if year == late.end.year:
                imported(late.sheet, f"{late.code}.xlsx")  # after its year was closed: replayed from its date
            year += 1
        imported(t.sheet, f"{t.code}.xlsx")
    year_close(year=year)
    incremental = derived_state()

    summary = replay_from_scratch(system=RatingSystem.objects.get(code="adlg"))
    assert derived_state() == incremental
    # Not vacuous: thousands of rated games, every tournament ranked, downgrades in each closed year after the first
    # (in the first, everyone with a game played that year).
    assert summary.games > 3000 and len(incremental["standings"]) > 1000
    assert len(incremental["outcomes"]) == len(received)
    downgraded = set(RatingEvent.objects.filter(kind=RatingEvent.ADJUSTMENT).values_list("year", flat=True))
    assert downgraded == set(range(received[0].end.year + 1, year + 1))
