"""The correspondence clock (docs/rules.md section 9), pure: a whole turn (draw and
discard) may take ``days`` days, counted only while the player to move is not on
vacation. A vacation stops every clock of its player from its start to its end.

>>> from datetime import datetime as dt
>>> start = dt(2026, 3, 1, 12, 0)
>>> move_deadline(start, 3, [])
datetime.datetime(2026, 3, 4, 12, 0)
>>> move_deadline(start, 3, [(dt(2026, 3, 2, 12, 0), dt(2026, 3, 4, 12, 0))])
datetime.datetime(2026, 3, 6, 12, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

#: The time controls a correspondence match may have: days per move.
DAYS_PER_MOVE = (1, 3, 7)
#: Most days of vacation a player may take in a calendar year.
VACATION_DAYS_A_YEAR = 14
#: Most correspondence matches a player may have in play at once.
MAX_CORRESPONDENCE_MATCHES = 20


def merged(periods: Iterable[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """The periods sorted, overlapping or touching ones joined, empty ones left out."""
    out: list[tuple[datetime, datetime]] = []
    for start, end in sorted(p for p in periods if p[1] > p[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def move_deadline(
    turn_started: datetime, days: int, vacations: Iterable[tuple[datetime, datetime]]
) -> datetime:
    """When the turn that started at ``turn_started`` runs out: ``days`` days of time
    outside the player's ``vacations`` (``(start, end)`` periods) after it started."""
    if days not in DAYS_PER_MOVE:
        raise ValueError(f"days per move must be one of {DAYS_PER_MOVE}, not {days!r}")
    left = timedelta(days=days)
    at = turn_started
    for start, end in merged(vacations):
        if end <= at:
            continue
        if start >= at + left:
            break
        if start > at:
            left -= start - at
        at = max(at, end)
    return at + left


def vacation_days_used(periods: Iterable[tuple[datetime, datetime]], year: int) -> int:
    """Days of vacation counted in ``year`` (each period's days in that year, a part of
    a day counting as a whole one)."""
    used = 0
    first, last = datetime(year, 1, 1), datetime(year + 1, 1, 1)
    for start, end in merged(
        (s.replace(tzinfo=None), e.replace(tzinfo=None)) for s, e in periods
    ):
        start, end = max(start, first), min(end, last)
        if end > start:
            used += -(-(end - start) // timedelta(days=1))
    return used
