"""The history's event rows are worked out as columns (numpy) and sent to PostgreSQL in binary: they must be,
value for value and in the same order, the rows a plain loop over the engine's records gives, and PostgreSQL
must read back from the binary COPY exactly those rows."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection

from bench.synthetic import make_federation
from players.models import SPARE_ID
from ratings.engine import replay
from ratings.event_columns import EventExpansion, RecordColumns, event_columns, record_columns
from ratings.history_writer import EVENT_COLUMNS, rows_insert
from rules.rulesets import get_ruleset


def reference_rows(code, history, *, end_of, result_of, values, first_seq, start_games, start_played):
    """The rows as a plain loop makes them: each player's game count and last rated game kept as it moves."""
    games_count, played = dict(start_games), dict(start_played)
    adjustments = list(history.adjustments)
    seq = first_seq

    def adjustment(year, player, before, after):
        return (code, player, seq, "adjustment", date(year, 12, 31), None, None, None, year, before, after,
                after - before, games_count.get(player, 0), None, None, None, None, played.get(player))

    for gid, tid, a, b, before_a, change_a, k_a, before_b, change_b, k_b, p_a, _, _ in history.games:
        end = end_of[tid]
        while adjustments and date(adjustments[0][0], 12, 31) < end:
            yield adjustment(*adjustments.pop(0))
            seq += 1
        s_a, s_b = values[result_of[gid]]
        for player, opponent, before, change, opponent_rating, k, p, s in (
                (a, b, before_a, change_a, before_b, k_a, p_a, s_a),
                (b, a, before_b, change_b, before_a, k_b, 1.0 - p_a, s_b)):
            if player == SPARE_ID:
                continue
            yield (code, player, seq, "game", end, tid, gid, opponent, None, before, before + change, change,
                   games_count.get(player, 0), opponent_rating, k, p, s, played.get(player))
            games_count[player] = games_count.get(player, 0) + 1
            played[player] = end
            seq += 1
    for row in adjustments:
        yield adjustment(*row)
        seq += 1


def _history(seed: int, *, players: int = 400, games: int = 4_000):
    federation = make_federation(players=players, games=games, seed=seed)
    ruleset = get_ruleset("adlg-2018")
    years = sorted({t.end.year for t in federation.tournaments})
    history = replay(ruleset, tournaments=federation.tournaments, openings=federation.openings,
                     closed_years=years[:-1])
    facts = {
        "end_of": {t.id: t.end for t in federation.tournaments},
        "result_of": {g.id: g.result for t in federation.tournaments for g in t.games},
        "values": ruleset.result_values,
    }
    return federation, history, facts


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_event_columns_are_the_rows_of_a_plain_loop(seed):
    federation, history, facts = _history(seed)
    start = {"first_seq": 1, "start_games": {o.player: o.games for o in federation.openings}, "start_played": {}}
    expected = list(reference_rows("adlg", history, **facts, **start))
    rows = list(event_columns(code="adlg", games=history.games, adjustments=history.adjustments, spare=SPARE_ID,
                              **facts, **start).tuples())
    assert rows == expected
    assert len(rows) > 7_000
    assert any(row[3] == "adjustment" for row in rows) and any(row[7] == SPARE_ID for row in rows)
    assert any(row[-1] is not None for row in rows) and any(row[-1] is None for row in rows)


def test_event_columns_continue_from_a_start_state():
    # An incremental replay starts numbering after the stored events, from each player's stored count and date.
    federation, history, facts = _history(5)
    players = sorted({row[2] for row in history.games} | {row[3] for row in history.games})
    start = {
        "first_seq": 1_000_001,
        "start_games": {p: p % 17 for p in players[::2]},
        "start_played": {p: date(1990, 1, 1) + timedelta(days=p) for p in players[::3]},
    }
    expected = list(reference_rows("adlg", history, **facts, **start))
    rows = list(event_columns(code="adlg", games=history.games, adjustments=history.adjustments, spare=SPARE_ID,
                              **facts, **start).tuples())
    assert rows == expected
    assert rows[0][2] == 1_000_001


