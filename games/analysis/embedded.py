"""The embedded mode's analysis worker: one daemon thread of the server process.

Without a broker (``CELERY_TASK_ALWAYS_EAGER``) a Celery task would run inside the
request or the computer's move that finished the hand; instead the hand id is
queued here and analysed by this thread, one hand at a time, so a live move never
waits for it (the thread gives up the interpreter lock like any other). Every
``SWEEP_SECONDS`` without work it runs the sweep (hands whose analysis was lost
with an earlier run of the process). Work queued when the process stops is lost
and picked up by the sweep of the next run.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from django.db import connections

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0

_queue: queue.Queue[int] = queue.Queue()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def submit(hand_id: int) -> None:
    """Queue a hand for analysis (returns at once)."""
    _queue.put(hand_id)
    _ensure_thread()


def pending() -> int:
    """Hands queued and not yet taken by the thread."""
    return _queue.qsize()


def _ensure_thread() -> None:
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_work, name="analysis", daemon=True)
            _thread.start()


def _work() -> None:
    from . import services

    while True:
        try:
            hand_id = _queue.get(timeout=SWEEP_SECONDS)
        except queue.Empty:
            _run(services.analysis_sweep)
            continue
        _run(services.hand_analyse, hand_id=hand_id)


def _run(function: Callable[..., object], **kwargs: int) -> None:
    try:
        function(**kwargs)
    except Exception:
        logger.exception("embedded analysis %s(%s) failed", function.__name__, kwargs)
    finally:
        connections.close_all()
