"""The two things the embedded mode does differently from production, each behind
one adapter, chosen once from the settings (at the first use after start-up, and
again only when a test changes those settings):

- the scheduler runs a Celery task later: ``CeleryScheduler`` sends it to the broker
  with a countdown (a ``celery worker`` runs it; ``celery beat`` runs the periodic
  jobs); ``TimerScheduler`` (no broker: ``CELERY_TASK_ALWAYS_EAGER``) runs it on a
  daemon timer thread of the server process, and its ``start_periodic`` starts the
  embedded beat (ginsite/embedded_beat.py).
- the publisher sends events to channel-layer groups from any thread:
  ``LayerPublisher`` (Redis) straight away; ``InMemoryPublisher`` (the in-memory layer,
  whose queues belong to the server's event loop) hands them to the loop the
  consumers bound with ``bind``.

Nothing else in the site asks which mode it runs in.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Protocol

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections

logger = logging.getLogger(__name__)

Sends = list[tuple[str, dict[str, Any]]]


class Scheduler(Protocol):
    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        """Run the registered Celery task ``task`` with ``kwargs`` in ``delay`` seconds."""

    def start_periodic(self) -> None:
        """Make sure the periodic jobs (the beat schedule) run."""


class Publisher(Protocol):
    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop (a consumer calls this on connect)."""

    def send(self, sends: Sends) -> None:
        """Send each ``(group, event)`` in order."""


class CeleryScheduler:
    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        from ginsite.celery import app

        app.send_task(task, kwargs=kwargs, countdown=max(0.0, delay))

    def start_periodic(self) -> None:
        """``celery beat`` runs them."""


class TimerScheduler:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._timers: set[threading.Timer] = set()

    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        timer = threading.Timer(max(0.0, delay), self._run, args=(task, kwargs))
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _run(self, task: str, kwargs: dict[str, Any]) -> None:
        from ginsite import embedded_beat

        with self._lock:
            self._timers.discard(threading.current_thread())
        try:
            embedded_beat.run_task(task, (), kwargs)
        finally:
            connections.close_all()

    def cancel_all(self) -> None:
        """Forget every pending timer (tests of the embedded mode call this)."""
        with self._lock:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()

    def start_periodic(self) -> None:
        from ginsite import embedded_beat

        embedded_beat.start()


class LayerPublisher:
    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """A layer over the network works from any thread or loop."""

    def send(self, sends: Sends) -> None:
        async_to_sync(_send_all)(sends)


class InMemoryPublisher:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def send(self, sends: Sends) -> None:
        loop = self._loop
        if loop is None or not loop.is_running():
            return  # no socket has connected to this process: nobody to tell
        asyncio.run_coroutine_threadsafe(_send_all(sends), loop).result(timeout=5)


async def _send_all(sends: Sends) -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    for group, event in sends:
        await layer.group_send(group, event)


_chosen: tuple[Scheduler, Publisher] | None = None
_choose_lock = threading.Lock()
_SETTINGS = {"CELERY_TASK_ALWAYS_EAGER", "CHANNEL_LAYERS"}


def _adapters() -> tuple[Scheduler, Publisher]:
    global _chosen
    with _choose_lock:
        if _chosen is None:
            embedded = settings.CELERY_TASK_ALWAYS_EAGER
            backend = str(settings.CHANNEL_LAYERS["default"]["BACKEND"])
            in_memory = backend.endswith("InMemoryChannelLayer")
            _chosen = (
                TimerScheduler() if embedded else CeleryScheduler(),
                InMemoryPublisher() if in_memory else LayerPublisher(),
            )
        return _chosen


def scheduler() -> Scheduler:
    return _adapters()[0]


def publisher() -> Publisher:
    return _adapters()[1]


def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    global _chosen
    if setting in _SETTINGS:
        old = _chosen
        with _choose_lock:
            _chosen = None
        if old is not None and isinstance(old[0], TimerScheduler):
            old[0].cancel_all()


setting_changed.connect(_settings_changed)