@pytest.mark.parametrize("every", [1, 37, 500, 10_000])
def test_the_history_expanded_in_chunks_while_the_engine_runs_is_the_whole_expansion(every):
    # The replay writes the history chunk by chunk as the engine goes (its progress): adjustments fall on
    # chunk boundaries, players carry their counts and dates from one chunk to the next.
    federation, whole, facts = _history(13)
    ruleset = get_ruleset("adlg-2018")
    years = sorted({t.end.year for t in federation.tournaments})
    start = {"first_seq": 51, "start_games": {o.player: o.games for o in federation.openings},
             "start_played": {p: date(1999, 1, 1) for p in federation.players[::5]}}
    expansion = EventExpansion(code="adlg", spare=SPARE_ID, **facts, **start)
    chunks = []
    history = replay(ruleset, tournaments=federation.tournaments, openings=federation.openings,
                     closed_years=years[:-1], every=every,
                     progress=lambda games, adjustments: chunks.append(expansion.next(games, adjustments)))
    chunks.append(expansion.next(history.games, history.adjustments))
    expected = list(event_columns(code="adlg", games=whole.games, adjustments=whole.adjustments, spare=SPARE_ID,
                                  **facts, **start).tuples())
    assert [row for chunk in chunks for row in chunk.tuples()] == expected
    # The standings read the records' columns the expansion made on the way: every record, in order.
    joined, whole_records = expansion.records(), record_columns(whole.games)
    for name in list(RecordColumns.__dataclass_fields__)[:11]:
        assert getattr(joined, name).tolist() == getattr(whole_records, name).tolist(), name
    assert joined.game.tolist() == [g[0] for g in whole.games]
    # With each game's result looked up on the way, as an index into the sorted result codes.
    assert [joined.result_codes[i] for i in joined.result.tolist()] == [facts["result_of"][g[0]] for g in whole.games]
    # 4,000 games: progress every 10,000 never comes, the whole history is the last chunk.
    assert len(chunks) == 1 if every == 10_000 else len(chunks) > 5


def test_no_games_and_no_adjustments_make_no_rows():
    columns = event_columns(code="adlg", games=[], adjustments=[], end_of={}, result_of={}, values={"A": (1.0, 0.0)},
                            first_seq=1, start_games={}, start_played={}, spare=SPARE_ID)
    assert len(columns) == 0 and list(columns.tuples()) == []


def test_adjustments_alone_make_rows():
    columns = event_columns(code="adlg", games=[], adjustments=[(2020, 7, 1600, 1550), (2021, 7, 1550, 1500)],
                            end_of={}, result_of={}, values={}, first_seq=4, start_games={7: 30},
                            start_played={7: date(2019, 5, 1)}, spare=SPARE_ID)
    assert list(columns.tuples()) == [
        ("adlg", 7, 4, "adjustment", date(2020, 12, 31), None, None, None, 2020, 1600, 1550, -50, 30,
         None, None, None, None, date(2019, 5, 1)),
        ("adlg", 7, 5, "adjustment", date(2021, 12, 31), None, None, None, 2021, 1550, 1500, -50, 30,
         None, None, None, None, date(2019, 5, 1)),
    ]


@pytest.mark.django_db
def test_postgresql_reads_back_the_binary_copy_as_the_rows():
    if connection.vendor != "postgresql":
        pytest.skip("binary COPY is PostgreSQL's")
    federation, history, facts = _history(7, players=300, games=2_000)
    start = {"first_seq": 1, "start_games": {}, "start_played": {}}
    columns = event_columns(code="adlg", games=history.games, adjustments=history.adjustments, spare=SPARE_ID,
                            **facts, **start)
    names = ", ".join(EVENT_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TEMP TABLE event_copy AS SELECT {names} FROM ratings_ratingevent WITH NO DATA")  # noqa: S608
        assert rows_insert(table="event_copy", columns=EVENT_COLUMNS, rows=columns.binary_copy()) == len(columns)
        cursor.execute(f"SELECT {names} FROM event_copy ORDER BY seq")  # noqa: S608
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE event_copy")
    assert stored == list(columns.tuples())
