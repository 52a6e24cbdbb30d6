"""The Celery worker killed with SIGKILL while it pairs a tournament: the task is run
again (Redis redelivers what the dead worker held: ``acks_late``), along with
duplicates and beat's tick, and still no player is paired twice and no round is
started twice.

The worker is killed at the two moments that matter (the Swiss round start at both,
the arena pass at the second), each made certain by holding a lock from the test:

1. in the middle of the pairing transaction (rows written, not committed): the test
   holds one entrant's row, so the worker waits inside its transaction once it has
   written the round, the matches and their seats and hands; the kill rolls all of it
   back;
2. after that transaction committed but before the task was acknowledged: the test
   queues for the tournament table behind the worker, so once the worker commits, its
   after-commit standings publish waits for the test; the redelivered task then finds
   the work done. A table lock, not the tournament's row: PostgreSQL grants a queued
   table lock as the holder commits, while a row lock queued behind a transaction is
   only marked on the row once the waiter runs again, and a busy machine can let the
   worker's next UPDATE of the row in first (seen once in a full run).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
import redis
from django.db.models import F
from django.utils import timezone

from games.services import match_resign
from games.tournaments import services, tasks
from games.tournaments.models import Entrant, Pairing, Round, Tournament
from ginsite.celery import app
from tests.factories import create_tournament, create_users
from tests.reliability.test_celery_worker import restart_without_purge, wait_until
from tests.workers import CeleryWorker, database_url_for_tests

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def _resign(pairings: list[Pairing]) -> None:
    for pairing in pairings:
        match_resign(match=pairing.match, user=pairing.seat1.user)


def _open(t: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=t, finished=False, match__isnull=False)
                .select_related("match", "seat1__user"))


def _waiting_backend(query_start: str) -> int | None:
    """The pid of another connection to the test database waiting for a lock in a
    statement that starts with ``query_start``."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            " AND query LIKE %s", [query_start + "%"])
        row = cursor.fetchone()
    return row[0] if row else None


def _activity(worker: CeleryWorker) -> str:
    """What the test database's other connections are doing, and the worker's log."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state, wait_event_type, wait_event, left(query, 120)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()")
        rows = cursor.fetchall()
    return ("--- the test database's other connections ---\n"
            + "\n".join(" | ".join(str(v) for v in row) for row in rows)
            + f"\n--- the worker's log ---\n{worker.log()}")


def _backend_gone(pid: int) -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 0


class HeldLock:
    """A row or table lock (``FOR UPDATE``, ``LOCK TABLE``) held from a connection of
    our own (taken in a thread: the statement may itself wait) until ``release``."""

    def __init__(self, sql: str, params: list) -> None:
        self.conn = psycopg.connect(database_url_for_tests(), autocommit=False)
        self.taken = threading.Event()
        self.thread = threading.Thread(target=self._take, args=(sql, params), daemon=True)
        self.thread.start()

    def _take(self, sql: str, params: list) -> None:
        self.conn.execute(sql, params)
        self.taken.set()

    def release(self) -> None:
        if self.conn.closed:
            return
        self.thread.join(30)
        self.conn.rollback()
        self.conn.close()


@contextmanager
def _locked(sql: str, params: list) -> Iterator[HeldLock]:
    lock = HeldLock(sql, params)
    try:
        yield lock
    finally:
        lock.release()


def _held_tags(broker: redis.Redis, count: int) -> list[bytes]:
    wait_until(lambda: broker.hlen("unacked") >= count, 10, "the worker to hold the task")
    return broker.hkeys("unacked")


def _redeliver(tags: list[bytes]) -> None:
    """What Redis does with a dead worker's messages after the visibility timeout."""
    with app.connection_for_write() as connection:
        qos = connection.default_channel.qos
        for tag in tags:
            qos.restore_by_tag(tag)


