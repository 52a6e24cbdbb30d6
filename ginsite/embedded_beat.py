"""The embedded mode's stand-in for ``celery beat``: every periodic job, in-process.

In production ``celery beat`` sends the entries of ``settings.CELERY_BEAT_SCHEDULE``
(board refreshes, computer boards, rating catch-up, presence and clock sweeps, stuck
computer turns, invite expiry: whatever the schedule lists) to the workers. The
embedded mode (the README's run command: no Redis, no worker, no beat) runs the same
entries here, on one daemon thread of the site's process, started once with the site
(``ginsite/asgi.py``) when ``settings.EMBEDDED_SCHEDULER`` is on (embedded defaults
only: never with ``REDIS_URL``, where beat runs).

The schedule is read again on every tick, so an entry added to
``CELERY_BEAT_SCHEDULE`` later runs without any change here. Every entry runs once
when the scheduler starts (the process may have been down past a period), then every
period. An entry's ``schedule`` is a number of seconds or a ``timedelta`` (measured
with the ``now`` given to ``tick``), or any Celery schedule object (``crontab``...),
asked through its own ``is_due``. Jobs run one after another on the scheduler's
thread, each as the eager Celery task (``task.apply``), so a job takes the same code
path as under a worker; a failing job is logged and the others go on.

As production gives the analysis queue its own worker, a job that
``settings.CELERY_TASK_ROUTES`` sends to another queue (the analysis sweep, puzzle
generation) runs on that queue's own thread here, one at a time, never started again
while its last run works: the clock tick does not wait behind it.
"""

from __future__ import annotations

import importlib
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from fnmatch import fnmatch
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.utils import timezone

logger = logging.getLogger(__name__)

# The longest the thread sleeps between two looks at the schedule: an entry added
# later, or one with a Celery schedule object, is seen within this time.
MAX_SLEEP_SECONDS = 5.0

Runner = Callable[[str, tuple, dict], None]


def _import_tasks_modules() -> None:
    """Import each app's ``tasks`` module, which registers its tasks (what Celery's
    autodiscovery finds). Not ``app.loader.import_default_modules()``: with Django, that
    runs ``django.setup()`` again, whose logging configuration undoes the levels a
    command set for its run (a simulator's quiet)."""
    for config in apps.get_app_configs():
        module = f"{config.name}.tasks"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


def run_task(name: str, args: tuple, kwargs: dict) -> None:
    """Run the registered Celery task ``name`` in this thread, as a worker would."""
    from ginsite.celery import app

    if name not in app.tasks:
        _import_tasks_modules()
    result = app.tasks[name].apply(args=args, kwargs=kwargs, throw=False)
    if result.failed():
        logger.error("embedded beat: %s failed: %r\n%s", name, result.result, result.traceback)


class _Lane:
    """One queue's worker: runs the jobs it is given one at a time, on its own daemon
    thread."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]] = (
            queue.SimpleQueue())
        threading.Thread(target=self._work, name=f"embedded-{name}", daemon=True).start()

    def submit(self, job: Callable[[], None]) -> threading.Event:
        """Queue ``job``; the event is set once it has run."""
        done = threading.Event()
        self._jobs.put((job, done))
        return done

    def _work(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                job()
            finally:
                done.set()


class EmbeddedBeat:
    """Decides which entries of a beat schedule are due and runs them.

    ``tick(now)`` runs the due entries and returns how many seconds until the next
    one is due; the thread calls it in a loop, tests call it with the ``now`` they
    choose (no sleeping).
    """

    def __init__(
        self,
        schedule: Callable[[], Mapping[str, Mapping[str, Any]]] | None = None,
        run: Runner = run_task,
    ) -> None:
        self._schedule = schedule or (lambda: settings.CELERY_BEAT_SCHEDULE)
        self._run = run
        self.last_run: dict[str, datetime] = {}
        self._lanes: dict[str, _Lane] = {}
        self._working: dict[str, threading.Event] = {}  # entry: its run on a lane

    def tick(self, now: datetime) -> float:
        """Run every entry due at ``now``; seconds until the next one is due."""
        wait = MAX_SLEEP_SECONDS
        for name, entry in list(self._schedule().items()):
            due, next_in = self._due(name, entry, now)
            if due:
                self.last_run[name] = now
                self._start(name, entry)
            wait = min(wait, next_in)
        return max(wait, 0.0)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until the jobs running on other queues' threads are done (at most
        ``timeout`` seconds each); True if they all are."""
        return all(done.wait(timeout) for done in list(self._working.values()))

    def _start(self, name: str, entry: Mapping[str, Any]) -> None:
        queue_name = _queue_of(entry["task"])
        if queue_name is None:
            self._run_entry(name, entry)
            return
        working = self._working.get(name)
        if working is not None and not working.is_set():
            return  # its last run still works: as a busy worker, it is not doubled
        lane = self._lanes.get(queue_name)
        if lane is None:
            lane = self._lanes[queue_name] = _Lane(queue_name)
        self._working[name] = lane.submit(lambda: self._run_entry(name, entry))

    def _due(self, name: str, entry: Mapping[str, Any], now: datetime) -> tuple[bool, float]:
        last = self.last_run.get(name)
        period = entry["schedule"]
        if isinstance(period, int | float):
            period = timedelta(seconds=period)
        if isinstance(period, timedelta):
            seconds = period.total_seconds()
            if last is None or (now - last).total_seconds() >= seconds:
                return True, seconds
            return False, seconds - (now - last).total_seconds()
        if last is None:
            return True, MAX_SLEEP_SECONDS
        due, next_in = period.is_due(last)
        return bool(due), float(next_in)

    def _run_entry(self, name: str, entry: Mapping[str, Any]) -> None:
        try:
            self._run(entry["task"], tuple(entry.get("args", ())), dict(entry.get("kwargs", {})))
        except Exception:
            logger.exception("embedded beat: entry %s failed", name)
        finally:
            connections.close_all()


def _queue_of(task: str) -> str | None:
    """The queue ``settings.CELERY_TASK_ROUTES`` sends ``task`` to (its patterns as
    Celery reads them); None for the default queue."""
    for pattern, route in getattr(settings, "CELERY_TASK_ROUTES", {}).items():
        if fnmatch(task, pattern):
            return route.get("queue")
    return None


_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()


def start() -> bool:
    """Start the scheduler thread once per process, in the embedded mode only;
    True if it runs (now or already)."""
    global _thread
    if not getattr(settings, "EMBEDDED_SCHEDULER", False):
        return False
    global _stop
    with _lock:
        if _thread is None or not _thread.is_alive():
            _stop = threading.Event()
            _thread = threading.Thread(target=_loop, args=(_stop,), name="embedded-beat",
                                       daemon=True)
            _thread.start()
    return True


def stop() -> None:
    """Stop the scheduler thread (tests of the embedded mode call this at their end)."""
    global _thread
    with _lock:
        if _thread is not None:
            _stop.set()
            _thread.join(timeout=30)
            _thread = None


def _loop(stop: threading.Event) -> None:
    beat = EmbeddedBeat()
    logger.info("embedded beat: running %s", ", ".join(settings.CELERY_BEAT_SCHEDULE))
    while not stop.is_set():
        wait = beat.tick(timezone.now())
        stop.wait(wait)
    beat.settle(30)  # what the other queues' threads are doing ends before stop() returns
