"""Binary COPY laid out from columns: PostgreSQL reads back every type, NULLs and texts of any width."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import numpy as np
import pytest
from django.db import connection

from ratings.copy_binary import BinaryCopy, Column, column_of, pg_days
from ratings.history_writer import binary_types, indexes_suspended, rows_insert

pytestmark = pytest.mark.django_db


def test_postgresql_reads_back_every_type_null_and_text_width():
    if connection.vendor != "postgresql":
        pytest.skip("binary COPY is PostgreSQL's")
    days = np.array([date(1999, 12, 31).toordinal(), date(2000, 1, 1).toordinal(), date(2026, 11, 21).toordinal()])
    names = np.array(["", "Zoé", "Ab\tc"], dtype=object)
    data = BinaryCopy([
        Column("int2", np.array([-3, 0, 7])),
        Column("int4", np.array([1, 2**31 - 1, -(2**31)])),
        Column("int8", np.array([2**40, 0, -1]), np.array([False, True, False])),
        Column("float8", np.array([0.1, 1.0 / 3.0, -2.5])),
        Column("date", pg_days(days), np.array([False, False, True])),
        Column("bool", np.array([True, False, True])),
        Column("text", "adlg"),
        Column("text", np.array([n.encode() for n in names]), np.array([False, False, True])),
        Column("text", np.array([n.encode() for n in names])),
    ], 3)
    columns = ("a", "b", "c", "d", "e", "f", "g", "h", "i")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE binary_copy (a smallint, b integer, c bigint, d double precision, e date, "
                       "f boolean, g varchar(10), h text, i varchar(20))")
        assert rows_insert(table="binary_copy", columns=columns, rows=data) == 3
        cursor.execute("SELECT a, b, c, d, e, f, g, h, i FROM binary_copy ORDER BY a")
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE binary_copy")
    assert stored == [
        (-3, 1, 2**40, 0.1, date(1999, 12, 31), True, "adlg", "", ""),
        (0, 2**31 - 1, None, 1.0 / 3.0, date(2000, 1, 1), False, "adlg", "Zoé", "Zoé"),
        (7, -(2**31), -1, -2.5, None, True, "adlg", None, "Ab\tc"),
    ]


def test_postgresql_reads_back_cents_as_numeric_of_two_places():
    if connection.vendor != "postgresql":
        pytest.skip("binary COPY is PostgreSQL's")
    cents = [0, 5, 850, 100, 123456789, -2437, 99_999_999_99, 1_000_000]
    data = BinaryCopy([Column("int4", np.arange(len(cents))), Column("cents", np.array(cents))], len(cents))
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE binary_cents (i integer, points numeric(12, 2))")
        rows_insert(table="binary_cents", columns=("i", "points"), rows=data)
        cursor.execute("SELECT points, points::text FROM binary_cents ORDER BY i")
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE binary_cents")
    assert [value for value, _ in stored] == [Decimal(c).scaleb(-2) for c in cents]
    assert [text for _, text in stored][:4] == ["0.00", "0.05", "8.50", "1.00"]


def test_cents_too_large_for_three_digits_are_refused():
    with pytest.raises(ValueError, match="cents beyond"):
        b"".join(BinaryCopy([Column("cents", np.array([10**10]))], 1))


def test_an_unknown_type_is_refused():
    with pytest.raises(ValueError, match="numeric"):
        BinaryCopy([Column("numeric", np.array([1]))], 1)


def test_the_binary_types_follow_the_model_fields():
    from championship.models import ChampionshipTotal
    from championship.services import TOTAL_COLUMNS

    if connection.vendor != "postgresql":
        pytest.skip("the types are PostgreSQL's")
    assert binary_types(ChampionshipTotal, TOTAL_COLUMNS) == [
        "int2", "int4", "cents", "int2", "int4", "bool", "int4", "text"]


def test_columns_of_python_values_read_back_with_their_nulls():
    if connection.vendor != "postgresql":
        pytest.skip("binary COPY is PostgreSQL's")
    rows = [(1, "FR", date(2024, 3, 16), 850, 2.5), (2, None, None, None, None),
            (3, "Zoé\tx", date(1999, 1, 1), 5, 0.1)]
    data = BinaryCopy([column_of(pgtype, values) for pgtype, values in zip(
        ("int4", "text", "date", "cents", "float8"), zip(*rows, strict=True), strict=True)], len(rows))
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE binary_values (i integer, t varchar(10), d date, c numeric(8, 2), "
                       "f double precision)")
        rows_insert(table="binary_values", columns=("i", "t", "d", "c", "f"), rows=data)
        cursor.execute("SELECT i, t, d, c, f FROM binary_values ORDER BY i")
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE binary_values")
    assert stored == [(1, "FR", date(2024, 3, 16), Decimal("8.50"), 2.5), (2, None, None, None, None),
                      (3, "Zoé\tx", date(1999, 1, 1), Decimal("0.05"), 0.1)]


def test_bulk_rows_reads_what_the_orm_reads():
    # The replay reads the rating list on a plain cursor on PostgreSQL: the values must be the ORM's, dates,
    # decimals, booleans and NULLs included.
    from championship.models import ChampionshipResult
    from ratings.history_writer import bulk_rows
    from ratings.models import PlayerRating
    from tests import factories

    first, second = factories.player("Un", id=501), factories.player("Deux", id=502)
    factories.rating(first, value=1234, games=7)
    factories.rating(second, value=987, games=0)
    PlayerRating.objects.filter(player=first).update(last_played=date(2024, 5, 12))
    tournament = factories.tournament()
    ChampionshipResult.objects.create(tournament=tournament, player=first, year=2024, points=Decimal("12.34"),
                                      counted=True)
    for queryset in (PlayerRating.objects.order_by("player_id").values_list("player_id", "rating", "games",
                                                                              "last_played", "rank_code"),
                     ChampionshipResult.objects.values_list("player_id", "points", "counted")):
        assert bulk_rows(queryset) == list(queryset)
    assert bulk_rows(PlayerRating.objects.order_by("player_id").values_list("last_played"))[:2] == [
        (date(2024, 5, 12),), (None,)]


def test_keys_handed_out_for_a_bulk_write_continue_the_sequence_and_an_empty_write_leaves_it_alone():
    if connection.vendor != "postgresql":
        pytest.skip("the writer hands out keys on PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE keyed (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v integer)")
        with indexes_suspended("keyed") as keys:  # a fresh sequence: nothing drawn from it yet
            assert rows_insert(table="keyed", columns=("v",), rows=BinaryCopy([Column("int4", np.zeros(0))], 0),
                               keys=keys) == 0
        with indexes_suspended("keyed") as keys:
            rows_insert(table="keyed", columns=("v",), rows=BinaryCopy([Column("int4", np.array([5, 6]))], 2),
                        keys=keys)
            rows_insert(table="keyed", columns=("v",), rows=BinaryCopy([Column("int4", np.array([7]))], 1),
                        keys=keys)
        cursor.execute("INSERT INTO keyed (v) VALUES (8)")  # a key the database draws
        cursor.execute("SELECT id, v FROM keyed ORDER BY id")
        stored = cursor.fetchall()
        cursor.execute("DROP TABLE keyed")
    assert stored == [(1, 5), (2, 6), (3, 7), (4, 8)]
