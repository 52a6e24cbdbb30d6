"""The core of every write to a match in play, shared by the public services.

A ``Change`` is opened on a match locked by ``store.lock_match`` inside the caller's
transaction. It applies actions (or a forfeit) to the engine's ``MatchState`` in
memory, then ``commit`` writes every row the change touched in one statement
(store.Writes), plans the turn clock on the match row, publishes the change's domain
events to the apps that subscribe (games/events.py: ``MatchStarted``, ``MovePlayed``,
``HandFinished``, ``MatchFinished``, ``PlayerRestricted``; this module imports none of
them), and hands the messages of each audience, built from that same state in memory
(games/messages.py), to games/broadcast.py to send after the transaction commits.
Nothing is read back: the mover's own message is returned to the caller.

Match-level rules (dealer rotation, scores, the end of the match) are the engine's
(``MatchState``); here they only become rows: the Move log, the hand (its state, and
its result once over), the seats' statistics, the next deal and the match row.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from games import broadcast, events, messages, selectors
from games.engine import (
    HandState,
    MatchState,
    RuleSet,
    disconnect_limit_seconds,
)
from games.engine.correspondence import move_deadline
from games.errors import MatchNotStartedError, MatchOverError, NotAPlayerError
from games.models import Hand, Match, Move, Seat

from . import fairplay, scheduling
from .store import Locked, Writes, lock_match

if TYPE_CHECKING:
    from accounts.models import User

move_logger = logging.getLogger("games.moves")

# Time to read a hand's result: the next hand's clock starts this much after the
# showdown (live contract, docs/protocol.md; the table counts it down).
SHOWDOWN_GRACE_SECONDS = 15
# A computer turn still waiting this long after its move was enqueued lost its task (a
# broker restart, a worker killed): the clock tick enqueues it again, and again after
# as long while it waits (a duplicate task changes nothing: it checks the version).
COMPUTER_RECHECK = timedelta(seconds=10)

SEAT_STATS = ["score", "hands_won", "gins", "big_gins", "undercuts"]

#: A match that ends otherwise than at its target (resigned, abandoned, forfeited)
#: before each player has made this many moves of their own (draws, discards,
#: passes, knocks; not the moves the server played when a turn ran out) is aborted:
#: never rated and counted on no board (docs/rules.md section 7). The winner stays
#: recorded, so a tournament counts it as a loss for the player who left.
ABORT_BEFORE_MOVES = 2

__all__ = [
    "Change", "Locked", "begin_match", "lock_match", "require_player_in_play", "start_match",
    "started_event",
]


def require_player_in_play(locked: Locked, user: User) -> Seat:
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


def match_state(locked: Locked) -> MatchState:
    """The engine's state of the locked match (its current hand and finished results)."""
    return selectors.engine_state(locked.match, locked.hand)


def start_match(match: Match, now: datetime) -> None:
    """Deal the first hand of a match whose two seats are filled, and save it; its
    players hear the new table after commit."""
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    hand, state = begin_match(match, seats, now)
    hand.save()
    match.save()
    _publish_states(Locked(match=match, seats=seats, hand=hand), state, now)
    _after_commit_followups(match, seats)
    events.publish(started_event(match, seats))


def started_event(match: Match, seats: list[Seat]) -> events.MatchStarted:
    """The ``MatchStarted`` of a match just dealt (games/events.py)."""
    assert match.started_at is not None  # begin_match set it
    return events.MatchStarted(
        match_id=match.pk, kind=match.kind, variant=match.variant, rated=match.rated,
        user_ids=tuple(s.user_id for s in seats), to_move=match.current_seat,
        started_at=match.started_at, tournament_id=match.tournament_id,
    )


def begin_match(match: Match, seats: list[Seat], now: datetime) -> tuple[Hand, MatchState]:
    """In memory, nothing saved: mark ``match`` started (the first dealer drawn, the
    first turn and its clock planned) and deal its first hand (returned, unsaved, with
    the engine's state)."""
    match.status = Match.Status.ACTIVE
    match.started_at = now
    match.first_dealer = secrets.randbelow(2)
    match.version += 1
    seed, commitment = new_seed()
    state = MatchState.start(RuleSet.from_dict(match.rules), match.first_dealer, seed)
    assert state.hand is not None  # just dealt
    hand = Hand(
        match=match, number=1, dealer=match.first_dealer, seed=seed, seed_hash=commitment,
        state=state.hand.to_dict(),
    )
    _start_turn(match, seats, state, now, after_showdown=False)
    match.clock_due_at = _clock_due(match, seats, now)
    return hand, state


