"""Plain SQL beneath the ORM, for the statements on the path of every move
(games/services/store.py builds them): several statements in one round trip, each
prepared once per connection, and the model instances of their rows built as the ORM
builds them, for less CPU (docs/benchmarks-log.md has the figures: "Prepared
statements", "One query a round trip").

The one module of the site that reaches into the database driver's and Django's
internals (tests/test_internals.py fails on an upgrade that removes one; the versions
are pinned exactly in pyproject.toml):

- psycopg: ``Connection._autocommit``, the flag behind its public ``autocommit``,
  whose setter refuses a change inside a transaction: set for the time of a query
  that sends its own BEGIN, so that psycopg sends none first and waits for no answer
  (``_psycopg_begins_nothing``); ``Connection._get_tx_start_command()``, the BEGIN
  psycopg would send (with the isolation level Django configured).
- Django's database wrapper: ``atomic_blocks`` and ``savepoint_ids`` (is the open
  transaction the outermost ``atomic`` block, whose COMMIT may go with the writes:
  ``_outermost``); ``validate_thread_sharing``, ``wrap_database_errors``,
  ``queries_logged`` and ``make_debug_cursor`` (a query run as Django runs its own:
  its errors, its thread check, counted by the tests' query capture).
- Django's models: ``Options.concrete_fields``, ``Field.get_col``,
  ``connection.ops.get_db_converters`` and the column's ``get_db_converters`` (the
  converters the ORM applies to a row's values), and ``ModelState``, set as
  ``Model.from_db`` sets ``_state`` (an instance built without ``Model.__init__``,
  which costs less; ``tests/test_internals.py`` checks that the instances equal
  ``from_db``'s).

SQLite (the embedded mode) runs the same statements one after the other, through
Django's cursors.

Statements are prepared with SQL ``PREPARE`` on each connection at first use
(``_as_run``): the text of each is fixed, so PostgreSQL parses and plans it once per
connection instead of once per move. ``DATABASE_PREPARED_STATEMENTS=0`` turns that off,
behind a connection pooler in transaction mode, which cannot carry them
(docs/operations.md).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from psycopg import pq


def fetch_together(*statements: tuple[str, list[Any]]) -> list[list[tuple[Any, ...]]]:
    """Run ``statements`` one after the other and return the rows of each. On
    PostgreSQL they are sent together, in one round trip (``_in_one_round_trip``),
    with the transaction's BEGIN: PostgreSQL still runs each only once the one before
    it has finished (a lock waited for included)."""
    if connection.vendor == "postgresql":
        return _in_one_round_trip(list(statements), commit=False)
    found = []
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
            found.append(cursor.fetchall())
    return found


def _in_one_round_trip(
    statements: list[tuple[str, list[Any]]], *, commit: bool
) -> list[list[tuple[Any, ...]]]:
    """Run ``statements`` on PostgreSQL as one query of several statements, which
    PostgreSQL answers in one round trip: the transaction's BEGIN first when they start
    it, and COMMIT last when ``commit``. Each statement runs prepared (``_as_run``);
    the values are bound on the client (psycopg's ``ClientCursor`` quotes each with the
    server's own rules). Returns the rows of each statement (none for a write).

    psycopg begins a transaction itself, and waits for the answer, when it is not in
    autocommit mode and finds none open: while the query is sent it is told that it
    is (``_psycopg_begins_nothing``). A refused statement skips the rest of the query,
    COMMIT included: the transaction is left failed, for Django to roll back.
    tests/reliability/test_move_queries.py counts the round trips."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy looks it up
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = db.connection
    begins = not raw.autocommit and raw.pgconn.transaction_status == pq.TransactionStatus.IDLE
    with db.wrap_database_errors, _psycopg_begins_nothing(raw, begins):
        texts = [_as_run(raw, sql, len(params)) for sql, params in statements]
        query = "; ".join([
            *([raw._get_tx_start_command().decode()] if begins else []),
            *texts,
            *(["COMMIT"] if commit else []),
        ])
        cursor: Any = psycopg.ClientCursor(raw)
        if db.queries_logged:  # wrapped as Django wraps its own cursors (tests count them)
            cursor = db.make_debug_cursor(cursor)
        cursor.execute(query, [value for _, params in statements for value in params])
    results = []
    while True:
        rows = cursor.pgresult.status == pq.ExecStatus.TUPLES_OK
        results.append(cursor.fetchall() if rows else [])
        if not cursor.nextset():
            break
    return results[begins:begins + len(statements)]


@contextmanager
def _psycopg_begins_nothing(raw: psycopg.Connection[Any], begins: bool) -> Iterator[None]:
    """When the query sent inside begins the transaction itself, psycopg is told it is
    in autocommit mode meanwhile, so that it sends no BEGIN of its own first
    (``_autocommit``, psycopg's own flag: the public setter refuses a change inside a
    transaction), then put back."""
    if not begins:
        yield
        return
    raw._autocommit = True
    try:
        yield
    finally:
        raw._autocommit = False


# The statements prepared on each connection, by their names (``_as_run``).
_prepared_on: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()
_names: dict[str, str] = {}


def _as_run(raw: psycopg.Connection[Any], sql: str, count: int) -> str:
    """The text that runs ``sql`` (with ``count`` ``%s`` placeholders) on ``raw``: the
    ``EXECUTE`` of a statement prepared from it, on its first use on the connection
    (one round trip of its own), so PostgreSQL parses and plans it once per connection
    instead of once per move; ``sql`` itself when preparing is turned off."""
    if not settings.DATABASE_PREPARED_STATEMENTS:
        return sql
    name = _names.get(sql)
    if name is None:
        name = _names[sql] = "gin_" + hashlib.blake2b(sql.encode(), digest_size=8).hexdigest()
    prepared = _prepared_on.setdefault(raw, set())
    if name not in prepared:
        numbers = iter(range(1, count + 1))
        body = _PLACEHOLDER.sub(lambda _: f"${next(numbers)}", sql)
        psycopg.ClientCursor(raw).execute(f"PREPARE {name} AS {body}")
        prepared.add(name)
    return f"EXECUTE {name}({', '.join(['%s'] * count)})" if count else f"EXECUTE {name}"


_PLACEHOLDER = re.compile(r"%s")


def _outermost() -> bool:
    """Whether the transaction open is one ``atomic`` block, not nested in another
    (a test's, for one)."""
    return len(connection.atomic_blocks) == 1 and not connection.savepoint_ids


def columns(model: type[models.Model], alias: str) -> str:
    """The columns of ``model``'s concrete fields, in order, of the table aliased ``alias``."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(str(f.column))}" for f in model._meta.concrete_fields)


# Per database connection and model: the fields' attribute names and, for each field
# that needs one, its converters (JSON, dates, booleans), as the ORM applies them.
_converters_by_connection: WeakKeyDictionary[Any, dict[type, Any]] = WeakKeyDictionary()


def _conversions(conn: Any, kind: type[models.Model]) -> tuple[list[str], list[Any]]:
    by_kind = _converters_by_connection.setdefault(conn, {})
    found = by_kind.get(kind)
    if found is None:
        fields = kind._meta.concrete_fields
        steps = []
        for i, f in enumerate(fields):
            col = f.get_col(kind._meta.db_table)
            converters = [*conn.ops.get_db_converters(col), *col.get_db_converters(conn)]
            if converters:
                steps.append((i, col, converters))
        found = by_kind[kind] = ([f.attname for f in fields], steps)
    return found


def instances(row: tuple[Any, ...], kinds: tuple[type[models.Model], ...]) -> list[Any]:
    """The model instances of ``row``, whose columns are each kind's concrete fields
    in order, converted as the ORM converts them."""
    conn = connections[DEFAULT_DB_ALIAS]
    found = []
    start = 0
    for kind in kinds:
        attnames, steps = _conversions(conn, kind)
        values = list(row[start:start + len(attnames)])
        start += len(attnames)
        for i, col, converters in steps:
            for convert in converters:
                values[i] = convert(values[i], col, conn)
        found.append(_from_db(kind, conn.alias, attnames, values))
    return found


def _from_db(
    kind: type[models.Model], alias: str, attnames: list[str], values: list[Any]
) -> models.Model:
    """``kind.from_db`` for a row of all its concrete fields: the instance's attributes
    set directly, which costs less than ``Model.__init__`` setting them one by one on
    the path of every move, when nothing listens to the model's init signals."""
    if pre_init.has_listeners(kind) or post_init.has_listeners(kind):
        return kind.from_db(alias, attnames, values)
    obj = kind.__new__(kind)
    obj._state = ModelState()
    obj._state.adding = False
    obj._state.db = alias
    obj.__dict__.update(zip(attnames, values, strict=True))
    return obj


@dataclass
class Writes:
    """Inserts and updates (a move's rows), run together by ``run``."""

    statements: list[tuple[str, list[Any]]] = field(default_factory=list)

    def insert(self, obj: models.Model) -> None:
        """Insert ``obj`` (its primary key is left to the database)."""
        conn = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy looks it up
        quote = conn.ops.quote_name
        meta = obj._meta
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        columns = ", ".join(quote(_column(f)) for f in fields)
        values = [f.get_db_prep_save(f.pre_save(obj, add=True), conn) for f in fields]
        placeholders = ", ".join(["%s"] * len(fields))
        table = quote(meta.db_table)
        self.statements.append((f"INSERT INTO {table} ({columns}) VALUES ({placeholders})", values))

    def update(self, obj: models.Model, fields: list[str]) -> None:
        """Write ``fields`` of the saved row ``obj``."""
        conn = connections[DEFAULT_DB_ALIAS]
        quote = conn.ops.quote_name
        meta = obj._meta
        model_fields = [_concrete(meta.get_field(name)) for name in fields]
        sets = ", ".join(f"{quote(_column(f))} = %s" for f in model_fields)
        values = [f.get_db_prep_save(f.pre_save(obj, add=False), conn) for f in model_fields]
        table = quote(meta.db_table)
        assert meta.pk is not None
        pk = quote(_column(meta.pk))
        self.statements.append((f"UPDATE {table} SET {sets} WHERE {pk} = %s", [*values, obj.pk]))

    def run(self, *, commit: bool = False) -> None:
        """Run the writes. ``commit``: they end the transaction, nothing follows them
        in it: on PostgreSQL, when that transaction is the outermost, its COMMIT goes
        with them in one round trip (Django's own commit then finds nothing to do)."""
        if not self.statements:
            return
        if connection.vendor == "postgresql":
            *first, (last_sql, last_params) = self.statements
            ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
            params = [p for _, ps in first for p in ps] + last_params
            sql = f"WITH {ctes} {last_sql}" if ctes else last_sql
            _in_one_round_trip([(sql, params)], commit=commit and _outermost())
        else:
            with connection.cursor() as cursor:
                for sql, params in self.statements:
                    cursor.execute(sql, params)
        self.statements.clear()


def _concrete(field: Any) -> models.Field[Any, Any]:
    """A model field with a column (not a reverse relation)."""
    assert isinstance(field, models.Field), field
    return field


def _column(field: models.Field[Any, Any]) -> str:
    assert field.column is not None, field
    return field.column
