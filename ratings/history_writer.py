"""Bulk writers for the derived rows: COPY on PostgreSQL, executemany on SQLite. Never a query per row."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db import connection
from psycopg.copy import QueuedLibpqWriter

from ratings.copy_binary import BinaryCopy

COPY_NULL = "\\N"  # NULL in COPY text
# Rows per fetch of the replay's bulk reads on SQLite (bulk_rows): a plain queryset fetches 100 at a time.
BULK_READ = 20000
EVENT_COLUMNS = (
    "system_id", "player_id", "seq", "kind", "date", "tournament_id", "game_id", "opponent_id", "year",
    "rating_before", "rating_after", "change", "games_before", "opponent_rating", "k", "expected", "score",
    "last_played_before",
)


def bulk_rows(queryset) -> list[tuple]:
    """The rows of a values_list() queryset, read for a replay. On PostgreSQL its SQL runs on a plain cursor
    and every row comes in one fetch: `.iterator()` goes through a server-side cursor and the ORM's row
    machinery, which cost more than the query on the rating list of a large federation (0.4 s against 0.1 s
    for 100,000 rows here). Its values need no conversion there (integers, texts, dates, booleans, decimals:
    psycopg makes them what the ORM would); elsewhere the ORM reads them, converters and all."""
    if connection.vendor != "postgresql":
        return list(queryset.iterator(chunk_size=BULK_READ))
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


_BINARY_TYPES = {"smallint": "int2", "integer": "int4", "bigint": "int8", "double precision": "float8",
                 "date": "date", "boolean": "bool"}


def binary_types(model, columns: Sequence[str]) -> list[str]:
    """The binary COPY type (ratings.copy_binary) of each of `model`'s `columns` (column names), read from the
    model's own fields: a field changed in a migration changes its encoding with it."""
    fields = {field.column: field for field in model._meta.concrete_fields}
    types = []
    for column in columns:
        db_type = fields[column].db_type(connection)
        if db_type == "text" or db_type.startswith("varchar"):
            types.append("text")
        elif re.fullmatch(r"numeric\(\d+, ?2\)", db_type):
            types.append("cents")  # two decimal places, sent as whole cents
        else:
            types.append(_BINARY_TYPES[db_type])
    return types


def rows_insert(*, table: str, columns: Sequence[str], rows: Iterable, keys: IdRange | None = None) -> int:
    """Insert plain tuples into `table` (or a BinaryCopy, PostgreSQL only); returns the rows written. `keys`:
    the rows' primary keys are taken from it (a BinaryCopy into a table held exclusively, indexes_suspended);
    without it the database draws them."""
    if keys is not None and isinstance(rows, BinaryCopy):
        rows, columns = rows.keyed(keys.take(len(rows))), ("id", *columns)
    column_list = ", ".join(connection.ops.quote_name(c) for c in columns)
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            raw = cursor.cursor
            # Table and column names come from the models, never from input; values travel as COPY data.
            # Rows are encoded here in COPY's text format and sent in large blocks: psycopg's write_row
            # adapts value by value and costs three times as much on the history's millions of rows.
            # A writer thread sends the blocks, so PostgreSQL ingests one while Python encodes the next.
            statement = f"COPY {connection.ops.quote_name(table)} ({column_list}) FROM STDIN"  # noqa: S608
            if isinstance(rows, BinaryCopy):
                with raw.copy(f"{statement} (FORMAT BINARY)", writer=QueuedLibpqWriter(raw)) as copy:
                    for block in rows:
                        copy.write(block)
                return len(rows)
            with raw.copy(statement, writer=QueuedLibpqWriter(raw)) as copy:
                block: list[str] = []
                for row in rows:
                    block.append("\t".join(map(copy_text, row)))
                    if len(block) >= 20000:
                        count += len(block)
                        copy.write("\n".join(block) + "\n")
                        block = []
                if block:
                    count += len(block)
                    copy.write("\n".join(block) + "\n")
            return count
        placeholders = ", ".join(["%s"] * len(columns))
        sql = f"INSERT INTO {connection.ops.quote_name(table)} ({column_list}) VALUES ({placeholders})"  # noqa: S608
        batch: list[tuple] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= 5000:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value) -> str:
    """One value in PostgreSQL COPY text format (NULL is \\N; strings escaped; floats keep every digit)."""
    if value is None:
        return COPY_NULL
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, str):
        return value.translate(_COPY_ESCAPES)
    return str(value)


