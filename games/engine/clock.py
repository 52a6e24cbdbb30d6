"""The turn clock (docs/rules.md section 9) as a value: "now" is always passed in.

``TurnClock.start(rules, now)`` starts a turn's clock (None when the rules have no
clock); ``clock.expired(now)`` says whether the turn ran out. ``now`` is either a
number of seconds (e.g. ``time.time()``) or a datetime, the same kind throughout.
``timeout_action(state)`` is what the server plays for an absent player.

>>> clock = TurnClock.start(RuleSet.default(), now=1000.0)
>>> clock.remaining(1012.5), clock.expired(1029.9), clock.expired(1030.0)
(17.5, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from .cards import cards_to_mask
from .melds import best_discard_mask
from .rules import RuleSet

if TYPE_CHECKING:
    from .state import HandState

TIMEOUTS_TO_ABANDON = 3  # timed-out turns in a row that lose the match
DISCONNECT_SECONDS = 120  # disconnected this long on one's own turn: abandoned
NO_CLOCK_DISCONNECT_SECONDS = 24 * 3600  # Time Freedom: disconnected this long loses

Instant = float | datetime


@dataclass(frozen=True)
class TurnClock:
    """The clock of one turn: ``seconds`` allowed from ``started_at``."""

    seconds: float
    started_at: Instant

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float):
            raise ValueError(f"seconds must be a number, got {self.seconds!r}")
        if self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {self.seconds}")

    @classmethod
    def start(cls, rules: RuleSet, now: Instant) -> TurnClock | None:
        """The clock of a turn starting at ``now``; None when the rules have no clock."""
        if rules.turn_seconds is None:
            return None
        return cls(rules.turn_seconds, now)

    def _elapsed(self, now: Instant) -> float:
        if isinstance(self.started_at, datetime) != isinstance(now, datetime):
            raise ValueError("now must be the same kind (number or datetime) as started_at")
        if isinstance(now, datetime):
            assert isinstance(self.started_at, datetime)
            return (now - self.started_at).total_seconds()
        assert not isinstance(self.started_at, datetime)
        return float(now - self.started_at)

    @property
    def deadline(self) -> Instant:
        if isinstance(self.started_at, datetime):
            return self.started_at + timedelta(seconds=self.seconds)
        return self.started_at + self.seconds

    def remaining(self, now: Instant) -> float:
        """Seconds left at ``now`` (0 once expired)."""
        return max(0.0, self.seconds - self._elapsed(now))

    def expired(self, now: Instant) -> bool:
        """Whether the turn has run out at ``now``."""
        return self._elapsed(now) >= self.seconds

    def to_dict(self) -> dict[str, Any]:
        started = self.started_at
        return {
            "seconds": self.seconds,
            "started_at": started.isoformat() if isinstance(started, datetime) else started,
        }


def abandoned_by_timeouts(timeouts_in_a_row: int) -> bool:
    """Three timed-out turns in a row lose the match by abandonment."""
    return timeouts_in_a_row >= TIMEOUTS_TO_ABANDON


def disconnect_limit_seconds(rules: RuleSet) -> int:
    """How long a player may stay disconnected on their own turn before losing."""
    return DISCONNECT_SECONDS if rules.turn_seconds is not None else NO_CLOCK_DISCONNECT_SECONDS


def timeout_action(state: HandState) -> dict[str, str]:
    """The action the server plays when the player to move runs out of time.

    First turn: pass. Draw phase: draw from the stock. Discard phase: discard the card
    leaving the lowest deadwood (ties: the highest-value card). Never knocks. A timed
    out normal turn is therefore two actions: call this, apply, and call it again.
    """
    if state.is_over or state.current_player is None:
        raise ValueError("the hand is over: nobody is on the clock")
    if state.phase == "first_turn":
        return {"type": "pass"}
    if state.phase == "draw":
        return {"type": "draw", "source": "stock"}
    taken = state.taken_from_discard
    mask = cards_to_mask(state.hands[state.current_player])
    card, _ = best_discard_mask(mask, 0 if taken is None else taken.mask)
    return {"type": "discard", "card": str(card)}
