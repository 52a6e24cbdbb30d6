"""Who is at the table: a seated player's open WebSockets (docs/rules.md section 9 counts
the time a player is disconnected on their own turn).

Each open socket of a seated player is a ``SeatSocket`` row that its server process
renews about every ``RENEW_SECONDS``, all of the process's sockets in one statement
(games/presence_renewer.py). A socket that closes removes its row at once; one whose
process died without closing it (kill -9, a lost machine) stops being renewed, and the
clock sweep removes it after ``SOCKET_EXPIRY``. A seat is connected while it has a row
(several tabs count once); ``Seat.connected`` and ``Seat.disconnected_at`` mirror the
rows for the pages and the clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q

from games import broadcast
from games.models import Match, Seat, SeatSocket

from . import play, scheduling

if TYPE_CHECKING:
    from accounts.models import User

# How often a server process renews each of its sockets (settings.PRESENCE_RENEW_SECONDS,
# 25 s), and how long a socket may go without a renewal before it counts as lost: three
# missed renewals, so a busy process or a slow database never drops a live player.
RENEW_SECONDS: float = settings.PRESENCE_RENEW_SECONDS
SOCKET_EXPIRY = timedelta(seconds=3 * RENEW_SECONDS)
# Seats with stale sockets handled per sweep (the rest wait for the next one).
SWEEP_BATCH = 500


def seat_connect(
    *, match: Match, user: User, channel_name: str, now: datetime | None = None
) -> int | None:
    """Register the socket ``channel_name`` of ``user`` on ``match``; returns their
    seat, or None for a spectator (who has no presence).

    The first socket marks the seat connected and tells the table. The match's clock
    check is planned again and a pending computer turn enqueued again (harmless if
    it already is), so a match resumes after a server restart lost the embedded timers.
    """
    if not getattr(user, "is_authenticated", False):
        return None
    now = play.now_or(now)
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(match=match, user_id=user.pk).first()
        if seat is None:
            return None
        SeatSocket.objects.bulk_create(
            [SeatSocket(seat=seat, channel_name=channel_name, last_seen=now)],
            update_conflicts=True,
            unique_fields=["channel_name"],
            update_fields=["seat", "last_seen"],
        )
        was_connected = seat.connected
        seat.connected = True
        seat.disconnected_at = None
        seat.save(update_fields=["connected", "disconnected_at"])
        if not was_connected:
            broadcast.presence_on_commit(match.pk)
        transaction.on_commit(lambda: play.clock_replan(match.pk), robust=True)
    # The embedded mode's sweep must run to expire the sockets an earlier run of the
    # process left behind.
    scheduling.embedded_sweep_start()
    return seat.index


def seat_socket_renew(
    *, match: Match, user: User, channel_name: str, now: datetime | None = None
) -> None:
    """The socket ``channel_name`` is alive: one UPDATE of its ``last_seen``.

    A socket the sweep already expired (its process stalled past the expiry) is
    registered again, as on connect, and the table is told its player is back.
    """
    now = play.now_or(now)
    if SeatSocket.objects.filter(channel_name=channel_name).update(last_seen=now):
        return
    seat_connect(match=match, user=user, channel_name=channel_name, now=now)


def seat_sockets_renew(*, channel_names: list[str], now: datetime | None = None) -> set[str]:
    """The sockets ``channel_names`` (all of one server process) are alive: one UPDATE
    of their ``last_seen``. Returns those that have no row any more (the sweep expired
    them while their process stalled, or they closed meanwhile): the caller renews
    each that is still open with ``seat_socket_renew``, which registers it again."""
    now = play.now_or(now)
    names = set(channel_names)
    sockets = SeatSocket.objects.filter(channel_name__in=names)
    if not names or sockets.update(last_seen=now) == len(names):
        return set()
    return names - set(sockets.values_list("channel_name", flat=True))


def seat_disconnect(
    *, match: Match, user: User, channel_name: str, now: datetime | None = None
) -> None:
    """Forget the closed socket ``channel_name``; the seat's last one marks it
    disconnected, tells the table and, on their turn, starts counting towards
    abandonment."""
    if not getattr(user, "is_authenticated", False):
        return
    now = play.now_or(now)
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(match=match, user_id=user.pk).first()
        if seat is None:
            return
        SeatSocket.objects.filter(seat=seat).filter(
            Q(channel_name=channel_name) | Q(last_seen__lt=now - SOCKET_EXPIRY)
        ).delete()
        if not seat.connected:
            return
        if SeatSocket.objects.filter(seat=seat).exists():
            # Still connected by another socket; should that one be lost with its
            # process, the player was last seen now.
            seat.disconnected_at = now
            seat.save(update_fields=["disconnected_at"])
            return
        _mark_disconnected(seat, now)


def seat_sockets_expire(*, now: datetime | None = None) -> int:
    """Remove the sockets not renewed for ``SOCKET_EXPIRY`` (their server process
    died without closing them). A seat left without a socket becomes disconnected
    as of when its player was last seen, the table is told, and the seat's clock
    check is planned. Run by the clock sweep; returns how many seats lost a socket.
    """
    now = play.now_or(now)
    cutoff = now - SOCKET_EXPIRY
    with transaction.atomic():
        # One batch for every seat a dead process left (a killed process may have
        # held thousands of sockets); seats locked in id order, as one at a time
        # by connect and disconnect, so they cannot deadlock.
        last_renewed = dict(
            SeatSocket.objects.filter(last_seen__lt=cutoff)
            .values("seat_id")
            .annotate(last=Max("last_seen"))
            .order_by("seat_id")
            .values_list("seat_id", "last")[:SWEEP_BATCH]
        )
        if not last_renewed:
            return 0
        seats = list(Seat.objects.select_for_update().filter(pk__in=last_renewed).order_by("pk"))
        SeatSocket.objects.filter(seat_id__in=last_renewed, last_seen__lt=cutoff).delete()
        still_open = set(
            SeatSocket.objects.filter(seat_id__in=last_renewed).values_list("seat_id", flat=True)
        )
        gone = [s for s in seats if s.connected and s.pk not in still_open]
        for seat in gone:
            # A live tab of the player may have closed after the dead one's last renewal.
            last = last_renewed[seat.pk]
            seat.disconnected_at = max(last, seat.disconnected_at or last)
            seat.connected = False
        Seat.objects.bulk_update(gone, ["connected", "disconnected_at"])
        for match_id in {seat.match_id for seat in gone}:
            _tell_table(match_id)
    return len(last_renewed)


def _mark_disconnected(seat: Seat, last_seen: datetime) -> None:
    """Under the seat lock: no socket is left."""
    seat.connected = False
    seat.disconnected_at = last_seen
    seat.save(update_fields=["connected", "disconnected_at"])
    _tell_table(seat.match_id)


def _tell_table(match_id: int) -> None:
    """After commit: presence to every socket of the match, and the clock planned
    (the disconnection limit counts from when the player was last seen)."""
    broadcast.presence_on_commit(match_id)
    transaction.on_commit(lambda: play.clock_replan(match_id), robust=True)