def rows_update(*, table: str, key: str, columns: Sequence[str], rows: Sequence[tuple],
                scope: tuple[str, object] | None = None) -> None:
    """Update many rows by `key` in a few statements: rows are (key, *columns). `scope` = (column, value)
    narrows every update (e.g. the rating system when the key is the player)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    scope_sql, scope_params = (f" AND t.{quote(scope[0])} = %s", [scope[1]]) if scope else ("", [])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One UPDATE … FROM (VALUES …) per chunk; casts come from the target table's own column types.
            for start in range(0, len(rows), 5000):
                chunk = rows[start:start + 5000]
                values = ", ".join(["(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"] * len(chunk))
                assignments = ", ".join(
                    f"{quote(c)} = v.{quote(c)}::{_pg_type(table, c)}" for c in columns
                )
                names = ", ".join([quote(key), *(quote(c) for c in columns)])
                sql = (f"UPDATE {quote(table)} AS t SET {assignments} FROM (VALUES {values}) AS v({names}) "  # noqa: S608
                       f"WHERE t.{quote(key)} = v.{quote(key)}::{_pg_type(table, key)}{scope_sql}")
                cursor.execute(sql, [value for row in chunk for value in row] + scope_params)
            return
        assignments = ", ".join(f"{quote(c)} = %s" for c in columns)
        sql = f"UPDATE {quote(table)} AS t SET {assignments} WHERE t.{quote(key)} = %s{scope_sql}"  # noqa: S608
        cursor.executemany(sql, [(*row[1:], row[0], *scope_params) for row in rows])


class IdRange:
    """Primary keys handed out by the writer itself for a bulk write into `table` (PostgreSQL), numbered on
    from its sequence: the database drawing one per row from the sequence costs a fifth of the history's COPY.
    Only for a table the transaction holds exclusively (indexes_suspended), so that nothing else draws from the
    sequence meanwhile; `close` moves the sequence past the keys taken."""

    def __init__(self, table: str) -> None:
        self._sequence = f"pg_get_serial_sequence('{connection.ops.quote_name(table)}', 'id')"
        self.next: int | None = None  # read from the sequence when first needed

    def take(self, count: int) -> int:
        """The first of `count` keys."""
        if count == 0:  # nothing to number: the sequence is left alone (a fresh one could not be set back)
            return self.next or 1
        if self.next is None:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT nextval({self._sequence})")  # noqa: S608 - table name from the model
                self.next = cursor.fetchone()[0]
        first, self.next = self.next, self.next + count
        return first

    def close(self) -> None:
        if self.next is not None:
            with connection.cursor() as cursor:
                # The sequence has already handed out the first key: setval to the last one taken.
                cursor.execute(f"SELECT setval({self._sequence}, %s)", [self.next - 1])  # noqa: S608


@contextmanager
def indexes_suspended(table: str) -> Iterator[IdRange | None]:
    """Drop the indexes of `table` for a bulk rewrite and build them again at the end (PostgreSQL).

    Maintaining a B-tree row by row costs more than the COPY itself on millions of rows; building it once
    from sorted data is several times cheaper. That holds for the primary key and unique constraints too
    (measured: the history's COPY takes 2.8 s with its primary key, 1.8 s + 0.4 s without it and then adding
    it): they are dropped as well unless a foreign key refers to the table, and adding them back checks every
    row, so a duplicate still fails the transaction. It holds the table exclusively until the transaction ends,
    so it is for full replays only (rare: replay_ratings, an exclusion, a merge). Elsewhere it does nothing.
    It gives the block the table's primary keys to hand out (IdRange, for rows_insert), since it alone inserts.
    """
    if connection.vendor != "postgresql":
        yield None
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = %s AND i.schemaname = "
            "current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
            [table],
        )
        definitions = cursor.fetchall()
        cursor.execute(
            "SELECT c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c WHERE c.conrelid = %s::regclass "
            "AND c.contype IN ('p', 'u') AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' "
            "AND f.confrelid = c.conrelid) ORDER BY c.contype, c.conname",
            [quote(table)],
        )
        constraints = cursor.fetchall()
        for name, _ in definitions:
            cursor.execute(f"DROP INDEX {quote(name)}")
        if constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} "
                           + ", ".join(f"DROP CONSTRAINT {quote(name)}" for name, _ in constraints))
    keys = IdRange(table)
    yield keys
    keys.close()
    with connection.cursor() as cursor:
        if constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} "
                           + ", ".join(f"ADD CONSTRAINT {quote(name)} {definition}"
                                       for name, definition in constraints))
        for _, definition in definitions:
            cursor.execute(definition)


@contextmanager
def trigger_disabled(table: str, trigger: str) -> Iterator[None]:
    """`trigger` of `table` off inside the block, for a bulk write that supplies what it would (PostgreSQL).
    ALTER TABLE is transactional and holds the table until the transaction ends: for full replays only, which
    hold it anyway (indexes_suspended)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {quote(table)} DISABLE TRIGGER {quote(trigger)}")
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {quote(table)} ENABLE TRIGGER {quote(trigger)}")


def other_systems(system) -> list[str]:
    """The codes of every rating system but `system`: "are there rows of another system?" asked by an index."""
    from ratings.models import RatingSystem

    return list(RatingSystem.objects.exclude(code=system.code).values_list("code", flat=True))


def table_truncate_or_delete(*, table: str, queryset, whole: bool) -> None:
    """Empty `queryset`'s rows: TRUNCATE when they are the whole table (PostgreSQL), else a raw DELETE."""
    if whole and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {connection.ops.quote_name(table)}")
        return
    queryset._raw_delete(queryset.db)