class Change:
    """One change of a locked match: actions or a forfeit, then ``commit``."""

    def __init__(self, locked: Locked, now: datetime) -> None:
        self.locked = locked
        self.now = now
        self.before = match_state(locked)
        self.state = self.before
        self.events: list[dict[str, Any]] = []
        self.writes = Writes()
        self.hand_fields: set[str] = set()
        self.match_fields: set[str] = {"version"}
        self.seat_fields: dict[int, set[str]] = {}
        self.drawn: str | None = None
        self.mover: int | None = None
        self.mover_auto = False
        self.new_hand: Hand | None = None
        self.next_seed: tuple[bytes, str] | None = None
        # Moves of their own each seat made in this change (not yet written).
        self.own_moves = [0, 0]

    # --- what happens ----------------------------------------------------------------

    def act(self, seat: int, action: dict[str, Any], *, auto: bool = False) -> None:
        """Apply ``action`` for ``seat`` (the engine checks it: MalformedAction or
        IllegalAction leave everything unchanged) and record it."""
        if self.new_hand is not None:
            raise RuntimeError("a change ends with the hand it finishes")
        match, hand = self.locked.match, self.locked.hand
        assert hand is not None
        before_hand = self.state.hand
        assert before_hand is not None
        state, happened = self.state.apply(seat, action, timeout=auto)
        ended = state.hand if state.hand is not None and state.hand.is_over else None
        if state.needs_deal:
            self.next_seed = new_seed()
            state, dealt = state.deal_next(self.next_seed[0])
            happened = [*happened, *dealt]
        self.state = state
        self.events.extend(happened)
        self.mover, self.mover_auto = seat, auto
        if not auto:
            self.own_moves[seat] += 1
        match.version += 1
        recorded = dict(action)
        played = ended.result if ended is not None else None
        if recorded.get("type") == "knock" and recorded.get("card") is None and played:
            recorded["card"] = str(played.knock_card)  # the card the server chose
        self.writes.insert(
            Move(match_id=match.pk, hand_id=hand.pk, seq=match.version, seat=seat,
                 action=recorded, auto=auto)
        )
        by = "clock" if auto else "computer" if self.locked.seats[seat].bot_level else "player"
        transaction.on_commit(
            partial(_log_move, match.pk, hand.number, match.version, seat, recorded, by)
        )
        if recorded.get("type") == "draw" and recorded.get("source") == "stock":
            self.drawn = str(before_hand.stock[0])
        seat_row = self.locked.seats[seat]
        if not auto and seat_row.timeouts_in_row:
            seat_row.timeouts_in_row = 0
            self._seat_changed(seat, "timeouts_in_row")
        if played is None:
            assert state.hand is not None  # the hand goes on
            hand.state = state.hand.to_dict()
            self.hand_fields.add("state")
            if state.hand.current_player != before_hand.current_player:
                _start_turn(match, self.locked.seats, state, self.now, after_showdown=False)
                self.match_fields.update(TURN_FIELDS)
            return
        assert ended is not None  # a result comes with the hand that ended
        self._hand_finished(ended, played)

    def timed_out(self, seat: int) -> int:
        """Count a turn that ran out for ``seat``; returns its timeouts in a row."""
        seat_row = self.locked.seats[seat]
        seat_row.timeouts_in_row += 1
        self._seat_changed(seat, "timeouts_in_row")
        return seat_row.timeouts_in_row

    def forfeit(self, loser: int, reason: str) -> None:
        """End the match now: ``loser`` resigned or abandoned; scores stand and the
        opponent gets the game bonus (docs/rules.md section 7)."""
        self.state, happened = self.state.resign(loser)
        self.events.extend(happened)
        self.locked.match.version += 1
        self._finish_match(reason)

    # --- writing -----------------------------------------------------------------------

    def commit(
        self, *, answered: int | None = None, last: bool = False
    ) -> dict[int | None, dict[str, Any]]:
        """Write the rows, plan the clock and publish after commit; returns the
        message of each audience (the caller answers its own socket with its own).

        ``last``: the caller's transaction ends here, nothing follows it: the writes of
        a match that goes on are run last and commit with it (store.Writes.run).

        ``answered``: the seat whose socket the caller answers itself. Its group is
        not sent the message when that socket is the seat's only one (a second tab
        of the same player still hears every move)."""
        match, hand = self.locked.match, self.locked.hand
        match.clock_due_at = _clock_due(match, self.locked.seats, self.now)
        self.match_fields.add("clock_due_at")
        if self.hand_fields and hand is not None:
            self.writes.update(hand, sorted(self.hand_fields))
        for index, fields in sorted(self.seat_fields.items()):
            self.writes.update(self.locked.seats[index], sorted(fields))
        if self.new_hand is not None:
            self.writes.insert(self.new_hand)
        self.writes.update(match, sorted(self.match_fields))
        finished = match.status == Match.Status.FINISHED
        if finished:
            self.writes.run()
            restricted = fairplay.match_finished(match, self.locked.seats, self.now)
            events.publish(self._finished_event())
            if restricted is not None:
                events.publish(events.PlayerRestricted(
                    user_id=restricted.user_id, until=restricted.until, match_id=match.pk,
                    offence=restricted.offence,
                ))
        elif self.mover is not None:
            events.publish(self._move_event())
        if self.new_hand is not None:
            self.locked.hand = self.new_hand
        sent = self._messages()
        alone = answered is not None and self.locked.sockets.get(answered, 0) <= 1
        told = {a: m for a, m in sent.items() if not (alone and a == answered)}
        broadcast.publish_on_commit(match.pk, told)
        _after_commit_followups(match, self.locked.seats)
        if not finished:
            self.writes.run(commit=last)
        return sent

    def _finished_event(self) -> events.MatchFinished:
        match, seats = self.locked.match, self.locked.seats
        assert match.finished_at is not None and match.final_score is not None
        return events.MatchFinished(
            match_id=match.pk, kind=match.kind, rated=match.rated, aborted=match.aborted,
            reason=match.end_reason, winner_seat=match.winner_seat,
            user_ids=tuple(s.user_id for s in seats),
            scores=tuple(match.final_score["totals"]), finished_at=match.finished_at,
            tournament_id=match.tournament_id, days_per_move=match.days_per_move,
            match=match, seats=tuple(seats),
        )

    def _move_event(self) -> events.MovePlayed:
        match = self.locked.match
        assert self.mover is not None
        to_move = match.current_seat
        return events.MovePlayed(
            match_id=match.pk, version=match.version, by_seat=self.mover,
            auto=self.mover_auto, to_move=to_move,
            to_move_user_id=self.locked.seats[to_move].user_id if to_move is not None else None,
            turn_deadline=match.turn_deadline, hand_finished=self.new_hand is not None,
            days_per_move=match.days_per_move, move_deadline=match.move_deadline,
        )

    def _messages(self) -> dict[int | None, dict[str, Any]]:
        audiences = [s.index for s in self.locked.seats if s.user_id is not None]
        match = self.locked.match
        if not messages.is_ordinary(self.events):
            return _states(self.locked, self.state, self.now, audiences)
        turn_passed = "current_seat" in self.match_fields
        clock = messages.clock_dict(match.rules, match.turn_deadline, self.now)
        return {
            audience: messages.events_frame(
                version=match.version, audience=audience, after=self.state,
                events=self.events, clock=clock, turn_passed=turn_passed,
                drawn=self.drawn if audience == self.mover else None,
                move_deadline=match.move_deadline if match.days_per_move else None,
            )
            for audience in [*audiences, None]
        }

    # --- bookkeeping -------------------------------------------------------------------

    def _seat_changed(self, index: int, *fields: str) -> None:
        self.seat_fields.setdefault(index, set()).update(fields)

    def _hand_finished(self, ended: HandState, result: Any) -> None:
        locked, match, hand = self.locked, self.locked.match, self.locked.hand
        assert hand is not None
        hand.state = ended.to_dict()
        hand.result = result.to_dict()
        hand.result_kind = result.kind
        hand.winner_seat = result.winner
        hand.points = result.points
        hand.finished_at = self.now
        self.hand_fields.update(
            ["state", "result", "result_kind", "winner_seat", "points", "finished_at"]
        )
        events.publish(events.HandFinished(
            match_id=match.pk, hand_id=hand.pk, number=hand.number, kind=result.kind,
            winner_seat=result.winner, points=result.points, match_over=self.state.over,
        ))
        match.finished_hands = [*match.finished_hands, messages.hand_summary(hand)]
        self.match_fields.add("finished_hands")
        if result.winner is not None:
            winner = locked.seats[result.winner]
            winner.hands_won += 1
            winner.gins += result.kind == "gin"
            winner.big_gins += result.kind == "big_gin"
            winner.undercuts += result.kind == "undercut"
        score = self.state.score
        for seat in locked.seats:
            seat.score = score.hand_points[seat.index]
            self._seat_changed(seat.index, *SEAT_STATS)
        if self.state.over:
            self._finish_match(Match.EndReason.TARGET)
            return
        new = self.state.hand
        assert new is not None and self.next_seed is not None
        seed, commitment = self.next_seed
        self.new_hand = Hand(
            match_id=match.pk, number=self.state.hand_number, dealer=new.dealer, seed=seed,
            seed_hash=commitment, state=new.to_dict(),
        )
        _start_turn(match, self.locked.seats, self.state, self.now, after_showdown=True)
        self.match_fields.update(TURN_FIELDS)

    def _finish_match(self, reason: str) -> None:
        """Mark the match over with its final scores (``commit`` publishes its
        ``MatchFinished``, games/events.py)."""
        match = self.locked.match
        score = self.state.score
        final = score.to_dict()
        match.status = Match.Status.FINISHED
        match.winner_seat = score.winner
        match.end_reason = reason
        match.aborted = reason != Match.EndReason.TARGET and self._too_early_to_count()
        match.final_score = final
        match.finished_at = self.now
        match.current_seat = None
        match.turn_deadline = None
        match.turn_started_at = None
        match.move_deadline = None
        self.match_fields.update(
            ["status", "winner_seat", "end_reason", "aborted", "final_score", "finished_at",
             *TURN_FIELDS]
        )
        for seat in self.locked.seats:
            seat.score = final["totals"][seat.index]
            self._seat_changed(seat.index, *SEAT_STATS)

    def _too_early_to_count(self) -> bool:
        """Whether a seat has made fewer than ``ABORT_BEFORE_MOVES`` moves of its own
        (one read, when a match ends early by resignation or abandonment)."""
        made = list(self.own_moves)
        written = (
            Move.objects.filter(match_id=self.locked.match.pk, auto=False)
            .values("seat")
            .annotate(n=Count("pk"))
            .values_list("seat", "n")
        )
        for seat, count in written:
            made[seat] += count
        return min(made) < ABORT_BEFORE_MOVES


