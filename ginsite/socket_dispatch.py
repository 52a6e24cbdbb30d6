"""The match socket's base (games/consumers.py): Channels' ``AsyncWebsocketConsumer``
with a lighter dispatch loop and dispatch.

- **The loop** (``__call__``): Channels' ``AsyncConsumer.__call__`` dispatches each
  message, from the browser or from the channel layer, one at a time in the order they
  arrive; here too, but each source is read by one long-lived task into one queue,
  where Channels' ``await_many_dispatch`` starts a new task and an ``asyncio.wait`` for
  every message (two a move on every socket).
- **The dispatch**: Channels' own first runs Django's connection clean-up on its one
  sync thread, a thread hop for every frame and every relayed move; the match socket's
  database work runs in its own threads (games/db_threads.py), which clean up their
  own connections.

The one module of the site that reaches into Channels' consumer internals
(tests/test_internals.py fails on an upgrade that changes them; Channels is pinned
exactly in pyproject.toml): the attributes ``AsyncConsumer.__call__`` sets and the
rest of the consumer reads (``base_send``, read by ``send``; ``channel_layer``,
``channel_name``, ``channel_receive``, ``scope``), and the undocumented
``channels.consumer.get_handler_name`` (a message's type to its handler's name).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer


class QueuedDispatchConsumer(AsyncWebsocketConsumer):
    """``AsyncWebsocketConsumer`` whose messages go through one queue, and whose
    dispatch makes no thread hop. ``ended`` is called however the socket ends."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        inbox: asyncio.Queue[tuple[Any, BaseException | None]] = asyncio.Queue()

        async def read(source: Callable[[], Any]) -> None:
            try:
                while True:
                    inbox.put_nowait((await source(), None))
            except Exception as error:  # a failed channel-layer read ends the socket
                inbox.put_nowait((None, error))

        readers = [asyncio.create_task(read(source)) for source in sources]
        try:
            while True:
                message, error = await inbox.get()
                if error is not None:
                    raise error
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            self.ended()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its handler (no connection clean-up first)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def ended(self) -> None:
        """The socket's loop is over, however it ended (for subclasses)."""
