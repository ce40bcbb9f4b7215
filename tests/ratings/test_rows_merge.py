"""rows_merge (PostgreSQL): the rows a condition selects become exactly the rows given, and only the differing
ones are written: equal rows keep their identity, the rest are deleted or inserted."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection

from ratings.history_writer import EVENT_COLUMNS, MERGE_WORK_MEM, rows_merge
from ratings.models import RatingEvent

pytestmark = pytest.mark.django_db


def _event(seq: int, player: int, rating: int, *, day: date = date(2024, 5, 1), score: float | None = 1.0):
    return ("adlg", player, seq, "game", day, None, None, None, None, rating, rating + 5, 5, seq, 1000, 30, 0.5,
            score, None)


def _stored() -> list[tuple]:
    return list(RatingEvent.objects.order_by("seq").values_list(*EVENT_COLUMNS))


def test_only_the_differing_rows_are_rewritten():
    if connection.vendor != "postgresql":
        pytest.skip("the merge is PostgreSQL's (SQLite rewrites the rows)")
    before = [_event(1, 101, 1000, day=date(2024, 1, 1)), _event(2, 101, 1005), _event(3, 102, 990),
              _event(4, 103, 1010), _event(5, 104, 1020, score=None)]
    RatingEvent.objects.bulk_create([RatingEvent(**dict(zip(EVENT_COLUMNS, row, strict=True))) for row in before])
    ids = dict(RatingEvent.objects.order_by("seq").values_list("seq", "id"))
    after = [_event(2, 101, 1005), _event(3, 102, 991), _event(5, 104, 1020, score=None), _event(6, 105, 900)]
    given = rows_merge(table=RatingEvent._meta.db_table, columns=EVENT_COLUMNS, key=("seq", "player_id"),
                       stale="e.system_id = %s AND e.date >= %s", params=["adlg", date(2024, 3, 1)],
                       rows=after)
    assert given == 4
    assert _stored() == [before[0], *after]  # seq 1 is before the cut: untouched; seq 4 is gone
    now = dict(RatingEvent.objects.order_by("seq").values_list("seq", "id"))
    assert now[1] == ids[1] and now[2] == ids[2] and now[5] == ids[5]  # equal rows (NULLs included) were kept
    assert now[3] != ids[3]  # a differing row was replaced


def test_the_merge_gives_its_join_more_working_memory_and_puts_the_setting_back():
    if connection.vendor != "postgresql":
        pytest.skip("the merge is PostgreSQL's (SQLite rewrites the rows)")
    seen = []

    def watch(execute, sql, params, many, context):
        if "_diff" in sql and sql.lstrip().startswith("CREATE TEMP TABLE"):
            with context["connection"].cursor() as cursor:
                cursor.execute("SHOW work_mem")
                seen.append(cursor.fetchone()[0])
        return execute(sql, params, many, context)

    with connection.cursor() as cursor:
        cursor.execute("SHOW work_mem")
        before = cursor.fetchone()[0]
    with connection.execute_wrapper(watch):
        rows_merge(table=RatingEvent._meta.db_table, columns=EVENT_COLUMNS, key=("seq", "player_id"),
                   stale="e.system_id = %s", params=["adlg"], rows=[_event(1, 101, 1000)])
    with connection.cursor() as cursor:
        cursor.execute("SHOW work_mem")
        assert cursor.fetchone()[0] == before
    assert seen == [MERGE_WORK_MEM] != [before]
