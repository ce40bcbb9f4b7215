"""The replay's large reads as columns: the same values, NULLs and order as the rows, on either database; the
facts grouped tournament by tournament whatever order the rows come in."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.column_reads import BOOL, INT, OPTIONAL, TEXT, columns_read, rows_as_columns
from ratings.facts import TournamentInfo, facts_of

pytestmark = pytest.mark.django_db

KINDS = [INT, INT, INT, BOOL, TEXT, OPTIONAL]
ROWS = [(3, 2**40, -7, True, "Zoé", None), (1, 0, 32000, False, "", 0), (2, -1, 5, True, "A\tB,\x1f", 65000)]


@pytest.fixture
def numbers_table():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE read_back (n integer, big bigint, small smallint, flag boolean, "
                       "label text, maybe integer)")
        cursor.executemany("INSERT INTO read_back VALUES (%s, %s, %s, %s, %s, %s)", ROWS)
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE read_back")


def _as_lists(columns: list[np.ndarray]) -> list[list]:
    return [column.tolist() for column in columns]


def test_columns_hold_the_rows_values_nulls_and_order_in_every_type(numbers_table):
    columns = columns_read(columns=list(zip(["n", "big", "small", "flag", "label", "maybe"], KINDS, strict=True)),
                           tail="FROM (SELECT * FROM read_back ORDER BY n) AS r WHERE r.n > %s", params=[0])
    assert _as_lists(columns) == [list(values) for values in zip(*sorted(ROWS), strict=True)]
    assert [column.dtype for column in columns] == [np.int64, np.int64, np.int64, bool, object, object]


def test_no_row_gives_empty_columns_of_each_kind(numbers_table):
    columns = columns_read(columns=list(zip(["n", "big", "small", "flag", "label", "maybe"], KINDS, strict=True)),
                           tail="FROM read_back WHERE n > %s", params=[100])
    assert [len(column) for column in columns] == [0] * len(KINDS)
    assert [column.dtype for column in columns] == [np.int64, np.int64, np.int64, bool, object, object]


def test_rows_as_columns_keeps_none_only_where_allowed():
    columns = rows_as_columns(ROWS, KINDS)
    assert _as_lists(columns) == [list(values) for values in zip(*ROWS, strict=True)]
    assert rows_as_columns([], KINDS)[5].dtype == object


def _info(tid: int) -> TournamentInfo:
    return TournamentInfo(tid, f"T{tid}", date(2024, 1, tid), date(2024, 1, tid), "FR", True, False, 3, None)


def test_facts_group_rows_in_the_tournaments_order_and_leave_out_unknown_tournaments():
    info = {tid: _info(tid) for tid in (9, 4, 6)}
    games = [(6, 61, 1, 1, 1, 2, "A", 10, None, False), (4, 41, 1, 1, 3, 4, "B", None, None, False),
             (5, 51, 1, 1, 5, 6, "D", 1, 1, False),  # a tournament the facts do not hold
             (6, 62, 2, 1, 2, 1, "D", 0, 0, True), (4, 42, 2, 1, 4, 3, "FA", None, None, False)]
    registrations = [(6, 2, "A", 0, None), (4, 3, "", 20, 7), (6, 1, "A", 0, 8)]
    facts = facts_of(info=info, games=games, registrations=registrations)
    assert facts.games.starts.tolist() == [0, 0, 2, 4]  # 9 has none, then 4, then 6
    assert facts.games.rows(1) == [(41, 1, 1, 3, 4, "B", None, None, False), (42, 2, 1, 4, 3, "FA", None, None, False)]
    assert facts.games.rows(2) == [(61, 1, 1, 1, 2, "A", 10, None, False), (62, 2, 1, 2, 1, "D", 0, 0, True)]
    assert facts.registrations.rows(2) == [(2, "A", 0, None), (1, "A", 0, 8)]
    assert [(t.id, [g.id for g in t.games], list(t.players)) for t in facts.tournaments] == [
        (9, [], []), (4, [41, 42], [3]), (6, [61, 62], [2, 1])]
    assert facts.result_of() == {41: "B", 42: "FA", 61: "A", 62: "D"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(["A", "B", "D"]),
                          st.one_of(st.none(), st.integers(0, 100))), max_size=40),
       st.permutations(list(range(1, 7))), st.randoms(use_true_random=False))
def test_facts_are_the_same_whatever_order_the_rows_come_in(games, tournament_order, rng):
    info = {tid: _info(tid) for tid in tournament_order}
    rows = [(tid, gid, 1, gid, 1, 2, result, losses, None, False) for gid, (tid, result, losses) in enumerate(games)]
    shuffled = rows[:]
    rng.shuffle(shuffled)
    # Each tournament's own rows keep their order; the tournaments' rows interleave at random.
    by_tournament = {tid: [row for row in rows if row[0] == tid] for tid in info}
    interleaved = [by_tournament[row[0]].pop(0) for row in shuffled]
    expected = facts_of(info=info, games=sorted(rows, key=lambda row: tournament_order.index(row[0])),
                        registrations=[])
    got = facts_of(info=info, games=interleaved, registrations=[])
    assert [got.games.rows(i) for i in range(len(info))] == [expected.games.rows(i) for i in range(len(info))]
    assert got.games.starts.tolist() == expected.games.starts.tolist()
    assert [[g.id for g in t.games] for t in got.tournaments] == [[g.id for g in t.games] for t in expected.tournaments]
