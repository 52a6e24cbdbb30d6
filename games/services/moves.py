"""Moves of a match in play: a player's action, the computer's turn, the clock.

Each runs under the match row lock and is checked against the match version, so a
repeated or late call (double click, redelivered Celery task) changes nothing.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import DateTimeField, Exists, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from games.bots import choose_action
from games.engine import (
    DISCONNECT_SECONDS,
    NO_CLOCK_DISCONNECT_SECONDS,
    ActionError,
    abandoned_by_timeouts,
    timeout_action,
)
from games.errors import (
    MalformedActionError,
    MatchOverError,
    NotYourTurnError,
    StaleVersionError,
)
from games.models import Match, Seat
from games.refusals import action_refused

from . import play, presence

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

# The sweep re-enqueues a computer turn that has waited this long (a lost task the
# tick missed: it looks after play.COMPUTER_RECHECK).
STUCK_BOT_AFTER = timedelta(seconds=30)
SWEEP_BATCH = 500


@dataclass(frozen=True)
class MoveResult:
    """An accepted move: the match's new version and the mover's own message."""

    version: int
    message: dict[str, Any]


def move_submit(
    *,
    match: Match,
    user: User,
    action: Any,
    expected_version: int,
    now: datetime | None = None,
    answers_mover: bool = False,
) -> MoveResult:
    """Apply ``action`` for the caller's seat if ``expected_version`` is current.

    Checks, in order: a seated player (not_a_player), the match in play
    (match_not_started / match_over), the version (stale_version), the turn
    (not_your_turn), then the engine (malformed_action / illegal_action). Everyone
    else at the table hears of the move after commit; the mover's own message is
    returned. ``answers_mover``: the caller sends it down the socket the action came
    from (the match socket does), so the mover's other sockets only, if any, are sent it.
    """
    now = play.now_or(now)
    if not isinstance(action, dict):
        raise MalformedActionError(_("An action must be a JSON object."))
    with transaction.atomic(durable=True):
        locked = play.lock_match(match.pk)
        if locked is None:
            raise MatchOverError(_("This match no longer exists."))
        seat = play.require_player_in_play(locked, user)
        if expected_version != locked.match.version:
            raise StaleVersionError()
        if locked.match.current_seat != seat.index:
            raise NotYourTurnError()
        change = play.Change(locked, now)
        try:
            change.act(seat.index, action)
        except ActionError as error:
            # The rule, in the player's language (the bot API's is English).
            raise action_refused(error) from error
        sent = change.commit(answered=seat.index if answers_mover else None, last=True)
    return MoveResult(version=locked.match.version, message=sent[seat.index])


def bot_turn_play(*, match_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Play the computer's action for ``expected_version``; False if there is none
    to play (stale version, match over, not the computer's turn).

    The computer decides under the match lock, from its player view only (it never
    sees the stock or the human's hand): nobody else can move on its turn, and the
    whole move stays one locked read and one write (the expert thinks for up to a
    second; a resignation meanwhile waits that long).
    """
    with transaction.atomic(durable=True):
        locked = play.lock_match(match_id)
        if locked is None or locked.match.version != expected_version:
            return False
        match = locked.match
        if match.status != Match.Status.ACTIVE or match.current_seat is None:
            return False
        assert match.current_seat is not None  # an active match has a player to move
        seat = locked.seats[match.current_seat]
        if not seat.bot_level:
            return False
        change = play.Change(locked, play.now_or(now))
        hand = change.state.hand
        assert hand is not None
        action = choose_action(
            seat.bot_level, hand.player_view(seat.index), hand.legal_actions(), random.Random(),
            scores=change.state.score.hand_points,
        )
        change.act(seat.index, action)
        change.commit(last=True)
    return True


def clock_expire(*, match_id: int, expected_version: int, now: datetime | None = None) -> bool:
    """Enforce the clock of docs/rules.md section 9 for ``expected_version``.

    Disconnected too long on one's own turn, or a third timed-out turn in a row:
    loss by abandonment. A turn whose time ran out: the server plays it (first
    turn: pass; otherwise draw from the stock and discard the card leaving the
    lowest deadwood; never a knock). Too early (the player came back, or the check
    was planned for an older turn): nothing but the match's next check planned
    again. Returns True when something changed.
    """
    now = play.now_or(now)
    with transaction.atomic(durable=True):
        locked = play.lock_match(match_id)
        if locked is None:
            return False
        match = locked.match
        if match.status != Match.Status.ACTIVE or match.version != expected_version:
            return False
        assert match.current_seat is not None  # an active match has a player to move
        seat = locked.seats[match.current_seat]
        if seat.bot_level:
            # A computer turn never times out; one still waiting lost its task.
            play.replan(locked, now)
            return False
        change = play.Change(locked, now)
        limit = play.disconnect_limit_at(match, seat)
        if limit is not None and now >= limit:
            change.forfeit(seat.index, Match.EndReason.ABANDON)
            change.commit()
            return True
        if match.turn_deadline is None or now < match.turn_deadline:
            play.replan(locked, now)
            return False
        if abandoned_by_timeouts(change.timed_out(seat.index)):
            change.forfeit(seat.index, Match.EndReason.ABANDON)
            change.commit()
            return True
        hand_number = change.state.hand_number
        while (
            not change.state.over
            and change.state.hand_number == hand_number
            and change.state.current_player == seat.index
        ):
            assert change.state.hand is not None
            change.act(seat.index, timeout_action(change.state.hand), auto=True)
        change.commit()
    return True


def clock_tick(*, now: datetime | None = None) -> int:
    """Check every match whose clock is due (``clock_due_at`` passed): run every
    second by beat (the embedded scheduler in the embedded mode). One indexed read
    when nothing is due. Returns how many matches were checked."""
    now = play.now_or(now)
    due = (
        Match.objects.filter(clock_due_at__lte=now, status=Match.Status.ACTIVE)
        .order_by("clock_due_at")
        .values_list("pk", "version")[:SWEEP_BATCH]
    )
    return _expire_each(due, now)


def clock_sweep(*, now: datetime | None = None) -> int:
    """The safety net behind ``clock_tick`` (beat runs this every 30 s): first the
    sockets lost with a server process (presence), then every match whose clock
    needs the server whatever its ``clock_due_at`` says (turns past their deadline,
    players disconnected on their turn) and computer turns whose task was lost.
    Returns how many matches were checked."""
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
    return _expire_each(due, now)


def _expire_each(due: Any, now: datetime) -> int:
    """``clock_expire`` for each (match id, version) of ``due``; a failure of one is
    logged and the others are still checked. Returns how many were checked."""
    checked = 0
    for match_id, version in due:
        checked += 1
        try:
            clock_expire(match_id=match_id, expected_version=version, now=now)
        except Exception:
            logger.exception("clock check of match %s failed", match_id)
    return checked

