"""The core of every write to a match in play, shared by the public services.

Callers hold the match row lock (``select_for_update``) inside ``transaction.atomic``.
Here: dealing hands with fresh secret seeds, applying one engine action and
appending it to the Move log, finishing hands (results, seat statistics, the next
deal) and matches (final scores, the leaderboards hook), forfeits, the turn clock
fields, and what happens after commit (broadcast, next bot or clock task).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import broadcast
from games.engine import (
    HandState,
    RuleSet,
    disconnect_limit_seconds,
    next_dealer,
    score_match,
)
from games.models import Hand, Match, Move, Seat
from leaderboards import hooks

from . import scheduling
from .errors import MatchNotStartedError, MatchOverError, NotAPlayerError

move_logger = logging.getLogger("games.moves")

# Grace added to the clock of the first turn after a showdown (live contract).
SHOWDOWN_GRACE_SECONDS = 10


# What a move changes on the match row while the match goes on.
TURN_FIELDS = ["version", "current_seat", "turn_started_at", "turn_deadline"]


@dataclass
class Locked:
    """A match row locked for update, with its seats and current hand."""

    match: Match
    seats: list[Seat]
    hand: Hand | None

    @property
    def rules(self) -> RuleSet:
        return RuleSet.from_dict(self.match.rules)

    def state(self) -> HandState:
        assert self.hand is not None
        return HandState.from_dict(self.hand.state)

    def seat_of(self, user: Any) -> Seat | None:
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)


def lock_match(match_id: int) -> Locked | None:
    """Lock the match row and load its seats and current hand; None if it is gone."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        return None
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    return Locked(match=match, seats=seats, hand=hand)


def require_player_in_play(locked: Locked, user: Any) -> Seat:
    """The caller's seat in an active match, or the matching refusal."""
    seat = locked.seat_of(user)
    if seat is None:
        raise NotAPlayerError()
    if locked.match.status == Match.Status.FINISHED:
        raise MatchOverError()
    if locked.match.status == Match.Status.WAITING:
        raise MatchNotStartedError()
    return seat


def new_seed() -> tuple[bytes, str]:
    """A fresh secret deal seed and its public SHA-256 commitment."""
    seed = secrets.token_bytes(32)
    return seed, hashlib.sha256(seed).hexdigest()


def deal_hand(match: Match, number: int, dealer: int) -> Hand:
    seed, commitment = new_seed()
    state = HandState.deal(RuleSet.from_dict(match.rules), dealer, seed)
    return Hand.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        seed=seed,
        seed_hash=commitment,
        state=state.to_dict(),
    )


def start_turn(match: Match, state: HandState, now: datetime, *, after_showdown: bool) -> None:
    """Give the turn to the state's current player and start its clock."""
    match.current_seat = state.current_player
    match.turn_started_at = now
    seconds = RuleSet.from_dict(match.rules).turn_seconds
    if seconds is None:
        match.turn_deadline = None
    else:
        grace = SHOWDOWN_GRACE_SECONDS if after_showdown else 0
        match.turn_deadline = now + timedelta(seconds=seconds + grace)


def start_match(match: Match, now: datetime) -> None:
    """Deal the first hand of a match whose two seats are filled, and save it."""
    match.status = Match.Status.ACTIVE
    match.started_at = now
    match.first_dealer = secrets.randbelow(2)
    match.version += 1
    hand = deal_hand(match, 1, match.first_dealer)
    start_turn(match, HandState.from_dict(hand.state), now, after_showdown=False)
    match.save()
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    after_change(Locked(match=match, seats=seats, hand=hand))


def apply_action(
    locked: Locked, seat_index: int, action: dict, now: datetime, *, auto: bool = False
) -> None:
    """Apply one action (already checked: the seat is to move) and record it.

    Raises the engine's MalformedAction/IllegalAction before anything changes.
    """
    match, hand = locked.match, locked.hand
    assert hand is not None
    state = locked.state()
    new_state, _events = state.apply(action)
    match.version += 1
    Move.objects.create(
        match=match, hand=hand, seq=match.version, seat=seat_index, action=action, auto=auto
    )
    by = "clock" if auto else "computer" if locked.seats[seat_index].bot_level else "player"
    transaction.on_commit(
        partial(_log_move, match.pk, hand.number, match.version, seat_index, action, by)
    )
    hand.state = new_state.to_dict()
    if new_state.is_over:
        _finish_hand(locked, new_state, now)
    else:
        hand.save(update_fields=["state"])
        if new_state.current_player != state.current_player:
            start_turn(match, new_state, now, after_showdown=False)
    if match.status == Match.Status.ACTIVE:  # finish_match saved a finished one
        match.save(update_fields=TURN_FIELDS)


