"""Who is at the table: a seated player's open WebSockets (RULES.md section 9 counts
the time a player is disconnected on their own turn)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games import broadcast
from games.models import Match, Seat

from . import play


def seat_connect(*, match: Match, user: Any, now: datetime | None = None) -> int | None:
    """Count a new socket of ``user`` on ``match``; returns their seat or None.

    The first socket marks the seat connected and tells the table. Any pending
    computer turn or clock check is enqueued again (harmless if it already is),
    so a match resumes after a server restart lost the embedded timers.
    """
    if not getattr(user, "is_authenticated", False):
        return None
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(match=match, user_id=user.pk).first()
        if seat is None:
            return None
        seat.connections += 1
        was_connected = seat.connected
        seat.connected = True
        seat.disconnected_at = None
        seat.save(update_fields=["connections", "connected", "disconnected_at"])
        if not was_connected:
            broadcast.presence_on_commit(match.pk)
        transaction.on_commit(lambda: play.schedule_followups(match.pk), robust=True)
    return seat.index


def seat_disconnect(*, match: Match, user: Any, now: datetime | None = None) -> None:
    """Forget one socket of ``user``; the last one marks the seat disconnected,
    tells the table and, on their turn, starts counting towards abandonment."""
    if not getattr(user, "is_authenticated", False):
        return
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(match=match, user_id=user.pk).first()
        if seat is None:
            return
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0 and seat.connected:
            seat.connected = False
            seat.disconnected_at = play.now_or(now)
            broadcast.presence_on_commit(match.pk)
            transaction.on_commit(lambda: play.schedule_followups(match.pk), robust=True)
        seat.save(update_fields=["connections", "connected", "disconnected_at"])