def _kill_then_redeliver(worker: CeleryWorker, t: Tournament, entrant: Entrant, settings,
                         *, inside: bool) -> None:
    """Enqueue the task that pairs ``t`` next (``entrant`` is among those it pairs);
    kill the worker inside its transaction (if ``inside``), then after its commit; then
    let it run again with two duplicates and a tick, and wait until the broker is empty."""
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("unacked", "unacked_index")
    log_from = worker.log_path.stat().st_size
    entrant_sql = "SELECT id FROM tournaments_entrant WHERE id = %s FOR UPDATE"
    # EXCLUSIVE: reads go on; the publish's UPDATE (ROW EXCLUSIVE) waits.
    table_sql = "LOCK TABLE tournaments_tournament IN EXCLUSIVE MODE"
    before = (Round.objects.filter(tournament=t).count(),
              Pairing.objects.filter(tournament=t).count())
    held: list[bytes] = []

    # 1. Killed inside the pairing transaction.
    if inside:
        with _locked(entrant_sql, [entrant.pk]) as lock:
            assert lock.taken.wait(10)
            tasks.progress.delay(t.pk)
            wait_until(_pairing_waits, 20, "the worker to wait inside its transaction")
            orphan = _pairing_waits()
            held = _held_tags(broker, 1)
            worker.kill()
        wait_until(lambda: _backend_gone(orphan), 20, "the dead worker's transaction to end")
        assert (Round.objects.filter(tournament=t).count(),
                Pairing.objects.filter(tournament=t).count()) == before, "nothing half-done"
        restart_without_purge(worker)

    # 2. Killed after the commit, before the acknowledgement.
    with _locked(entrant_sql, [entrant.pk]) as entrant_lock:
        assert entrant_lock.taken.wait(10)
        if held:
            _redeliver(held)
        else:
            tasks.progress.delay(t.pk)
        wait_until(_pairing_waits, 20, "the task to wait inside its transaction")
        with _locked(table_sql, []) as table_lock:
            wait_until(lambda: _waiting_backend("LOCK TABLE tournaments_tournament"),
                       10, "our lock request to queue behind the worker")
            # The worker's transaction commits and our table lock is granted then, so
            # its after-commit work waits for us: the standings publish (an UPDATE of
            # the tournament), or any statement before it that locks a row of it for
            # a key (an insert whose foreign key names the tournament).
            entrant_lock.release()
            assert table_lock.taken.wait(20)
            wait_until(lambda: _waiting_backend(""), 60,
                       "the worker's after-commit work to wait for the tournament table",
                       lambda: _activity(worker))
            assert Pairing.objects.filter(tournament=t).count() > before[1], "committed"
            held = _held_tags(broker, 1)
            worker.kill()

    # 3. The held message comes back, with two duplicates and beat's tick.
    restart_without_purge(worker)
    _redeliver(held)
    tasks.progress.delay(t.pk)
    tasks.progress.delay(t.pk)
    tasks.tick.delay()
    wait_until(lambda: broker.llen("celery") == 0 and broker.hlen("unacked") == 0, 30,
               "the redelivered and duplicate tasks to run")
    wait_until(lambda: Tournament.objects.filter(
        pk=t.pk, published_version=F("standings_version")).exists(), 10,
        "the standings to be published")
    with open(worker.log_path, errors="replace") as log:
        log.seek(log_from)
        failures = [line for line in log if "ERROR" in line or "Traceback" in line]
    assert failures == [], "every run of the task finds its way, none fails"


def _pairing_waits() -> int | None:
    """The worker's connection, waiting for our entrant lock inside its pairing
    transaction (the pairings' insert checks the entrant: a key-share lock)."""
    return (_waiting_backend('INSERT INTO "tournaments_pairing"')
            or _waiting_backend('UPDATE "tournaments_entrant"'))


def test_kill_9_while_starting_a_swiss_round_starts_it_once(
    live_celery_worker, settings, monkeypatch
):
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    monkeypatch.setattr(tasks, "ENQUEUE_PROGRESS", False)  # the test enqueues itself
    t = create_tournament("swiss", create_users(8, "sw"), name="Fault swiss", rounds=3, start=True)
    round1 = _open(t)
    _resign(round1)
    entrant = Entrant.objects.filter(tournament=t).first()

    _kill_then_redeliver(live_celery_worker, t, entrant, settings, inside=True)

    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1, 2]
    round2 = list(Pairing.objects.filter(tournament=t, round=2))
    seats = [s for p in round2 for s in (p.seat0_id, p.seat1_id)]
    assert len(round2) == 4 and sorted(seats) == sorted(
        Entrant.objects.filter(tournament=t).values_list("pk", flat=True))
    met = {frozenset((p.seat0_id, p.seat1_id)) for p in round1}
    assert not met & {frozenset(seats[i:i + 2]) for i in range(0, 8, 2)}
    assert Tournament.objects.get(pk=t.pk).current_round == 2
    assert len({p.match_id for p in round2}) == 4


def test_kill_9_while_pairing_an_arena_pairs_each_player_once(
    live_celery_worker, settings, monkeypatch
):
    monkeypatch.setattr(tasks, "ENQUEUE_PROGRESS", False)
    t = create_tournament(
        "arena", create_users(6, "ar"), name="Fault arena", duration_minutes=30, start=True
    )
    first = _open(t)
    assert len(first) == 3
    _resign(first[:2])  # four players back in the pool
    pool = list(Entrant.objects.filter(tournament=t, waiting_since__isnull=False))
    assert len(pool) == 4

    _kill_then_redeliver(live_celery_worker, t, pool[0], settings, inside=False)

    open_ = _open(t)
    seats = [s for p in open_ for s in (p.seat0_id, p.seat1_id)]
    assert len(open_) == 3 and len(set(seats)) == 6, "each player in one match at a time"
    assert Pairing.objects.filter(tournament=t).count() == 5
    assert not Entrant.objects.filter(tournament=t, waiting_since__isnull=False).exists()


def test_a_big_arena_starts_in_slices_and_the_worker_pairs_everyone(
    live_celery_worker
):
    """An arena of 61 starts: the start pairs the top of the pool (one short
    transaction), and the worker's follow-up passes pair everyone else at once, without
    waiting for beat (which does not run here). One player is left waiting (odd)."""
    players = 2 * services.ARENA_PASS_PAIRS + 11
    t = create_tournament("arena", create_users(players, "big"), name="Big arena",
                          max_players=players, duration_minutes=30)
    start = timezone.now()
    assert services.tournament_start(tournament_id=t.pk, now=start) is True
    # The start's own pairings carry its time; the worker's passes come later.
    assert Pairing.objects.filter(tournament=t, created_at=start).count() == (
        services.ARENA_PASS_PAIRS)
    wait_until(lambda: len(_open(t)) == players // 2, 60, "every player paired")
    seats = [s for p in _open(t) for s in (p.seat0_id, p.seat1_id)]
    assert len(set(seats)) == len(seats) == players - 1
    assert Entrant.objects.filter(tournament=t, waiting_since__isnull=False).count() == 1
