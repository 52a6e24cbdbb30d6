"""PostgreSQL's ``timestamptz`` values read with the standard library's parser.

Django's psycopg loader parses each timestamp with psycopg's pure-Python parser,
and a move reads eight of them (the match's, its hand's, its seats' and their
users'): a visible part of the move's CPU in the service (docs/benchmarks-log.md,
"Prepared statements"). This loader gives the same values with
``datetime.fromisoformat``, written in C, and hands anything that parser refuses
(``infinity``, dates before Christ) to Django's. It is registered on each new
connection (ginsite/apps.py).

The one module of the site that uses Django's internal
``django.db.backends.postgresql.psycopg_any.BaseTzLoader`` (the loader Django registers,
which this one extends: its ``timezone`` and its ``load``); tests/test_internals.py
fails on an upgrade that removes it (Django is pinned exactly in pyproject.toml).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.backends.postgresql.psycopg_any import BaseTzLoader


def register(connection: Any) -> None:
    """Use the fast loader on a new PostgreSQL connection (Django's wrapper), in the
    connection's time zone as Django's own loader is."""
    if connection.vendor != "postgresql":
        return

    class Loader(FastTimestampLoader):
        timezone = connection.timezone

    connection.connection.adapters.register_loader("timestamptz", Loader)


class FastTimestampLoader(BaseTzLoader):
    def load(self, data: Any) -> datetime:
        try:
            return datetime.fromisoformat(bytes(data).decode()).replace(tzinfo=self.timezone)
        except ValueError:
            return super().load(data)