def _log_move(match_id: int, hand: int, seq: int, seat: int, action: dict, by: str) -> None:
    """One JSON line per accepted move (ginsite.logs; LOG_FORMAT=json in production)."""
    move_logger.info(
        "move",
        extra={"fields": {"match_id": match_id, "hand": hand, "seq": seq, "seat": seat,
                          "action": action, "by": by}},
    )


def _finish_hand(locked: Locked, state: HandState, now: datetime) -> None:
    match, hand, seats = locked.match, locked.hand, locked.seats
    assert hand is not None
    result = state.result
    hand.result = result.to_dict()
    hand.result_kind = result.kind
    hand.winner_seat = result.winner
    hand.points = result.points
    hand.finished_at = now
    hand.save()
    if result.winner is not None:
        winner = seats[result.winner]
        winner.hands_won += 1
        winner.gins += result.kind == "gin"
        winner.big_gins += result.kind == "big_gin"
        winner.undercuts += result.kind == "undercut"
    rules = locked.rules
    score = score_match(rules, _finished_results(match))
    for seat in seats:
        seat.score = score.hand_points[seat.index]
    if score.over:
        finish_match(
            locked, winner=score.winner, reason=Match.EndReason.TARGET,
            final=score.to_dict(), now=now,
        )
        return
    for seat in seats:
        seat.save(update_fields=["score", "hands_won", "gins", "big_gins", "undercuts"])
    locked.hand = deal_hand(match, hand.number + 1, next_dealer(hand.dealer, result))
    start_turn(match, HandState.from_dict(locked.hand.state), now, after_showdown=True)


def _finished_results(match: Match) -> list[dict]:
    hands = Hand.objects.filter(match=match, result__isnull=False).order_by("number")
    return list(hands.values_list("result", flat=True))


def finish_match(
    locked: Locked, *, winner: int | None, reason: str, final: dict, now: datetime
) -> None:
    """Mark the match over with its final scores and tell the leaderboards."""
    match = locked.match
    match.status = Match.Status.FINISHED
    match.winner_seat = winner
    match.end_reason = reason
    match.final_score = final
    match.finished_at = now
    match.current_seat = None
    match.turn_deadline = None
    match.turn_started_at = None
    for seat in locked.seats:
        seat.score = final["totals"][seat.index]
        seat.save(update_fields=["score", "hands_won", "gins", "big_gins", "undercuts"])
    match.save()
    hooks.match_finished(match)


def forfeit(locked: Locked, loser: int, reason: str, now: datetime) -> None:
    """End the match now: ``loser`` resigned or abandoned; scores stand and the
    opponent gets the game bonus (RULES.md section 7)."""
    match = locked.match
    score = score_match(locked.rules, _finished_results(match), forfeit=loser)
    match.version += 1
    finish_match(locked, winner=1 - loser, reason=reason, final=score.to_dict(), now=now)
    after_change(locked)


def disconnect_limit_at(match: Match, seat: Seat) -> datetime | None:
    """When the seat to move loses by abandonment if it stays disconnected: two
    minutes after it went away (24 hours without a clock), checked on its turn.
    A player who never connected counts from the start of the match."""
    if seat.connected or seat.bot_level:
        return None
    since = seat.disconnected_at or match.started_at
    if since is None:
        return None
    return since + timedelta(seconds=disconnect_limit_seconds(RuleSet.from_dict(match.rules)))


def after_change(locked: Locked) -> None:
    """On commit: send everyone the new state, then enqueue the next bot or clock
    task, planned from the rows as they were written (no query after commit)."""
    broadcast.match_state_on_commit(locked.match.pk)
    followup = _followup(locked.match, locked.seats)
    if followup is not None:
        transaction.on_commit(followup, robust=True)


def schedule_followups(match_id: int) -> None:
    """Enqueue what the match waits for now, read from the database (after a
    player's presence changed, or a clock check that came too early)."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None:
        return
    followup = _followup(match, list(Seat.objects.filter(match=match).order_by("index")))
    if followup is not None:
        followup()


def _followup(match: Match, seats: list[Seat]) -> Callable[[], None] | None:
    """What the match waits for: the computer's move, or a clock check.

    Tasks are checked against the version when they run, so enqueuing twice is harmless.
    """
    if match.status != Match.Status.ACTIVE or match.current_seat is None:
        return None
    seat = seats[match.current_seat]
    if seat.bot_level:
        return partial(scheduling.bot_turn, match_id=match.pk, version=match.version)
    checks = [t for t in (match.turn_deadline, disconnect_limit_at(match, seat)) if t]
    if not checks:
        return None
    return partial(
        scheduling.clock_check, match_id=match.pk, version=match.version, at=min(checks)
    )


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()
