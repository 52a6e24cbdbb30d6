"""Leaderboard periods: ISO weeks and calendar months, in UTC. Pure (standard library).

A period is the half-open interval [start, end): a match finished at 23:59:59.999
on Sunday belongs to that week, one finished at 00:00:00 on Monday to the next.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum


class PeriodKind(StrEnum):
    WEEK = "week"
    MONTH = "month"


@dataclass(frozen=True, slots=True)
class Period:
    """One ISO week or calendar month; ``start`` and ``end`` are aware UTC datetimes."""

    kind: PeriodKind
    start: datetime
    end: datetime

    @property
    def label(self) -> str:
        if self.kind is PeriodKind.WEEK:
            year, week, _ = self.start.isocalendar()
            first, last = self.start.date(), self.last_day
            return f"Week {week}, {year} ({first:%b} {first.day}–{last:%b} {last.day})"
        return f"{self.start:%B %Y}"

    @property
    def last_day(self) -> date:
        return (self.end - timedelta(days=1)).date()

    @property
    def url_args(self) -> tuple[int, int]:
        """(ISO year, ISO week) of a week, (year, month) of a month."""
        if self.kind is PeriodKind.WEEK:
            year, week, _ = self.start.isocalendar()
            return year, week
        return self.start.year, self.start.month

    def previous(self) -> Period:
        return period_containing(self.kind, self.start - timedelta(days=1))

    def next(self) -> Period:
        return period_containing(self.kind, self.end)

    def has_ended(self, now: datetime) -> bool:
        return now >= self.end


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def period_containing(kind: PeriodKind | str, moment: date | datetime) -> Period:
    """The week or month (UTC) that contains ``moment`` (a date, or an aware datetime)."""
    kind = PeriodKind(kind)
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            raise ValueError("a naive datetime has no UTC period; pass an aware one")
        day = moment.astimezone(UTC).date()
    else:
        day = moment
    if kind is PeriodKind.WEEK:
        start = _midnight(day - timedelta(days=day.weekday()))
        return Period(kind, start, start + timedelta(days=7))
    days_in_month = calendar.monthrange(day.year, day.month)[1]
    start = _midnight(day.replace(day=1))
    return Period(kind, start, start + timedelta(days=days_in_month))


def week_period(iso_year: int, iso_week: int) -> Period:
    """The ISO week ``iso_week`` of ``iso_year``; ValueError when it does not exist."""
    return period_containing(PeriodKind.WEEK, date.fromisocalendar(iso_year, iso_week, 1))


def month_period(year: int, month: int) -> Period:
    """The calendar month; ValueError when it does not exist."""
    return period_containing(PeriodKind.MONTH, date(year, month, 1))
