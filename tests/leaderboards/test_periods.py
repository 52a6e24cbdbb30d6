"""Weekly (ISO, UTC) and monthly (calendar, UTC) periods."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from leaderboards.periods import PeriodKind, month_period, period_containing, week_period

SUNDAY_LAST_SECOND = datetime(2026, 11, 29, 23, 59, 59, 999999, tzinfo=UTC)
MONDAY_MIDNIGHT = datetime(2026, 11, 30, 0, 0, 0, tzinfo=UTC)


def test_sunday_last_second_and_monday_midnight_are_in_different_weeks():
    sunday = period_containing(PeriodKind.WEEK, SUNDAY_LAST_SECOND)
    monday = period_containing(PeriodKind.WEEK, MONDAY_MIDNIGHT)
    assert sunday.start == datetime(2026, 11, 23, tzinfo=UTC)
    assert sunday.end == MONDAY_MIDNIGHT == monday.start
    assert sunday.next() == monday and monday.previous() == sunday
    assert sunday.label == "Week 48, 2026 (Nov 23–Nov 29)"


def test_week_is_taken_in_utc_not_local_time():
    # 01:00 on Monday in UTC+2 is still Sunday 23:00 UTC.
    local = datetime(2026, 11, 30, 1, 0, tzinfo=timezone(timedelta(hours=2)))
    assert period_containing(PeriodKind.WEEK, local).start == datetime(2026, 11, 23, tzinfo=UTC)


def test_iso_week_one_can_start_in_the_previous_year():
    week = week_period(2026, 1)
    assert week.start == datetime(2025, 12, 29, tzinfo=UTC)
    assert week.url_args == (2026, 1)
    assert period_containing(PeriodKind.WEEK, date(2026, 1, 1)) == week


def test_month_boundaries_including_leap_february():
    feb = month_period(2028, 2)
    assert feb.start == datetime(2028, 2, 1, tzinfo=UTC)
    assert feb.end == datetime(2028, 3, 1, tzinfo=UTC)
    assert feb.label == "February 2028"
    dec = month_period(2026, 12)
    assert dec.next() == month_period(2027, 1)
    new_years_eve = datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert period_containing(PeriodKind.MONTH, new_years_eve) == dec


def test_bad_periods_and_naive_datetimes_are_refused():
    with pytest.raises(ValueError):
        week_period(2026, 54)
    with pytest.raises(ValueError):
        month_period(2026, 13)
    with pytest.raises(ValueError, match="naive"):
        period_containing(PeriodKind.WEEK, datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        period_containing("year", date(2026, 1, 1))
