"""The correspondence clock, pure (games/engine/correspondence.py): a turn's days count
outside the player's vacations, whatever their order or overlap; a year's vacation
days are counted by the day."""

from datetime import datetime, timedelta

import pytest

from games.engine.correspondence import merged, move_deadline, vacation_days_used

START = datetime(2026, 3, 1, 12, 0)
DAY = timedelta(days=1)


@pytest.mark.parametrize("days", [1, 3, 7])
def test_without_vacation_a_turn_has_its_days(days: int) -> None:
    assert move_deadline(START, days, []) == START + days * DAY


def test_a_vacation_inside_the_turn_adds_its_length() -> None:
    vacation = (START + DAY, START + 3 * DAY)
    assert move_deadline(START, 3, [vacation]) == START + 5 * DAY


def test_a_vacation_under_way_when_the_turn_starts_stops_the_clock_until_it_ends() -> None:
    vacation = (START - 2 * DAY, START + DAY)
    assert move_deadline(START, 1, [vacation]) == START + 2 * DAY


def test_vacations_before_or_after_the_deadline_change_nothing() -> None:
    before = (START - 5 * DAY, START - 4 * DAY)
    after = (START + 3 * DAY, START + 4 * DAY)
    assert move_deadline(START, 3, [after, before]) == START + 3 * DAY
    # One that starts exactly at the deadline: the time had already run out.
    assert move_deadline(START, 1, [(START + DAY, START + 9 * DAY)]) == START + DAY


def test_overlapping_vacations_count_once() -> None:
    first = (START + DAY, START + 3 * DAY)
    second = (START + 2 * DAY, START + 4 * DAY)
    assert merged([second, first]) == [(START + DAY, START + 4 * DAY)]
    assert move_deadline(START, 3, [first, second]) == START + 6 * DAY
    # Two apart: both count while the turn runs; one after its deadline does not.
    third = (START + 4 * DAY, START + 6 * DAY)
    assert move_deadline(START, 3, [first, third]) == START + 7 * DAY
    later = (START + 5 * DAY, START + 6 * DAY)
    assert move_deadline(START, 3, [first, later]) == START + 5 * DAY


def test_only_1_3_or_7_days() -> None:
    with pytest.raises(ValueError):
        move_deadline(START, 2, [])


def test_vacation_days_are_counted_by_the_day_within_the_year() -> None:
    assert vacation_days_used([(START, START + 2 * DAY)], 2026) == 2
    assert vacation_days_used([(START, START + 2 * DAY + timedelta(hours=1))], 2026) == 3
    new_year = (datetime(2025, 12, 30), datetime(2026, 1, 3))
    assert vacation_days_used([new_year], 2026) == 2
    assert vacation_days_used([new_year], 2025) == 2
    assert vacation_days_used([new_year, (START, START + DAY)], 2026) == 3