# What a move changes on the match row while the match goes on.
TURN_FIELDS = ["current_seat", "turn_started_at", "turn_deadline", "move_deadline"]


def _start_turn(
    match: Match, seats: list[Seat], state: MatchState, now: datetime, *, after_showdown: bool
) -> None:
    """Give the turn to the state's current player and start its clock."""
    match.current_seat = state.current_player
    match.turn_started_at = now
    if match.days_per_move:
        # Correspondence: days for the whole turn, the player's vacations not counted
        # (a turn that reaches a player on vacation runs from its end), checked by
        # beat's correspondence job (games/services/correspondence.py).
        match.turn_deadline = None
        assert match.current_seat is not None  # a turn starts in a match that goes on
        user_id = seats[match.current_seat].user_id
        match.move_deadline = move_deadline(
            now, match.days_per_move, selectors.vacations(user_id=user_id, since=now))
        return
    seconds = state.rules.turn_seconds
    if seconds is None:
        match.turn_deadline = None
        return
    # The clock starts once the grace after a showdown is over, for every turn that
    # begins within it (the first player may act at once while the other still reads).
    starts = now + timedelta(seconds=SHOWDOWN_GRACE_SECONDS if after_showdown else 0)
    if not after_showdown and match.turn_deadline is not None:
        starts = max(starts, match.turn_deadline - timedelta(seconds=seconds))
    match.turn_deadline = starts + timedelta(seconds=seconds)


