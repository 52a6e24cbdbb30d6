"""The two things the embedded mode does differently from production, each behind
one adapter, chosen once from the settings (at the first use after start-up, and
again only when a test changes those settings):

- the scheduler runs a Celery task later, or in the background: ``CeleryScheduler``
  sends it to the broker, with a countdown, or to its queue (a ``celery worker`` runs
  it; ``celery beat`` runs the periodic jobs); ``TimerScheduler`` (no broker:
  ``CELERY_TASK_ALWAYS_EAGER``) runs it on a daemon timer thread of the server
  process, or on its one background thread, one task after another (so a live move
  never waits for an analysis), and its ``start_periodic`` starts the embedded beat
  (ginsite/embedded_beat.py). Work pending when the process stops is lost; the
  periodic sweeps pick it up.
- the publisher sends events to channel-layer groups from any thread:
  ``PubSubPublisher`` (channels-redis's pub/sub layer, the default) from the calling
  thread itself, one pipelined round trip to Redis per batch; ``LayerPublisher`` (any
  other layer over the network) on the server's loop or the process's own;
  ``InMemoryPublisher`` (the in-memory layer, whose queues belong to the server's
  event loop) hands them to that loop, which the layer itself tells it
  (``EmbeddedChannelLayer``: whatever joins a group, a WebSocket consumer or an HTTP
  stream of the bot API, does it on the server's loop), so nothing a client hears
  depends on another kind of client having connected first.

Nothing else in the site asks which mode it runs in.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from typing import Any, Protocol

from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.core.signals import setting_changed
from django.db import connections

logger = logging.getLogger(__name__)

Sends = list[tuple[str, dict[str, Any]]]
PUBLISH_TIMEOUT = 5.0  # seconds a thread waits for its events to reach the layer


class Scheduler(Protocol):
    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        """Run the registered Celery task ``task`` with ``kwargs`` in ``delay`` seconds."""

    def run_in_background(self, task: str, kwargs: dict[str, Any]) -> None:
        """Run ``task`` off the request path, on its own queue (CELERY_TASK_ROUTES)."""

    def start_periodic(self) -> None:
        """Make sure the periodic jobs (the beat schedule) run."""

    def wait_for_background(self) -> None:
        """Return once the background tasks this process queued have run (a command
        that runs the site's work in-process, such as a simulator, waits for them)."""


class Publisher(Protocol):
    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop (a consumer calls this on connect)."""

    def send(self, sends: Sends) -> None:
        """Send each ``(group, event)`` in order."""


class CeleryScheduler:
    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        from ginsite.celery import app

        app.send_task(task, kwargs=kwargs, countdown=max(0.0, delay))

    def run_in_background(self, task: str, kwargs: dict[str, Any]) -> None:
        from ginsite.celery import app

        app.send_task(task, kwargs=kwargs)

    def start_periodic(self) -> None:
        """``celery beat`` runs them."""

    def wait_for_background(self) -> None:
        """The workers run them, in their own processes."""


class TimerScheduler:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._timers: set[threading.Timer] = set()
        self._background: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self._worker: threading.Thread | None = None

    def run_later(self, task: str, kwargs: dict[str, Any], delay: float) -> None:
        timer = threading.Timer(max(0.0, delay), self._run, args=(task, kwargs))
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _run(self, task: str, kwargs: dict[str, Any]) -> None:
        with self._lock:
            self._timers.discard(threading.current_thread())
        _run_task(task, kwargs)

    def run_in_background(self, task: str, kwargs: dict[str, Any]) -> None:
        self._background.put((task, kwargs))
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(
                    target=self._work, name="background", daemon=True
                )
                self._worker.start()

    def pending(self) -> int:
        """Background tasks queued and not yet taken."""
        return self._background.qsize()

    def _work(self) -> None:
        while True:
            task, kwargs = self._background.get()
            try:
                _run_task(task, kwargs)
            finally:
                self._background.task_done()

    def wait_for_background(self) -> None:
        self._background.join()

    def cancel_all(self) -> None:
        """Forget every pending timer (tests of the embedded mode call this)."""
        with self._lock:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()

    def start_periodic(self) -> None:
        from ginsite import embedded_beat

        embedded_beat.start()


def _run_task(task: str, kwargs: dict[str, Any]) -> None:
    """Run the Celery task ``task`` in this thread, as a worker would (a failure is
    logged), then close this thread's database connection."""
    from ginsite import embedded_beat

    try:
        embedded_beat.run_task(task, (), kwargs)
    finally:
        connections.close_all()


class LayerPublisher:
    """A layer over the network works from any thread or loop. In an ASGI process whose
    sockets have connected, the trip is to the server's loop; anywhere else (a Celery
    worker playing the computer or expiring a clock, beat, a shell) it is to this
    process's publishing loop, started on first use, which lives as long as the process
    and so keeps its Redis connections (``async_to_sync`` would start a thread, an event
    loop and a new Redis connection for every move)."""

    def __init__(self) -> None:
        self._server_loop: asyncio.AbstractEventLoop | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._server_loop = loop

    def send(self, sends: Sends) -> None:
        loop = self._server_loop
        if loop is None or not loop.is_running():
            loop = self._publishing_loop()
        asyncio.run_coroutine_threadsafe(_send_all(sends), loop).result(timeout=PUBLISH_TIMEOUT)

    def _publishing_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._own_loop is None or not self._own_loop.is_running():
                loop = asyncio.new_event_loop()
                started = threading.Event()
                loop.call_soon(started.set)
                threading.Thread(
                    target=loop.run_forever, name="channel-publisher", daemon=True
                ).start()
                started.wait(timeout=PUBLISH_TIMEOUT)
                self._own_loop = loop
            return self._own_loop


class PubSubPublisher:
    """channels-redis's pub/sub layer, where a group send is one ``PUBLISH`` of the
    layer's serialized event on the group's Redis channel (``<prefix>__group__<group>``,
    on the shard that the layer's hash picks), which any thread can run. A move's
    database thread publishes its messages itself, all of a batch's for a shard in one
    round trip, over a synchronous client's pooled connection: no hop to an event
    loop and back, no task per group. Each batch's events reach each group in order.
    tests/reliability/test_channel_layer.py checks that what it sends reaches the
    layer's group members.

    The one place of the site that relies on internals of channels-redis and redis-py
    (tests/test_internals.py fails on an upgrade that changes them; both are pinned
    exactly in pyproject.toml): the layer's group channel name
    (``RedisPubSubLoopLayer._get_group_channel_name``, written out here), its choice of
    shard (``channels_redis.utils._consistent_hash``) and its hosts
    (``channels_redis.utils.decode_hosts``), and redis-py's connection-level calls
    (``ConnectionPool.get_connection``, ``release``; ``Connection.pack_commands``,
    ``send_packed_command``, ``read_response``, ``disconnect``)."""

    def __init__(self, config: dict[str, Any]) -> None:
        from channels_redis.utils import decode_hosts

        self.prefix = config.get("prefix", "asgi")
        self.hosts = decode_hosts(config.get("hosts"))
        self._clients: list[Any] = []
        self._lock = threading.Lock()

    @staticmethod
    def supports(config: dict[str, Any]) -> bool:
        """Hosts given by address (URL), as the site's settings give them."""
        from channels_redis.utils import decode_hosts

        return all("address" in host for host in decode_hosts(config.get("hosts")))

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Not needed: any thread publishes."""

    def group_channel(self, group: str) -> str:
        """The Redis channel of ``group``, named as the layer names it."""
        return f"{self.prefix}__group__{group}"

    @staticmethod
    def shard_of(channel: str, shards: int) -> int:
        """The index of the host that carries ``channel``, as the layer picks it."""
        from channels_redis.utils import _consistent_hash

        return int(_consistent_hash(channel, shards))

    def send(self, sends: Sends) -> None:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        clients = self._redis_clients()
        by_shard: dict[int, list[tuple[str, str, bytes]]] = {}
        for group, event in sends:
            channel = self.group_channel(group)
            shard = self.shard_of(channel, len(clients))
            by_shard.setdefault(shard, []).append(("PUBLISH", channel, layer.serialize(event)))
        for shard, commands in by_shard.items():
            _send_together(clients[shard].connection_pool, commands)

    def _redis_clients(self) -> list[Any]:
        if not self._clients:
            import redis

            with self._lock:
                if not self._clients:
                    self._clients = [
                        redis.Redis.from_url(
                            host["address"],
                            **{k: v for k, v in host.items() if k != "address"}
                            | {"socket_timeout": PUBLISH_TIMEOUT},
                        )
                        for host in self.hosts
                    ]
        return self._clients


def _send_together(pool: Any, commands: list[tuple[str, str, bytes]]) -> None:
    """Send ``commands`` on one pooled connection in one write and read their replies:
    what a redis-py pipeline does, without its per-call machinery (a move's publishing
    cost its database thread about as much as its engine work). The pool replaces, as
    it hands it out, a connection that Redis closed while it was idle (tests/
    reliability/test_channel_layer.py); one that fails during the exchange is dropped
    and the error goes to the caller, where a pipeline would first have tried once more
    (a socket that misses a move catches up: docs/protocol.md)."""
    connection = pool.get_connection()
    try:
        connection.send_packed_command(connection.pack_commands(commands))
        for _ in commands:
            connection.read_response()
    except BaseException:
        connection.disconnect()  # replies may be left unread: never reuse it
        raise
    finally:
        pool.release(connection)


class InMemoryPublisher:
    """The in-memory layer's queues wake their readers on the loop the readers wait
    on, the server's: sends are handed to it, from whatever thread publishes (a view's,
    a timer's, the background thread's). That loop is bound by the layer as soon as
    anything joins a group (``EmbeddedChannelLayer``); before that, no group has a
    member in this process and there is nobody to tell."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def send(self, sends: Sends) -> None:
        loop = self._loop
        if loop is None or not loop.is_running():
            return  # nothing has joined a group in this process: nobody to tell
        asyncio.run_coroutine_threadsafe(_send_all(sends), loop).result(timeout=PUBLISH_TIMEOUT)


