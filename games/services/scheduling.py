"""When the computer moves and when the turn clock is checked.

With a broker (``REDIS_URL`` set) these are Celery tasks with a countdown, run by
``celery worker``; ``celery beat`` runs ``clock_sweep`` as a safety net for tasks
that were lost or are too far away to hold in a worker (24 hours).

In the embedded mode (no broker: ``CELERY_TASK_ALWAYS_EAGER``, which would run a
task at once and ignore its countdown) the same service calls run later on daemon
timer threads of the server process, and a sweep thread plays the part of beat
(started by the first timer or the first player's socket).
Every call is checked against the match version when it runs, so a duplicate or
late call changes nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils import timezone

logger = logging.getLogger(__name__)

# Clock checks further away than this are left to the periodic sweep: a Redis
# broker redelivers unacknowledged countdown tasks after its visibility timeout.
MAX_COUNTDOWN_SECONDS = 600
# A countdown lands this much after the deadline, never before it.
CLOCK_SLACK_SECONDS = 0.05
SWEEP_INTERVAL_SECONDS = 30
# Whether the embedded mode runs the sweep thread (tests of that mode turn it off).
EMBEDDED_SWEEP = True


def bot_turn(*, match_id: int, version: int, delay: float | None = None) -> None:
    """Let the computer play its action for ``version`` after a human-like pause."""
    think = settings.BOT_THINK_SECONDS if delay is None else delay
    _run_later("bot_turn_play", {"match_id": match_id, "expected_version": version}, think)


def clock_check(*, match_id: int, version: int, at: datetime) -> None:
    """Check the clock of ``version`` at ``at`` (deadline or disconnection limit)."""
    delay = (at - timezone.now()).total_seconds() + CLOCK_SLACK_SECONDS
    if delay > MAX_COUNTDOWN_SECONDS:
        return
    _run_later("clock_expire", {"match_id": match_id, "expected_version": version}, delay)


def _run_later(name: str, kwargs: dict[str, Any], delay: float) -> None:
    delay = max(0.0, delay)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        if EMBEDDED_SWEEP:
            _ensure_sweeper()
        timer = threading.Timer(delay, _run_timer, args=(name, kwargs))
        timer.daemon = True
        with _timers_lock:
            _timers.add(timer)
        timer.start()
        return
    from games import tasks

    getattr(tasks, name).apply_async(kwargs=kwargs, countdown=delay)


_timers_lock = threading.Lock()
_timers: set[threading.Thread] = set()


def _run_timer(name: str, kwargs: dict[str, Any]) -> None:
    with _timers_lock:
        _timers.discard(threading.current_thread())
    _run_service(name, kwargs)


def cancel_embedded_timers() -> None:
    """Forget every pending embedded timer (tests of the embedded mode call this)."""
    with _timers_lock:
        for timer in _timers:
            if isinstance(timer, threading.Timer):
                timer.cancel()
        _timers.clear()


def _run_service(name: str, kwargs: dict[str, Any]) -> None:
    from games import services

    try:
        getattr(services, name)(**kwargs)
    except Exception:
        logger.exception("embedded %s(%s) failed", name, kwargs)
    finally:
        connections.close_all()


_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def embedded_sweep_start() -> None:
    """In the embedded mode, make sure the sweep thread runs (a player's socket
    connecting calls this: the sweep also expires the sockets that an earlier run
    of the process left registered when it died)."""
    if settings.CELERY_TASK_ALWAYS_EAGER and EMBEDDED_SWEEP:
        _ensure_sweeper()


def _ensure_sweeper() -> None:
    global _sweeper
    with _sweeper_lock:
        if _sweeper is None or not _sweeper.is_alive():
            _sweeper = threading.Thread(target=_sweep_forever, name="games-sweep", daemon=True)
            _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_INTERVAL_SECONDS)
        _run_service("clock_sweep", {})