def disconnect_limit_at(match: Match, seat: Seat) -> datetime | None:
    """When the seat to move loses by abandonment if it stays disconnected: two
    minutes after it went away (24 hours without a clock), checked on its turn.
    A player who never connected counts from the start of the match."""
    if seat.connected or seat.bot_level or match.days_per_move:
        return None  # a correspondence match's players are away by design
    since = seat.disconnected_at or match.started_at
    if since is None:
        return None
    return since + timedelta(seconds=disconnect_limit_seconds(RuleSet.from_dict(match.rules)))


def _clock_due(match: Match, seats: list[Seat], now: datetime) -> datetime | None:
    """When the clock tick must look at the match next: the turn's deadline or the
    disconnection limit of the player to move, whichever comes first; on a computer
    turn (enqueued ``now``), whether its task was lost."""
    if match.status != Match.Status.ACTIVE or match.current_seat is None:
        return None
    seat = seats[match.current_seat]
    if seat.bot_level:
        return now + COMPUTER_RECHECK
    checks = [t for t in (match.turn_deadline, disconnect_limit_at(match, seat)) if t]
    return min(checks) if checks else None


def clock_replan(match_id: int, now: datetime | None = None) -> None:
    """After a player's presence changed: ``replan`` the match under its lock."""
    with transaction.atomic():
        locked = lock_match(match_id)
        if locked is None or locked.match.status != Match.Status.ACTIVE:
            return
        replan(locked, now_or(now))