class EmbeddedChannelLayer(InMemoryChannelLayer):
    """The embedded mode's channel layer (settings.CHANNEL_LAYERS without Redis):
    channels' in-memory layer, which tells the publisher the loop its groups' members
    wait on whenever one joins, whether it is a WebSocket consumer, an NDJSON stream of
    the bot API (games/api/streams.py) or anything else. The publisher so never depends
    on a particular kind of client having connected first (a bot playing over HTTP
    alone once heard none of its match's events)."""

    async def group_add(self, group: str, channel: str) -> None:
        publisher().bind(asyncio.get_running_loop())
        await super().group_add(group, channel)


#: Groups sent to at once by one batch: well inside the Redis layer's pool of 100
#: connections per loop, which a bigger burst would exhaust (sends past it are lost).
CONCURRENT_GROUPS = 16


async def _send_all(sends: Sends) -> None:
    """Each group's events in their order; different groups concurrently, at most
    ``CONCURRENT_GROUPS`` at a time (an arena's start tells 500 players their match is
    ready: one after another, that is 500 round trips to Redis)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    by_group: dict[str, list[dict[str, Any]]] = {}
    for group, event in sends:
        by_group.setdefault(group, []).append(event)
    gate = asyncio.Semaphore(CONCURRENT_GROUPS)

    async def send_group(group: str, events: list[dict[str, Any]]) -> None:
        async with gate:
            for event in events:
                await layer.group_send(group, event)

    await asyncio.gather(*(send_group(group, events) for group, events in by_group.items()))


_chosen: tuple[Scheduler, Publisher] | None = None
_choose_lock = threading.Lock()
_SETTINGS = {"CELERY_TASK_ALWAYS_EAGER", "CHANNEL_LAYERS"}


def _adapters() -> tuple[Scheduler, Publisher]:
    global _chosen
    with _choose_lock:
        if _chosen is None:
            embedded = settings.CELERY_TASK_ALWAYS_EAGER
            layer: dict[str, Any] = settings.CHANNEL_LAYERS["default"]
            backend = str(layer["BACKEND"])
            config: dict[str, Any] = layer.get("CONFIG", {})
            publisher: Publisher
            if backend.endswith(("InMemoryChannelLayer", "EmbeddedChannelLayer")):
                publisher = InMemoryPublisher()
            elif backend.endswith("RedisPubSubChannelLayer") and PubSubPublisher.supports(config):
                publisher = PubSubPublisher(config)
            else:
                publisher = LayerPublisher()
            _chosen = (TimerScheduler() if embedded else CeleryScheduler(), publisher)
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
