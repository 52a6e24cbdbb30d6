"""Timestamps read from PostgreSQL (ginsite/timestamps.py) are the instants written,
in UTC as Django's own loader gives them; what the fast parser refuses is refused as
Django refuses it."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.db import DataError, connection, transaction

from ginsite.timestamps import FastTimestampLoader

pytestmark = pytest.mark.django_db

INSTANTS = [
    datetime(2026, 12, 3, 15, 50, 47, 123456, tzinfo=UTC),
    datetime(2026, 12, 3, 15, 50, 47, tzinfo=UTC),  # no fraction: PostgreSQL prints none
    datetime(2026, 12, 3, 15, 50, 47, 100000, tzinfo=UTC),  # printed as ".1"
    datetime(2026, 3, 29, 1, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    datetime(1, 1, 1, tzinfo=UTC),
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
]


def test_timestamps_read_back_are_the_instants_written_in_utc() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(["%s::timestamptz"] * len(INSTANTS)), INSTANTS)
        read = list(cursor.fetchone())
    assert read == INSTANTS
    assert {value.utcoffset() for value in read} == {timedelta(0)}
    loader = connection.connection.adapters.get_loader(
        connection.connection.adapters.types["timestamptz"].oid, 0
    )
    assert issubclass(loader, FastTimestampLoader), "the fast loader reads them"


def test_a_timestamp_python_cannot_hold_is_refused_as_django_refuses_it() -> None:
    with pytest.raises(DataError, match="after year 10K"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 'infinity'::timestamptz")
            cursor.fetchone()
