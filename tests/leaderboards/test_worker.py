"""Boards and ratings update by themselves through a real Celery worker: the beat
schedule's task (as beat's scheduler, django-celery-beat's DatabaseScheduler, stores
and sends it) and the rating task enqueued when a rated match finishes."""

import pytest
from django.db import transaction
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from ginsite.beat_scheduler import Scheduler
from ginsite.celery import app as celery_app
from leaderboards import hooks
from leaderboards.models import Board, BoardEntry, Rating
from leaderboards.periods import PeriodKind, period_containing
from tests.factories import create_finished_match, create_user
from tests.leaderboards.conftest import wait_for


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_beat_task_and_rating_task_run_on_a_real_worker(live_celery_worker, settings):
    settings.LEADERBOARD_MIN_MATCHES = 5  # the worker reads the default, 5, too
    now = timezone.now()
    ann, bob, cid, dan = (create_user(name) for name in ("ann", "bob", "cid", "dan"))
    # Against several opponents: only 3 matches of the same two players count a week.
    for pair, times in (((ann, bob), 2), ((ann, cid), 3), ((bob, dan), 3)):
        for _ in range(times):
            create_finished_match(pair, finished_at=now, scores=(120, 30))

    # A rated match finishing: its rating update runs on the worker after the commit.
    with transaction.atomic():
        match = create_finished_match((bob, ann), finished_at=now, scores=(200, 90), winner=0)
        hooks.match_finished(match)
    wait_for(
        lambda: Rating.objects.filter(user=bob, rated_matches=1).exists(), worker=live_celery_worker
    )
    assert Rating.objects.get(user=bob).rating > 1500 > Rating.objects.get(user=ann).rating

    # The schedule as beat sees it (synced into the admin-editable PeriodicTask table).
    Scheduler(app=celery_app, lazy=False)
    refresh = PeriodicTask.objects.get(name="leaderboards-refresh-boards")
    assert refresh.enabled and refresh.interval.every == 60  # within a minute: docs/operations.md
    celery_app.send_task(refresh.task)  # what beat sends when the entry is due
    week = period_containing(PeriodKind.WEEK, now)
    wait_for(
        lambda: BoardEntry.objects.filter(board__period_start=week.start, rank=1).exists(),
        worker=live_celery_worker,
    )
    board = Board.objects.get(kind="week", period_start=week.start)
    ranked = board.entries.filter(rank__isnull=False).order_by("rank")
    assert [(e.user.username, e.points, e.matches_played) for e in ranked] == [
        ("ann", 690, 6),
        ("bob", 620, 6),
    ]
    month = period_containing(PeriodKind.MONTH, now)
    assert Board.objects.filter(kind="month", period_start=month.start).exists()
