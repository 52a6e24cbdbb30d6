"""Reading a match in play under its lock, and writing a move's rows in one statement.

A move costs at most five SQL statements, BEGIN and COMMIT included: the match row
and its current hand, locked together; the seats with their users; one statement
that writes everything the move changed (the Move row, the hand, the match row, and
when a hand ends the seats and the next hand); COMMIT. On PostgreSQL they take two
round trips: BEGIN and the two reads; the write and COMMIT (``Writes.run``).

``Writes`` collects the inserts and updates of a move as plain SQL built from the
models' fields (so every value goes through the field's own database conversion).
On PostgreSQL they run as one statement of data-modifying CTEs; on SQLite (the
embedded mode) one after the other, in the same transaction.

On PostgreSQL each round trip is one query of several statements (the simple query
protocol: one message out, the answers back, no pipeline to drive), and these
statements are prepared on each connection at first use (``_as_run``): the text of
each is fixed (the write's varies only with which fields a move changed), so
PostgreSQL parses and plans it once per connection instead of once per move, which
cuts PostgreSQL's CPU for a move's statements (measured: docs/benchmarks-log.md,
"Prepared statements").
``DATABASE_PREPARED_STATEMENTS=0`` turns that off, behind a connection pooler in
transaction mode, which cannot carry statements prepared with SQL ``PREPARE``
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

from accounts.models import User
from games.models import Hand, Match, Seat, SeatSocket


@dataclass
class Locked:
    """A match row locked for update, with its seats and current hand, and how many
    sockets each seat has open (``SeatSocket`` rows; empty when not read)."""

    match: Match
    seats: list[Seat]
    hand: Hand | None
    sockets: dict[int, int] = field(default_factory=dict)

    def seat_of(self, user: User) -> Seat | None:
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)


def lock_match(match_id: int) -> Locked | None:
    """Lock the match row and its current hand (one statement), and load the seats
    with their users and their number of open sockets (one more); None if the match
    is gone. On PostgreSQL both go in one round trip with the transaction's BEGIN.

    Both statements are plain SQL written once per process (``_LockQueries``): on the
    path of every move, compiling the equivalent querysets cost more CPU than
    everything else the service does."""
    queries = _lock_queries()
    hand_rows, seat_rows = _fetch_together(
        (queries.hand_and_match, [match_id]), (queries.seats_and_users, [match_id])
    )
    if not hand_rows:
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return None
        hand = None
    else:
        hand, match = _models(hand_rows[0], (Hand, Match))
        hand.match = match
        if hand.result is not None and len(match.finished_hands) >= hand.number and (
            match.status == Match.Status.ACTIVE
        ):
            # We waited for the lock while another transaction ended this hand and
            # dealt the next: the row we joined was read before it committed.
            hand = Hand.objects.filter(match_id=match_id).order_by("-number").first()
    seats = []
    sockets = {}
    for row in seat_rows:
        seat, user = _models(row[:-1], (Seat, User))
        seat.user = user if seat.user_id is not None else None
        seats.append(seat)
        sockets[seat.index] = row[-1]
    return Locked(match=match, seats=seats, hand=hand, sockets=sockets)


def _fetch_together(*statements: tuple[str, list[Any]]) -> list[list[tuple[Any, ...]]]:
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


@dataclass(frozen=True)
class _LockQueries:
    hand_and_match: str
    seats_and_users: str


_lock_queries_by_vendor: dict[str, _LockQueries] = {}


def _columns(model: type[models.Model], alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(str(f.column))}" for f in model._meta.concrete_fields)


def _lock_queries() -> _LockQueries:
    """The two statements of ``lock_match`` for this database (built once)."""
    found = _lock_queries_by_vendor.get(connection.vendor)
    if found is None:
        quote = connection.ops.quote_name
        hand, match, seat, user, socket = (
            quote(m._meta.db_table) for m in (Hand, Match, Seat, User, SeatSocket)
        )
        lock = " FOR UPDATE OF h, m" if connection.features.has_select_for_update_of else ""
        found = _LockQueries(
            hand_and_match=(
                f"SELECT {_columns(Hand, 'h')}, {_columns(Match, 'm')} FROM {hand} h"
                f" JOIN {match} m ON m.{quote('id')} = h.{quote('match_id')}"
                f" WHERE h.{quote('match_id')} = %s ORDER BY h.{quote('number')} DESC"
                f" LIMIT 1{lock}"
            ),
            seats_and_users=(
                f"SELECT {_columns(Seat, 's')}, {_columns(User, 'u')},"
                f" (SELECT COUNT(*) FROM {socket} k WHERE k.{quote('seat_id')} = s.{quote('id')})"
                f" FROM {seat} s"
                f" LEFT JOIN {user} u ON u.{quote('id')} = s.{quote('user_id')}"
                f" WHERE s.{quote('match_id')} = %s ORDER BY s.{quote('index')}"
            ),
        )
        _lock_queries_by_vendor[connection.vendor] = found
    return found


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


def _models(row: tuple[Any, ...], kinds: tuple[type[models.Model], ...]) -> list[Any]:
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
    """The rows one move writes, run together by ``run``."""

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
