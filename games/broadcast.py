"""The only module that sends to channel-layer groups, and only after commit.

Groups of a match (consumers join them; docs/protocol.md):
- ``match-<id>-seat-0`` / ``match-<id>-seat-1``: the sockets of that seat's player;
  they receive that seat's messages (its private view, or its event frames).
- ``match-<id>-spectators``: everyone else watching; the spectator's messages.
- ``match-<id>``: every socket of the match; public messages only (presence).
Nothing private ever goes to a shared group.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# A message sent from another thread must be awaited on this loop for the
# in-process layer to wake its consumers; see bind_event_loop.
_server_loop: asyncio.AbstractEventLoop | None = None


def public_group(match_id: int) -> str:
    return f"match-{match_id}"


def seat_group(match_id: int, seat: int) -> str:
    return f"match-{match_id}-seat-{seat}"


def spectator_group(match_id: int) -> str:
    return f"match-{match_id}-spectators"


def bind_event_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the ASGI server's event loop (called by the consumer on connect).

    Only the embedded in-memory channel layer needs it: its queues belong to the
    server's loop, and the embedded mode sends from timer threads (bot moves and
    clock checks) too. The Redis layer works from any thread or loop.
    """
    global _server_loop
    _server_loop = loop


def publish_on_commit(match_id: int, messages: dict[int | None, dict[str, Any]]) -> None:
    """After commit, send each audience its message (``messages[seat]`` to that
    seat's sockets, ``messages[None]`` to the spectators). The messages were built
    by the writer from the state it committed; nothing is read here."""
    sends = [
        (
            spectator_group(match_id) if audience is None else seat_group(match_id, audience),
            {"type": "match.message", "message": message},
        )
        for audience, message in messages.items()
    ]
    transaction.on_commit(lambda: _group_send(sends), robust=True)


def presence_on_commit(match_id: int) -> None:
    """After commit, tell every socket of the match who is connected."""
    transaction.on_commit(lambda: send_presence(match_id), robust=True)


def send_presence(match_id: int) -> None:
    from games import selectors

    message = selectors.presence_message(match_id=match_id)
    if message is not None:
        _group_send([(public_group(match_id), {"type": "match.presence", "message": message})])


def _group_send(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, event)`` in order, in one trip to an event loop: a move's
    three messages cost one hop from the database thread, not three.

    In an ASGI process whose sockets have connected, the trip is to the server's
    loop. Anywhere else (a Celery worker playing the computer or expiring a clock,
    beat, a shell) it is to this process's publishing loop, which lives as long as
    the process and so keeps its Redis connections: ``async_to_sync`` would start a
    thread, a loop and a new Redis connection for every move."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, event in sends:
            await layer.group_send(group, event)

    loop = _server_loop if _server_loop is not None and _server_loop.is_running() else None
    if loop is None:
        if isinstance(layer, InMemoryChannelLayer):
            return  # no socket has connected to this process: nobody to tell
        loop = _publishing_loop()
    asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=PUBLISH_TIMEOUT)


PUBLISH_TIMEOUT = 5.0
_publisher: asyncio.AbstractEventLoop | None = None
_publisher_lock = threading.Lock()


def _publishing_loop() -> asyncio.AbstractEventLoop:
    """The process's event loop for publishing from threads, started on first use."""
    global _publisher
    with _publisher_lock:
        if _publisher is None or not _publisher.is_running():
            loop = asyncio.new_event_loop()
            started = threading.Event()
            loop.call_soon(started.set)
            threading.Thread(
                target=loop.run_forever, name="channel-publisher", daemon=True
            ).start()
            started.wait(timeout=PUBLISH_TIMEOUT)
            _publisher = loop
        return _publisher
