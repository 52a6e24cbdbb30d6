"""Beat's scheduler (ginsite/beat_scheduler.py): an edit of a periodic task in the admin
reaches beat within ten seconds, without a query at every tick of the one-second clock."""

import pytest
from django_celery_beat.models import PeriodicTask

from ginsite import beat_scheduler
from ginsite.celery import app as celery_app


@pytest.mark.django_db(transaction=True)
def test_an_admin_edit_reaches_beat_within_ten_seconds_without_a_query_a_tick(
    monkeypatch, django_assert_num_queries
):
    clock = [1000.0]
    monkeypatch.setattr(beat_scheduler.time, "monotonic", lambda: clock[0])
    scheduler = beat_scheduler.Scheduler(app=celery_app, lazy=False)  # beat starts
    assert "analysis-sweep" in scheduler.schedule

    task = PeriodicTask.objects.get(name="analysis-sweep")
    task.enabled = False
    task.save()  # what the admin's form does
    for _ in range(9):  # the next nine ticks, one a second: no query, the old schedule
        clock[0] += 1
        with django_assert_num_queries(0):
            assert "analysis-sweep" in scheduler.schedule
    clock[0] += 1
    assert "analysis-sweep" not in scheduler.schedule
