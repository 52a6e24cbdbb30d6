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

On PostgreSQL these statements are bound on the server and prepared on each
connection at first use (``_cursor``): the text of each is fixed (the write's varies
only with which fields a move changed), so PostgreSQL parses and plans it once per
connection instead of once per move, which halves its CPU for a move's statements
(docs/benchmarks.md). ``DATABASE_PREPARED_STATEMENTS=0`` turns that off, for a
connection pooler that cannot carry prepared statements (docs/operations.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
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
    PostgreSQL they are sent together, in one round trip (psycopg's pipeline mode),
    with the transaction's BEGIN: PostgreSQL still runs each only once the one
    before it has finished (a lock waited for included)."""
    preparing = _preparing()
    with ExitStack() as open_cursors:
        cursors = [open_cursors.enter_context(_cursor(preparing)) for _ in statements]
        with _together(preparing):
            for cursor, (sql, params) in zip(cursors, statements, strict=True):
                cursor.execute(sql, params)
        return [cursor.fetchall() for cursor in cursors]


@contextmanager
def _together(preparing: bool) -> Iterator[None]:
    """The statements run inside go to PostgreSQL in one round trip (psycopg's
    pipeline), the transaction's BEGIN first when they start it; one after the other
    when the statements are not prepared (SQLite, or turned off)."""
    if not preparing:
        yield
        return
    raw = connection.connection
    with connection.wrap_database_errors, raw.pipeline(), _begin_in_pipeline(raw):
        yield


@contextmanager
def _begin_in_pipeline(raw: psycopg.Connection[Any]) -> Iterator[None]:
    """Inside ``raw``'s pipeline: when the statements that follow start the transaction,
    queue its BEGIN ahead of them. psycopg would send its own BEGIN and wait for the
    answer before anything else in the pipeline: a round trip of its own.

    psycopg begins a transaction when it is not in autocommit mode and finds none open;
    while the statements are queued it is told that it is (``_autocommit``, psycopg's
    own flag: the public setter refuses a change inside a transaction), then put back
    as it was. tests/reliability/test_move_queries.py counts the round trips."""
    if raw.autocommit or raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        yield
        return
    raw._autocommit = True
    try:
        raw.execute(raw._get_tx_start_command())
        yield
    finally:
        raw._autocommit = False


def _preparing() -> bool:
    """Whether a move's statements are prepared (PostgreSQL, unless turned off);
    when they are, the connection is open."""
    if connection.vendor != "postgresql" or not settings.DATABASE_PREPARED_STATEMENTS:
        return False
    connection.ensure_connection()
    connection.validate_thread_sharing()
    return True


def _outermost() -> bool:
    """Whether the transaction open is one ``atomic`` block, not nested in another
    (a test's, for one)."""
    return len(connection.atomic_blocks) == 1 and not connection.savepoint_ids


def _cursor(preparing: bool) -> Any:
    """A cursor for the statements of a move: when ``preparing``, one that binds on
    the server and prepares each statement at its first use on the connection, wrapped
    as Django wraps its own cursors (errors, counted queries)."""
    if not preparing:
        return connection.cursor()
    raw: Any = _PreparingCursor(connection.connection)  # Django types it as its own
    return connection.make_debug_cursor(raw) if connection.queries_logged else (
        connection.make_cursor(raw)
    )


class _PreparingCursor(psycopg.Cursor):
    """psycopg's cursor that binds on the server, preparing every statement it runs."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        return super().execute(query, params, prepare=True)


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
        found.append(kind.from_db(conn.alias, attnames, values))
    return found


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
        preparing = _preparing()
        with _cursor(preparing) as cursor:
            if connection.vendor == "postgresql":
                *first, (last_sql, last_params) = self.statements
                ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
                params = [p for _, ps in first for p in ps] + last_params
                sql = f"WITH {ctes} {last_sql}" if ctes else last_sql
                if commit and preparing and _outermost():
                    with _together(preparing):
                        cursor.execute(sql, params)
                        connection.connection.execute("COMMIT")
                else:
                    cursor.execute(sql, params)
            else:
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
