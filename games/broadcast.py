"""The only module that sends to channel-layer groups, and only after commit.

Groups of a match (consumers join them; docs/protocol.md):
- ``match-<id>-seat-0`` / ``match-<id>-seat-1``: the sockets of that seat's player;
  they receive that seat's messages (its private view, or its event frames).
- ``match-<id>-spectators``: everyone else watching; the spectator's messages.
- ``match-<id>``: every socket of the match; public messages only (presence, a
  correspondence turn's moved deadline).
Nothing private ever goes to a shared group.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.db import transaction

from games import selectors
from ginsite import runtime

logger = logging.getLogger(__name__)

def public_group(match_id: int) -> str:
    return f"match-{match_id}"


def seat_group(match_id: int, seat: int) -> str:
    return f"match-{match_id}-seat-{seat}"


def spectator_group(match_id: int) -> str:
    return f"match-{match_id}-spectators"


def bind_event_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the ASGI server's event loop (called by the consumer on connect).

    Only the embedded in-memory channel layer needs it (ginsite/runtime.py's
    publisher adapter): its queues belong to the server's loop, and the embedded mode
    sends from timer threads (bot moves and clock checks) too.
    """
    runtime.publisher().bind(loop)


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


def deadline_on_commit(match_id: int, message: dict[str, Any]) -> None:
    """After commit, tell every socket of the match that its correspondence turn's
    deadline moved (``message``: games/messages.py ``deadline_frame``, built by the writer
    from what it committed)."""
    sends = [(public_group(match_id), {"type": "match.deadline", "message": message})]
    transaction.on_commit(lambda: group_send(sends), robust=True)


def send_presence(match_id: int) -> None:
    message = selectors.presence_message(match_id=match_id)
    if message is not None:
        group_send([(public_group(match_id), {"type": "match.presence", "message": message})])


def group_send(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, event)``, in one trip to the event loop: a move's three
    messages cost one hop from the database thread, not three. Each group's events keep
    their order; different groups are sent to concurrently (ginsite/runtime.py)."""
    runtime.publisher().send(sends)
