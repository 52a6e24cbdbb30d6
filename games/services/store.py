"""Reading a match in play under its lock, and writing a move's rows in one statement.

A move costs at most five SQL statements, BEGIN and COMMIT included: the match row
and its current hand, locked together; the seats with their users; one statement
that writes everything the move changed (the Move row, the hand, the match row, and
when a hand ends the seats and the next hand); COMMIT.

``Writes`` collects the inserts and updates of a move as plain SQL built from the
models' fields (so every value goes through the field's own database conversion).
On PostgreSQL they run as one statement of data-modifying CTEs; on SQLite (the
embedded mode) one after the other, in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import connection, models

from games.models import Hand, Match, Seat

if TYPE_CHECKING:
    from accounts.models import User


@dataclass
class Locked:
    """A match row locked for update, with its seats and current hand."""

    match: Match
    seats: list[Seat]
    hand: Hand | None

    def seat_of(self, user: User) -> Seat | None:
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)


def lock_match(match_id: int) -> Locked | None:
    """Lock the match row and its current hand (one statement), and load the seats
    with their users (one more); None if the match is gone."""
    hand = (
        Hand.objects.select_related("match")
        .select_for_update(of=("self", "match"))
        .filter(match_id=match_id)
        .order_by("-number")
        .first()
    )
    if hand is None:
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return None
    else:
        match = hand.match
        if hand.result is not None and len(match.finished_hands) >= hand.number and (
            match.status == Match.Status.ACTIVE
        ):
            # We waited for the lock while another transaction ended this hand and
            # dealt the next: the row we joined was read before it committed.
            hand = Hand.objects.filter(match_id=match_id).order_by("-number").first()
    seats = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("index"))
    return Locked(match=match, seats=seats, hand=hand)


@dataclass
class Writes:
    """The rows one move writes, run together by ``run``."""

    statements: list[tuple[str, list[Any]]] = field(default_factory=list)

    def insert(self, obj: models.Model) -> None:
        """Insert ``obj`` (its primary key is left to the database)."""
        meta = obj._meta
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        columns = ", ".join(connection.ops.quote_name(_column(f)) for f in fields)
        values = [f.get_db_prep_save(f.pre_save(obj, add=True), connection) for f in fields]
        placeholders = ", ".join(["%s"] * len(fields))
        table = connection.ops.quote_name(meta.db_table)
        self.statements.append((f"INSERT INTO {table} ({columns}) VALUES ({placeholders})", values))

    def update(self, obj: models.Model, fields: list[str]) -> None:
        """Write ``fields`` of the saved row ``obj``."""
        meta = obj._meta
        model_fields = [_concrete(meta.get_field(name)) for name in fields]
        sets = ", ".join(f"{connection.ops.quote_name(_column(f))} = %s" for f in model_fields)
        values = [f.get_db_prep_save(f.pre_save(obj, add=False), connection) for f in model_fields]
        table = connection.ops.quote_name(meta.db_table)
        assert meta.pk is not None
        pk = connection.ops.quote_name(_column(meta.pk))
        self.statements.append((f"UPDATE {table} SET {sets} WHERE {pk} = %s", [*values, obj.pk]))

    def run(self) -> None:
        if not self.statements:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                *first, (last_sql, last_params) = self.statements
                ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
                params = [p for _, ps in first for p in ps] + last_params
                cursor.execute(f"WITH {ctes} {last_sql}" if ctes else last_sql, params)
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
