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

How the statements run (one query of several statements per round trip, each
prepared once per connection, rows made into model instances as the ORM would) is
ginsite/raw_sql.py, the one module that reaches into psycopg's and Django's internals
for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection

from accounts.models import User
from games.models import Hand, Match, Seat, SeatSocket
from ginsite.raw_sql import Writes as Writes  # the writes of a move (games/services/play.py)
from ginsite.raw_sql import columns, fetch_together, instances


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
    hand_rows, seat_rows = fetch_together(
        (queries.hand_and_match, [match_id]), (queries.seats_and_users, [match_id])
    )
    if not hand_rows:
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return None
        hand = None
    else:
        hand, match = instances(hand_rows[0], (Hand, Match))
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
        seat, user = instances(row[:-1], (Seat, User))
        seat.user = user if seat.user_id is not None else None
        seats.append(seat)
        sockets[seat.index] = row[-1]
    return Locked(match=match, seats=seats, hand=hand, sockets=sockets)


@dataclass(frozen=True)
class _LockQueries:
    hand_and_match: str
    seats_and_users: str


_lock_queries_by_vendor: dict[str, _LockQueries] = {}


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
                f"SELECT {columns(Hand, 'h')}, {columns(Match, 'm')} FROM {hand} h"
                f" JOIN {match} m ON m.{quote('id')} = h.{quote('match_id')}"
                f" WHERE h.{quote('match_id')} = %s ORDER BY h.{quote('number')} DESC"
                f" LIMIT 1{lock}"
            ),
            seats_and_users=(
                f"SELECT {columns(Seat, 's')}, {columns(User, 'u')},"
                f" (SELECT COUNT(*) FROM {socket} k WHERE k.{quote('seat_id')} = s.{quote('id')})"
                f" FROM {seat} s"
                f" LEFT JOIN {user} u ON u.{quote('id')} = s.{quote('user_id')}"
                f" WHERE s.{quote('match_id')} = %s ORDER BY s.{quote('index')}"
            ),
        )
        _lock_queries_by_vendor[connection.vendor] = found
    return found
