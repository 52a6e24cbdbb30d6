"""The Celery worker killed with SIGKILL while computer moves wait in the broker:
after a restart every pending computer turn is played exactly once.

The dead worker held some tasks (reserved, not acknowledged: ``acks_late``); others
were still queued. Queued ones run on the restarted worker; held ones stay with
Redis until its visibility timeout, so beat's clock tick (``clock_tick``, which
enqueues again computer turns that waited 10 s) makes those moves, and when
Redis finally redelivers the old messages they find the version moved on and do
nothing.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import redis
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Match, Move, Seat
from ginsite.celery import app
from tests.factories import create_match, create_user
from tests.games.helpers import current_state, states_by_version
from tests.workers import CeleryWorker, _Process

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

HELD = 6  # computer turns the worker has taken when it is killed
HELD_COUNTDOWN = 12.0  # seconds before those turns are due
QUEUED = 4  # computer turns enqueued while it is down


def computer_to_move(name: str) -> tuple[Match, int]:
    """A computer match waiting for the computer's move; returns it and that version."""
    user = create_user(name)
    match = create_match(user, "easy", variant="time_freedom")
    human = Seat.objects.get(match=match, user=user).index
    if match.current_seat == human:
        services.move_submit(
            match=match, user=user, action={"type": "pass"}, expected_version=match.version
        )
        match.refresh_from_db()
    assert match.current_seat == 1 - human
    return match, match.version


def restart_without_purge(worker: CeleryWorker) -> None:
    """Start the worker again on the same broker, keeping what waits there."""
    _Process.start(worker)
    deadline = time.monotonic() + 30
    while not app.control.ping(timeout=0.5):
        assert worker.alive() and time.monotonic() < deadline, worker.log()


def wait_until(condition, timeout: float, what: str, explain=None) -> None:
    """Wait for ``condition``; past ``timeout`` fail naming ``what`` and what
    ``explain()`` (if given) says of the moment."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out waiting for {what}"
                                 + (f"\n{explain()}" if explain else ""))
        time.sleep(0.1)


def humans_to_move(pending: dict[int, int]) -> bool:
    rows = Match.objects.filter(pk__in=pending).values_list("pk", "version", "current_seat")
    return all(
        version > pending[pk] and not Seat.objects.get(match_id=pk, index=seat).bot_level
        for pk, version, seat in rows
    )


def test_kill_9_of_the_worker_with_computer_moves_queued(
    live_celery_worker, settings
):
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    # The countdown of the tasks enqueued here: long enough that the worker holds all of
    # them (taken, not yet due) however slowly a loaded machine makes the matches.
    settings.BOT_THINK_SECONDS = HELD_COUNTDOWN
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("unacked", "unacked_index")
    held: dict[int, int] = {}
    for index in range(HELD):
        match, version = computer_to_move(f"held{index}")
        held[match.pk] = version
    wait_until(lambda: broker.hlen("unacked") >= HELD, 60, "the worker to take the tasks")
    live_celery_worker.kill()
    assert dict(Match.objects.filter(pk__in=held).values_list("pk", "version")) == held, (
        f"the worker played a turn before it was killed: the matches took over "
        f"{HELD_COUNTDOWN} s to make")
    settings.BOT_THINK_SECONDS = 1.5
    held_tags = broker.hkeys("unacked")
    assert len(held_tags) >= HELD
    queued: dict[int, int] = {}
    for index in range(QUEUED):
        match, version = computer_to_move(f"queued{index}")
        queued[match.pk] = version
    pending = {**held, **queued}
    assert all(
        Match.objects.get(pk=pk).version == version for pk, version in pending.items()
    ), "nothing moved while the worker was down"

    restart_without_purge(live_celery_worker)
    wait_until(lambda: humans_to_move(queued), 60, "the queued computer turns")
    # The tasks the dead worker held are not redelivered yet (visibility timeout).
    assert dict(Match.objects.filter(pk__in=held).values_list("pk", "version")) == held
    # Beat's clock tick, as it runs 10 s later: computer turns waiting that long are lost.
    services.clock_tick(now=timezone.now() + timedelta(seconds=10))
    wait_until(lambda: humans_to_move(pending), 60, "the held computer turns")
    settled = dict(Match.objects.filter(pk__in=pending).values_list("pk", "version"))

    # Redis redelivers what the dead worker held (here at once, not after an hour).
    with app.connection_for_write() as connection:
        qos = connection.default_channel.qos
        for tag in held_tags:
            qos.restore_by_tag(tag)
    wait_until(
        lambda: broker.llen("celery") == 0 and broker.hlen("unacked") == 0,
        HELD_COUNTDOWN + 30, "the redelivered tasks to run (due 12 s after they were made)",
    )
    time.sleep(0.5)
    assert dict(Match.objects.filter(pk__in=pending).values_list("pk", "version")) == settled

    for match_id, version in pending.items():
        match = Match.objects.get(pk=match_id)
        bot = Seat.objects.get(match=match, bot_level="easy").index
        moves = list(Move.objects.filter(match=match).order_by("seq"))
        assert [m.seq for m in moves] == list(range(2, match.version + 1))
        assert moves[version - 1].seq == version + 1 and moves[version - 1].seat == bot
        assert match.current_seat == 1 - bot  # the computer's turn was played, once
        assert current_state(match).current_player == 1 - bot
        states_by_version(match)  # the log replays


def worker_backends() -> list[tuple[int, object]]:
    """(pid, backend start) of the PostgreSQL backends the Celery worker holds open."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = 'gin-worker'"
        )
        return sorted(cursor.fetchall())


def test_the_worker_keeps_its_database_connection_from_task_to_task(
    live_celery_worker
):
    """Celery closes the database connection around every task unless told otherwise:
    a new PostgreSQL backend for each computer move and each one-second clock tick."""
    match, version = computer_to_move("steady")
    human = 1 - match.current_seat
    held = None
    for turn in range(3):
        wait_until(
            lambda version=version: Match.objects.filter(
                pk=match.pk, version__gt=version, current_seat=human
            ).exists(),
            20,
            f"the computer's move {turn + 1}",
        )
        if held is None:
            held = worker_backends()
            assert len(held) == 1, f"the worker holds {held} after its first task"
        assert worker_backends() == held, "the worker connected again for a later task"
        match.refresh_from_db()
        while match.current_seat == human:
            services.move_submit(
                match=match, user=match.seats.get(index=human).user,
                action=current_state(match).legal_actions()[0], expected_version=match.version,
            )
            match.refresh_from_db()
        version = match.version
