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
from typing import Any

from asgiref.sync import async_to_sync
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
    transaction.on_commit(lambda: group_send(sends), robust=True)


def presence_on_commit(match_id: int) -> None:
    """After commit, tell every socket of the match who is connected."""
    transaction.on_commit(lambda: send_presence(match_id), robust=True)


def send_presence(match_id: int) -> None:
    from games import selectors

    message = selectors.presence_message(match_id=match_id)
    if message is not None:
        group_send([(public_group(match_id), {"type": "match.presence", "message": message})])


def group_send(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, event)`` in order, in one trip to the event loop: a
    move's three messages cost one hop from the database thread, not three."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, event in sends:
            await layer.group_send(group, event)

    if isinstance(layer, InMemoryChannelLayer):
        loop = _server_loop
        if loop is None or not loop.is_running():
            return  # no socket has connected to this process: nobody to tell
        asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=5)
        return
    async_to_sync(send_all)()
