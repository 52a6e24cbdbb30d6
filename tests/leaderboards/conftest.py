"""Factories for the leaderboard tests: players and finished matches written straight
to the match tables (the shape the games services leave behind); a poll helper for
the tests that use the real Celery worker of tests/workers.py."""

import time
from collections.abc import Callable
from datetime import datetime

import pytest

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


def wait_for(condition: Callable[[], bool], *, worker, seconds: float = 30) -> None:
    """Poll ``condition`` (reading the database) until true; fail with the log of
    ``worker`` (tests/workers.py's live_celery_worker)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("the worker did not do it in time; its log:\n" + worker.log())
        time.sleep(0.2)
