"""Factories for the leaderboard tests (players and finished matches written straight
to the match tables, the shape the games services leave behind) and a real Celery
worker process."""

import os
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime

import pytest
from django.conf import settings

from accounts.models import User
from games.models import Match, Seat


def make_player(username: str, *, guest: bool = False, active: bool = True) -> User:
    # An unusable password: hashing a real one costs ~0.3 s here; pages use force_login.
    return User.objects.create(username=username, password="!", is_guest=guest, is_active=active)


def finish_match(
    players: tuple[User | None, User | None],
    *,
    finished_at: datetime,
    winner: int | None = 0,
    scores: tuple[int, int] = (150, 40),
    hands_won: tuple[int, int] = (3, 1),
    gins: tuple[int, int] = (1, 0),
    big_gins: tuple[int, int] = (0, 0),
    rated: bool = True,
    bot_level: str = "",
) -> Match:
    """A finished match between ``players`` (None is the computer at ``bot_level``)."""
    match = Match.objects.create(
        kind=Match.Kind.COMPUTER if bot_level else Match.Kind.QUICK,
        rules={},
        status=Match.Status.FINISHED,
        rated=rated,
        winner_seat=winner,
        end_reason=Match.EndReason.TARGET,
        started_at=finished_at,
        finished_at=finished_at,
    )
    for index, user in enumerate(players):
        Seat.objects.create(
            match=match,
            index=index,
            user=user,
            bot_level="" if user is not None else bot_level,
            score=scores[index],
            hands_won=hands_won[index],
            gins=gins[index],
            big_gins=big_gins[index],
        )
    return match


@pytest.fixture
def player(db) -> Callable[..., User]:
    return make_player


@pytest.fixture
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path):
    """A real ``celery -A ginsite worker -P solo`` on the test database and this run's
    Redis (STACK-NOTES pitfall 6): started after the test database exists, stopped
    before it is dropped. Yields the worker's log file."""
    from django.db import connection

    from ginsite.celery import app as celery_app

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
    }
    celery_app.control.purge()  # messages left by earlier runs are not this test's
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "ginsite",
                "worker",
                "-P",
                "solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "info",
            ],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while b" ready." not in log.read_bytes():
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Celery worker did not start:\n" + log.read_text())
            time.sleep(0.2)
        yield log
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def wait_for(condition: Callable[[], bool], *, log, seconds: float = 30) -> None:
    """Poll ``condition`` (reading the database) until true; fail with the worker log."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("the worker did not do it in time; its log:\n" + log.read_text())
        time.sleep(0.2)