@contextmanager
def replacing(*, table: str, stale, full: bool, whole: bool) -> Iterator[IdRange | None]:
    """Remove `stale` (a queryset of `table`) before the new rows are written inside the block.

    `full`: a replay from scratch, which rewrites millions of rows: on PostgreSQL the plain indexes are
    suspended (the block gets the table's keys to hand out), and `whole` (the stale rows are the entire table)
    allows a TRUNCATE.
    """
    if not full:
        stale._raw_delete(stale.db)
        yield None
        return
    with indexes_suspended(table) as keys:
        table_truncate_or_delete(table=table, queryset=stale, whole=whole)
        yield keys


def rows_merge(*, table: str, columns: Sequence[str], key: Sequence[str], stale: str, params: Sequence,
               rows: Iterable) -> int:
    """Make the rows of `table` that `stale` selects (an SQL condition on alias e) exactly `rows`, writing only
    the difference (PostgreSQL): the new rows go to a temporary table by COPY; one join of it with the stored
    rows on `key` finds the stored rows no new row equals (every column compared) and the new rows not stored;
    those alone are deleted and inserted. Returns the number of rows given.

    For a replay from a date: a correction years back recomputes hundreds of thousands of rows of which a
    few hundred differ (integer ratings absorb most of a change). Rewriting them all costs their deletion and
    every index entry twice; comparing costs a COPY into a table with no index and no WAL, and one hash join.
    The three steps are also there one by one (merge_begin, COPY into merge_table(table), merge_finish), for
    rows that come in several parts.
    """
    merge_begin(table=table, columns=columns)
    given = rows_insert(table=merge_table(table), columns=columns, rows=rows)
    merge_finish(table=table, columns=columns, key=key, stale=stale, params=params)
    return given


def merge_table(table: str) -> str:
    """The temporary table that the new rows of a merge into `table` are copied to."""
    return f"{table}_merge"


def merge_begin(*, table: str, columns: Sequence[str]) -> None:
    quote = connection.ops.quote_name
    merge, diff = quote(merge_table(table)), quote(f"{table}_diff")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {merge}, {diff}")
        cursor.execute(f"CREATE TEMP TABLE {merge} AS SELECT {', '.join(map(quote, columns))} "  # noqa: S608
                       f"FROM {quote(table)} WITH NO DATA")


def merge_finish(*, table: str, columns: Sequence[str], key: Sequence[str], stale: str, params: Sequence) -> None:
    quote = connection.ops.quote_name
    names = [quote(c) for c in columns]
    merge, diff = quote(merge_table(table)), quote(f"{table}_diff")
    keys = " AND ".join(f"t.{quote(k)} = e.{quote(k)}" for k in key)
    rest = [n for c, n in zip(columns, names, strict=True) if c not in key]
    same = f"({', '.join(f't.{n}' for n in rest)}) IS NOT DISTINCT FROM ({', '.join(f'e.{n}' for n in rest)})"
    first_key = f"t.{quote(key[0])}"
    with connection.cursor() as cursor:
        # A join of two sides of hundreds of thousands of rows: with PostgreSQL's default 4 MB of working
        # memory both sides are sorted on disk (the history's differences after a correction five years back,
        # at a million games: 1.55-1.72 s here, 0.89-1.35 s with MERGE_WORK_MEM). Only for this statement:
        # set_config(…, true) lasts until the transaction ends, so the previous value is put back after it.
        cursor.execute("SELECT current_setting('work_mem'), set_config('work_mem', %s, true)", [MERGE_WORK_MEM])
        work_mem = cursor.fetchone()[0]
        # Names come from the models, `stale` from the caller's code; values travel as parameters.
        cursor.execute(
            f"CREATE TEMP TABLE {diff} AS SELECT e.id AS stale_id, {first_key} IS NOT NULL AS fresh, "  # noqa: S608
            f"{', '.join(f't.{n}' for n in names)} FROM {merge} AS t "
            f"FULL JOIN (SELECT * FROM {quote(table)} AS e WHERE {stale}) AS e ON {keys} "
            f"WHERE e.id IS NULL OR {first_key} IS NULL OR NOT {same}", params)
        cursor.execute("SELECT set_config('work_mem', %s, true)", [work_mem])
        cursor.execute(f"DELETE FROM {quote(table)} WHERE id IN "  # noqa: S608
                       f"(SELECT stale_id FROM {diff} WHERE stale_id IS NOT NULL)")
        cursor.execute(f"INSERT INTO {quote(table)} ({', '.join(names)}) "  # noqa: S608
                       f"SELECT {', '.join(names)} FROM {diff} WHERE fresh")
        cursor.execute(f"DROP TABLE {merge}, {diff}")


# Working memory of the join that finds a merge's differences (merge_finish): one statement of the replay, the
# only one running on the connection (a replay from scratch of a stored million-game history asks for more and
# spills the rest to disk, as it did with the default).
MERGE_WORK_MEM = "256MB"
_PG_TYPES: dict[tuple[str, str], str] = {}


def _pg_type(table: str, column: str) -> str:
    if (table, column) not in _PG_TYPES:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s", [table]
            )
            for name, data_type in cursor.fetchall():
                _PG_TYPES[(table, name)] = data_type
    return _PG_TYPES[(table, column)]
