"""Correspondence matches (issue 34): the same matches, tables and rules as live play,
with days per whole turn instead of a turn clock (``Match.days_per_move``: 1, 3 or 7).

- The turn's deadline (``Match.move_deadline``) is set as the turn passes
  (games/services/play.py ``_start_turn``) and checked by beat's
  ``games.correspondence_clock`` job every five minutes (``correspondence_clock_run``),
  never by a task delayed for days: a deadline that passed is first moved by the
  vacations of the player to move (games/engine/correspondence.py ``move_deadline``);
  if it has still passed, that player loses the match (end reason ``timeout``). The
  live clock never looks at such a match (no ``turn_deadline``, no disconnection limit).
- A player may hold ``MAX_CORRESPONDENCE_MATCHES`` in play at once (``require_room``).
- Vacation (``vacation_take``, ``vacation_end``): up to ``VACATION_DAYS_A_YEAR`` days a
  calendar year; it stops every clock of the player, whose deadlines are moved at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import broadcast, messages
from games.engine.correspondence import MAX_CORRESPONDENCE_MATCHES, move_deadline
from games.errors import CorrespondenceError
from games.models import Match, Seat, Vacation
from games.selectors import current_vacation, vacation_days_left, vacations

from . import play


def in_play_count(user: Any) -> int:
    return Seat.objects.filter(
        user=user, match__status=Match.Status.ACTIVE, match__days_per_move__isnull=False
    ).count()


def require_room(*players: Any) -> None:
    """Refuse a new correspondence match to a player who holds the most already."""
    for player in players:
        if in_play_count(player) >= MAX_CORRESPONDENCE_MATCHES:
            raise CorrespondenceError(
                "too_many_correspondence",
                gettext("%(name)s already plays %(n)s correspondence matches, the most at once.")
                % {"name": player.display_name, "n": MAX_CORRESPONDENCE_MATCHES},
            )


def _deadline(match: Match, seats: list[Seat]) -> datetime | None:
    if match.current_seat is None or match.turn_started_at is None or not match.days_per_move:
        return None
    user_id = seats[match.current_seat].user_id
    return move_deadline(
        match.turn_started_at, match.days_per_move,
        vacations(user_id=user_id, since=match.turn_started_at),
    )


def correspondence_clock_run(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's correspondence job: every correspondence match whose deadline passed is
    looked at under its lock: a deadline the player's vacations move is moved, else
    the player to move loses. Returns ``{"timed_out": n, "moved": n}``."""
    now = now or timezone.now()
    due = list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, days_per_move__isnull=False, move_deadline__lte=now
        ).values_list("pk", flat=True)
    )
    counts = {"timed_out": 0, "moved": 0}
    for match_id in due:
        with transaction.atomic():
            locked = play.lock_match(match_id)
            if locked is None:
                continue
            match = locked.match
            if (match.status != Match.Status.ACTIVE or match.move_deadline is None
                    or match.move_deadline > now or match.current_seat is None):
                continue
            deadline = _deadline(match, locked.seats)
            if deadline is not None and deadline > now:
                _move_deadline(match, deadline)
                counts["moved"] += 1
                continue
            change = play.Change(locked, now)
            change.forfeit(match.current_seat, Match.EndReason.TIMEOUT)
            change.commit()
            counts["timed_out"] += 1
    return counts


def _replan_player(user: Any) -> None:
    """Move the deadlines of the player's correspondence matches where they are to move
    (a vacation taken or ended), each under its lock."""
    ids = list(
        Seat.objects.filter(
            user=user, match__status=Match.Status.ACTIVE, match__days_per_move__isnull=False
        ).values_list("match_id", flat=True)
    )
    for match_id in ids:
        locked = play.lock_match(match_id)
        if locked is None or locked.match.current_seat is None:
            continue
        if locked.seats[locked.match.current_seat].user_id != user.pk:
            continue
        deadline = _deadline(locked.match, locked.seats)
        if deadline != locked.match.move_deadline:
            _move_deadline(locked.match, deadline)


def _move_deadline(match: Match, deadline: datetime | None) -> None:
    """Under the match's lock: its turn's deadline moved with no move (the version stays);
    its open tables hear the new one after commit (a ``deadline`` frame)."""
    match.move_deadline = deadline
    match.save(update_fields=["move_deadline"])
    broadcast.deadline_on_commit(match.pk, messages.deadline_frame(match))


def vacation_take(*, user: Any, days: int, now: datetime | None = None) -> Vacation:
    """Go on vacation now for ``days`` days (within the year's allowance, one at a time):
    the clocks of the player's correspondence matches stop until it ends."""
    now = now or timezone.now()
    if getattr(user, "is_guest", False):
        raise CorrespondenceError("vacation_refused", gettext("Sign up to take a vacation."))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        if current_vacation(user=user, now=now) is not None:
            raise CorrespondenceError("vacation_refused", gettext("You are on vacation already."))
        left = vacation_days_left(user=user, now=now)
        if not 1 <= days <= left:
            raise CorrespondenceError(
                "vacation_refused",
                gettext("You can take from 1 to %(left)s days of vacation this year.")
                % {"left": left},
            )
        end = min(now + timedelta(days=days), datetime(now.year + 1, 1, 1, tzinfo=now.tzinfo))
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=end)
        _replan_player(user)
    return vacation


def vacation_end(*, user: Any, now: datetime | None = None) -> int:
    """End the player's vacation now (the days not taken stay for later)."""
    now = now or timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # the lock order's first
        ended = Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).update(
            ends_at=now
        )
        if ended:
            _replan_player(user)
    return ended
