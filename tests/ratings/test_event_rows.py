"""The history's rows, as PostgreSQL's COPY lines and as SQLite's tuples, are the same rows: the lines are
written by hand for speed (dates made once per tournament, floats' text kept), and must say exactly what the
tuples say, value for value."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from bench.synthetic import make_federation
from ratings.engine import replay
from ratings.history_writer import (
    _adjustment_event_line,
    _adjustment_event_tuple,
    _game_event_line,
    _game_event_tuple,
    copy_text,
)
from ratings.models import RatingSystem
from ratings.services import _event_rows


def test_copy_lines_say_what_the_tuples_say():
    federation = make_federation(players=500, games=5_000, seed=3)
    system = RatingSystem(code="adlg", name="AdlG", ruleset="adlg-2018")
    years = sorted({t.end.year for t in federation.tournaments})
    history = replay(system.get_ruleset(), tournaments=federation.tournaments, openings=federation.openings,
                     closed_years=years[:-1])
    assert history.adjustments  # adjustment rows are in the comparison
    facts = SimpleNamespace(info={t.id: SimpleNamespace(end=t.end, games=[(g.id, g.round, g.table, g.a, g.b, g.result)
                                                                          for g in t.games])
                                  for t in federation.tournaments})
    start = {"first_seq": 1, "start_games": {o.player: o.games for o in federation.openings}, "start_played": {}}
    tuples = list(_event_rows(system, facts, history, game_row=_game_event_tuple,
                              adjustment_row=_adjustment_event_tuple, dates_as_text=False, **start))
    lines = list(_event_rows(system, facts, history, game_row=_game_event_line,
                             adjustment_row=_adjustment_event_line, dates_as_text=True, **start))
    assert len(lines) == len(tuples) > 9_000
    assert lines == ["\t".join(map(copy_text, row)) for row in tuples]
    assert any(isinstance(row[-1], date) for row in tuples)  # last games before, not only NULLs
