"""When the computer moves; the embedded mode's periodic jobs.

The computer's move: with a broker (``REDIS_URL`` set) a Celery task with a
countdown (the human-like pause), run by ``celery worker``. The turn clock needs no
task per move: each match row carries ``clock_due_at`` and ``clock_tick`` (beat,
every second) checks the matches that are due; ``clock_sweep`` (every 30 s) is the
safety net behind it.

In the embedded mode (no broker: ``CELERY_TASK_ALWAYS_EAGER``, which would run a
task at once and ignore its countdown) the computer's moves run later on daemon
timer threads of the server process, and the embedded scheduler
(ginsite/embedded_beat.py) plays the part of beat.
Every call is checked against the match version when it runs, so a duplicate or
late call changes nothing.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

# Whether a player's socket may start the embedded scheduler (tests of that mode turn
# it off).
EMBEDDED_SWEEP = True


def bot_turn(*, match_id: int, version: int, delay: float | None = None) -> None:
    """Let the computer play its action for ``version`` after a human-like pause."""
    think = settings.BOT_THINK_SECONDS if delay is None else delay
    _run_later("bot_turn_play", {"match_id": match_id, "expected_version": version}, think)


def _run_later(name: str, kwargs: dict[str, Any], delay: float) -> None:
    delay = max(0.0, delay)
    if settings.CELERY_TASK_ALWAYS_EAGER:
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


def embedded_sweep_start() -> None:
    """In the embedded mode, make sure the periodic jobs run (a player's socket
    connecting calls this: the clock sweep also expires the sockets that an earlier
    run of the process left registered when it died). The site starts them already;
    this is a no-op then."""
    if settings.CELERY_TASK_ALWAYS_EAGER and EMBEDDED_SWEEP:
        from ginsite import embedded_beat

        embedded_beat.start()
