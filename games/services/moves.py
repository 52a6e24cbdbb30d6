"""Moves of a match in play: a player's action, the computer's turn, the clock.

Each runs under the match row lock and is checked against the match version, so a
repeated or late call (double click, redelivered Celery task) changes nothing.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import DateTimeField, Exists, OuterRef, Q
from django.db.models.functions import Coalesce

from games.bots import choose_action
from games.engine import (
    DISCONNECT_SECONDS,
    NO_CLOCK_DISCONNECT_SECONDS,
    HandState,
    IllegalAction,
    MalformedAction,
    abandoned_by_timeouts,
    timeout_action,
)
from games.models import Match, Seat

from . import play, presence
from .errors import (
    IllegalActionError,
    MalformedActionError,
    MatchOverError,
    NotYourTurnError,
    StaleVersionError,
)

logger = logging.getLogger(__name__)

# The sweep re-enqueues a computer turn that has waited this long (a lost task).
STUCK_BOT_AFTER = timedelta(seconds=30)
SWEEP_BATCH = 500


def move_submit(
    *,
    match: Match,
    user: Any,
    action: Any,
    expected_version: int,
    now: datetime | None = None,
) -> Match:
    """Apply ``action`` for the caller's seat if ``expected_version`` is current.

    Checks, in order: a seated player (not_a_player), the match in play
    (match_not_started / match_over), the version (stale_version), the turn
    (not_your_turn), then the engine (malformed_action / illegal_action).
    """
    now = play.now_or(now)
    if not isinstance(action, dict):
        raise MalformedActionError("An action must be a JSON object.")
    with transaction.atomic():
        locked = play.lock_match(match.pk)
        if locked is None:
            raise MatchOverError("This match no longer exists.")
        seat = play.require_player_in_play(locked, user)
        if expected_version != locked.match.version:
            raise StaleVersionError()
        if locked.state().current_player != seat.index:
            raise NotYourTurnError()
        try:
            play.apply_action(locked, seat.index, action, now)
        except MalformedAction as error:
            raise MalformedActionError(str(error)) from error
        except IllegalAction as error:
            raise IllegalActionError(str(error)) from error
        if seat.timeouts_in_row:
            Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0)
        play.after_change(locked)
    return locked.match


def bot_turn_play(*, match_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Play the computer's action for ``expected_version``; False if there is none
    to play (stale version, match over, not the computer's turn)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.version != expected_version:
        return False
    if match.status != Match.Status.ACTIVE or match.current_seat is None:
        return False
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    seat = seats[match.current_seat]
    if not seat.bot_level:
        return False
    hand = match.hands.order_by("-number").first()
    state = HandState.from_dict(hand.state)
    # Decided outside the lock (the expert thinks for up to a second), from the
    # player view only: a computer never sees the stock or the human's hand.
    action = choose_action(
        seat.bot_level, state.player_view(seat.index), state.legal_actions(), random.Random()
    )
    with transaction.atomic():
        # Every change bumps the version under this lock: if it still is the
        # version read above, so are the seats and the hand.
        locked_match = Match.objects.select_for_update().filter(pk=match_id).first()
        if locked_match is None or locked_match.version != expected_version:
            return False
        locked = play.Locked(match=locked_match, seats=seats, hand=hand)
        play.apply_action(locked, seat.index, action, play.now_or(now))
        play.after_change(locked)
    return True


def clock_expire(*, match_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Enforce the clock of RULES.md section 9 for ``expected_version``.

    Disconnected too long on one's own turn, or a third timed-out turn in a row:
    loss by abandonment. A turn whose time ran out: the server plays it (first
    turn: pass; otherwise draw from the stock and discard the card leaving the
    lowest deadwood; never a knock). Too early: nothing (the check is enqueued
    again for the right time). Returns True when something changed.
    """
    now = play.now_or(now)
    # Nearly every check finds that the match moved on: one plain read tells, before
    # the lock and the loading of seats and hand.
    if not Match.objects.filter(
        pk=match_id, version=expected_version, status=Match.Status.ACTIVE
    ).exists():
        return False
    with transaction.atomic():
        locked = play.lock_match(match_id)
        if locked is None:
            return False
        match = locked.match
        if match.status != Match.Status.ACTIVE or match.version != expected_version:
            return False
        seat = locked.seats[match.current_seat]
        if seat.bot_level:
            # A computer turn never times out; one still waiting lost its task.
            transaction.on_commit(lambda: play.schedule_followups(match_id), robust=True)
            return False
        limit = play.disconnect_limit_at(match, seat)
        if limit is not None and now >= limit:
            play.forfeit(locked, loser=seat.index, reason=Match.EndReason.ABANDON, now=now)
            return True
        if match.turn_deadline is None or now < match.turn_deadline:
            transaction.on_commit(lambda: play.schedule_followups(match_id), robust=True)
            return False
        seat.timeouts_in_row += 1
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=seat.timeouts_in_row)
        if abandoned_by_timeouts(seat.timeouts_in_row):
            play.forfeit(locked, loser=seat.index, reason=Match.EndReason.ABANDON, now=now)
            return True
        hand = locked.hand
        while (
            locked.hand is hand
            and match.status == Match.Status.ACTIVE
            and match.current_seat == seat.index
        ):
            play.apply_action(locked, seat.index, timeout_action(locked.state()), now, auto=True)
        play.after_change(locked)
    return True


def clock_sweep(*, now: datetime | None = None) -> int:
    """Check every match whose clock may need the server (beat runs this each
    30 s): first the sockets lost with a server process (presence), then turns
    past their deadline, players disconnected on their turn, and computer turns
    whose task was lost. Returns how many matches were checked."""
    now = play.now_or(now)
    presence.seat_sockets_expire(now=now)
    seat_to_move = Seat.objects.filter(match=OuterRef("pk"), index=OuterRef("current_seat"))
    # Mirrors play.disconnect_limit_at: away since last seen (disconnected_at), or since the
    # start of the match for a player who never connected.
    away = seat_to_move.filter(bot_level="", connected=False).annotate(
        away_since=Coalesce(
            "disconnected_at", OuterRef("started_at"), output_field=DateTimeField()
        )
    )
    due = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .filter(
            Q(turn_deadline__lte=now)
            | Q(
                Exists(seat_to_move.exclude(bot_level="")),
                turn_started_at__lte=now - STUCK_BOT_AFTER,
            )
            | Q(
                Exists(away.filter(away_since__lte=now - timedelta(seconds=DISCONNECT_SECONDS))),
                turn_deadline__isnull=False,
            )
            | Q(
                Exists(
                    away.filter(away_since__lte=now - timedelta(
                        seconds=NO_CLOCK_DISCONNECT_SECONDS
                    ))
                ),
                turn_deadline__isnull=True,
            )
        )
        .order_by("turn_started_at")
        .values_list("pk", "version")[:SWEEP_BATCH]
    )
    checked = 0
    for match_id, version in due:
        checked += 1
        try:
            clock_expire(match_id=match_id, expected_version=version, now=now)
        except Exception:
            logger.exception("clock sweep of match %s failed", match_id)
    return checked

