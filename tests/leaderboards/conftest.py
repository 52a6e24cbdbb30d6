"""A poll helper for the leaderboard tests that use the real Celery worker of
tests/workers.py (their players and finished matches come from tests/factories.py)."""

import time
from collections.abc import Callable

import pytest


def wait_for(condition: Callable[[], bool], *, worker, seconds: float = 30) -> None:
    """Poll ``condition`` (reading the database) until true; fail with the log of
    ``worker`` (tests/workers.py's live_celery_worker)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("the worker did not do it in time; its log:\n" + worker.log())
        time.sleep(0.2)
