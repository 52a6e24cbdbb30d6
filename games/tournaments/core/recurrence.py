"""When a recurring tournament takes place (pure: standard library only).

A rule is ``daily``, ``weekly`` (on ``weekday``, 0 = Monday) or ``monthly`` (the
``nth`` ``weekday`` of the month, 1..4: "the first Saturday"), at ``hour``:``minute``
UTC. ``occurrences`` lists the start times in a window, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

KINDS = ("daily", "weekly", "monthly")


@dataclass(frozen=True)
class Recurrence:
    kind: str
    hour: int
    minute: int = 0
    weekday: int = 0
    nth: int = 1

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if not 0 <= self.hour <= 23 or not 0 <= self.minute <= 59:
            raise ValueError("the time must be between 00:00 and 23:59")
        if not 0 <= self.weekday <= 6:
            raise ValueError("weekday must be 0 (Monday) to 6 (Sunday)")
        if not 1 <= self.nth <= 4:
            raise ValueError("nth must be 1 to 4 (the first to the fourth weekday of the month)")


def _on(day: date, rule: Recurrence) -> datetime:
    return datetime.combine(day, time(rule.hour, rule.minute), tzinfo=UTC)


def _matches(day: date, rule: Recurrence) -> bool:
    if rule.kind == "daily":
        return True
    if day.weekday() != rule.weekday:
        return False
    return rule.kind == "weekly" or (day.day - 1) // 7 + 1 == rule.nth


def occurrences(rule: Recurrence, start: datetime, end: datetime) -> list[datetime]:
    """Every start time ``t`` of ``rule`` with ``start <= t < end`` (aware datetimes)."""
    found: list[datetime] = []
    day = start.astimezone(UTC).date()
    while True:
        at = _on(day, rule)
        if at >= end:
            return found
        if at >= start and _matches(day, rule):
            found.append(at)
        day += timedelta(days=1)