def replan(locked: Locked, now: datetime) -> None:
    """Under the lock of an active match: plan its clock check again, and enqueue the
    computer's move after commit if it waits for one (a restart may have lost it)."""
    match = locked.match
    due = _clock_due(match, locked.seats, now)
    if due != match.clock_due_at:
        match.clock_due_at = due
        match.save(update_fields=["clock_due_at"])
    _after_commit_followups(match, locked.seats)


def _after_commit_followups(match: Match, seats: list[Seat]) -> None:
    """After commit: the computer's move, if the computer is to move. (Clock checks
    need no task: the tick finds the match by its ``clock_due_at``.)"""
    if match.status != Match.Status.ACTIVE or match.current_seat is None:
        return
    if seats[match.current_seat].bot_level:
        match_id, version = match.pk, match.version

        def computer_moves() -> None:  # a function: Django's robust hooks log __qualname__
            scheduling.bot_turn(match_id=match_id, version=version)

        transaction.on_commit(computer_moves, robust=True)


def _states(
    locked: Locked, state: MatchState | None, now: datetime, audiences: list[int]
) -> dict[int | None, dict[str, Any]]:
    match = locked.match
    table = messages.table(
        match=match, seats=locked.seats, hands=match.finished_hands, current=locked.hand,
        clock=messages.clock_dict(match.rules, match.turn_deadline, now)
        if match.status == Match.Status.ACTIVE else None,
        rematch_id=None,
    )
    return {
        audience: messages.state(
            version=match.version, audience=audience, table=table, match=state
        )
        for audience in [*audiences, None]
    }


def _publish_states(locked: Locked, state: MatchState, now: datetime) -> None:
    audiences = [s.index for s in locked.seats if s.user_id is not None]
    broadcast.publish_on_commit(locked.match.pk, _states(locked, state, now, audiences))


def publish_table(locked: Locked, now: datetime, *, rematch_id: int | None = None) -> None:
    """After commit, send every audience the whole table (a change that is not a move:
    a rematch offer or answer)."""
    match = locked.match
    state = match_state(locked) if locked.hand is not None else None
    audiences = [s.index for s in locked.seats if s.user_id is not None]
    table = messages.table(
        match=match, seats=locked.seats, hands=match.finished_hands, current=locked.hand,
        clock=None, rematch_id=rematch_id,
    )
    broadcast.publish_on_commit(match.pk, {
        audience: messages.state(version=match.version, audience=audience, table=table,
                                 match=state)
        for audience in [*audiences, None]
    })


def _log_move(
    match_id: int, hand: int, seq: int, seat: int, action: dict[str, Any], by: str
) -> None:
    """One JSON line per accepted move (ginsite.logs; LOG_FORMAT=json in production)."""
    move_logger.info(
        "move",
        extra={"fields": {"match_id": match_id, "hand": hand, "seq": seq, "seat": seat,
                          "action": action, "by": by}},
    )


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()
