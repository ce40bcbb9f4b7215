"""Binary COPY laid out from columns: PostgreSQL reads back every type, NULLs and texts of any width."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from django.db import connection

from ratings.copy_binary import BinaryCopy, Column, pg_days
from ratings.history_writer import rows_insert

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


def test_an_unknown_type_is_refused():
    with pytest.raises(ValueError, match="numeric"):
        BinaryCopy([Column("numeric", np.array([1]))], 1)
