"""Celery beat's scheduler in production: django-celery-beat's ``DatabaseScheduler``
(the schedules of ``CELERY_BEAT_SCHEDULE`` synced into the admin's PeriodicTask
table, editable there), reading the admin's changes at most every
``CHANGES_CHECK_SECONDS``.

The stock scheduler asks the database whether the schedule changed at every beat
tick. The clock check runs every second, so beat woke each second for that one query:
most of beat's CPU, and a query a second on the database, for edits that happen a few
times a year. An edit in the admin now reaches beat within ten seconds.

``schedule_changed`` is not a documented hook of django-celery-beat: it is the method
its ``schedule`` property asks at every tick; tests/test_internals.py fails on an
upgrade where that is no longer so (django-celery-beat is pinned exactly in
pyproject.toml).
"""

from __future__ import annotations

import time

from django_celery_beat.schedulers import DatabaseScheduler

CHANGES_CHECK_SECONDS = 10.0


class Scheduler(DatabaseScheduler):
    checked_at: float = float("-inf")

    def schedule_changed(self) -> bool:
        now = time.monotonic()
        if now - self.checked_at < CHANGES_CHECK_SECONDS:
            return False
        self.checked_at = now
        return bool(super().schedule_changed())
