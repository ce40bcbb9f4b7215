"""A query's rows read as columns (numpy arrays), for the replay's large reads.

On PostgreSQL the query returns one row of arrays (array_agg of each column, in one aggregate node, so every
array holds the rows in the same order), sent in binary: numpy takes a whole-number array as it arrives, and
psycopg makes the strings of a text array. Elsewhere the rows are read and transposed.

Why: a full replay reads a million games. As rows, psycopg makes a tuple and ten values per game, and the replay
then turned them into columns (1.3 s here); as arrays it is 0.8 s, nearly all of it PostgreSQL's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import psycopg
from django.db import connection
from psycopg.adapt import Loader

# The kinds of column: whole numbers, booleans, strings (an array of objects), and whole numbers >= 0 or NULL
# (objects: int or None). None but in OPTIONAL columns.
INT, BOOL, TEXT, OPTIONAL = "int", "bool", "text", "optional"
_NONE = -1  # an OPTIONAL value's NULL on the way (its values are >= 0)
_ARRAYS = (1005, 1007, 1016, 1000)  # the type OIDs of int2[], int4[], int8[] and bool[]
_ELEMENTS = {21: ">i2", 23: ">i4", 20: ">i8", 16: "?"}  # their elements' binary layout, by element type OID
_ARRAY_HEADER = 20  # dimensions, NULL flag, element OID, then length and lower bound of the one dimension


def columns_read(*, columns: Sequence[tuple[str, str]], tail: str, params: Sequence) -> list[np.ndarray]:
    """The columns of `SELECT <expressions> <tail>`: `columns` are (SQL expression, kind) pairs, `tail` the
    query from its FROM on (names from the models, values as %s in `params`)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {', '.join(sql for sql, _ in columns)} {tail}", params)  # noqa: S608
            return rows_as_columns(cursor.fetchall(), [kind for _, kind in columns])
    aggregates = ", ".join(f"array_agg(COALESCE({sql}, {_NONE}))" if kind == OPTIONAL else f"array_agg({sql})"
                           for sql, kind in columns)
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:  # a plain cursor: Django's binds client-side, as text
        for oid in _ARRAYS:
            cursor.adapters.register_loader(oid, _NumbersLoader)
        cursor.execute(f"SELECT {aggregates} {tail}", params, binary=True)  # noqa: S608
        arrays = cursor.fetchone()
    return [_column(values, kind) for values, (_, kind) in zip(arrays, columns, strict=True)]


def rows_as_columns(rows: Sequence[tuple], kinds: Sequence[str]) -> list[np.ndarray]:
    """`rows` (tuples of Python values, None for NULL) as columns of `kinds`."""
    if not rows:
        return [_column(None, kind) for kind in kinds]
    # OPTIONAL values come as they are (None for NULL), not with the sentinel _column reads from PostgreSQL.
    return [np.array(values, dtype=object) if kind == OPTIONAL else _column(values, kind)
            for values, kind in zip(zip(*rows, strict=True), kinds, strict=True)]


def _column(values, kind: str) -> np.ndarray:
    if values is None:  # no row: array_agg gives NULL
        return np.zeros(0, dtype=object if kind in (TEXT, OPTIONAL) else bool if kind == BOOL else np.int64)
    if kind == TEXT:
        return np.array(values, dtype=object)
    if kind == OPTIONAL:
        numbers = np.asarray(values, dtype=np.int64)
        column = numbers.astype(object)
        column[numbers == _NONE] = None
        return column
    return np.asarray(values, dtype=bool if kind == BOOL else np.int64)


class _NumbersLoader(Loader):
    """A one-dimensional binary array of fixed-size numbers without NULL, as a numpy array (int64 or bool)."""

    format = psycopg.pq.Format.BINARY

    def load(self, data) -> np.ndarray:
        dimensions, has_null, element = np.frombuffer(data, dtype=">u4", count=3)
        if dimensions == 0:
            return np.zeros(0, dtype=np.int64)
        if dimensions != 1 or has_null:
            raise ValueError("expected a one-dimensional array without NULL")
        count = int(np.frombuffer(data, dtype=">i4", count=1, offset=12)[0])
        kind = _ELEMENTS[int(element)]
        items = np.frombuffer(data, dtype=np.dtype([("length", ">i4"), ("value", kind)]), count=count,
                              offset=_ARRAY_HEADER)
        return items["value"].astype(bool if kind == "?" else np.int64)
