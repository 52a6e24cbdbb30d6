"""The presence renewal of a server process's seated match sockets: one task per event
loop renews them all together (games/services/presence.py).

About every ``period`` seconds (a random 75-100% of it, so that processes started
together do not renew together), and at once when the channel layer reconnects to a
Redis server that restarted (ginsite/channel_layer.py: what was published meanwhile
reached nobody), the task:
- puts every socket back in its channel-layer groups (a Redis restart empties the list
  layer's groups; a socket that stayed open would otherwise never hear of its match
  again; the pub/sub layer keeps its subscriptions and this costs nothing there);
- renews them all with one UPDATE and reads their matches' versions (one database
  hop for the whole process, where each socket used to make its own);
- renews on its own each socket the sweep expired meanwhile (it is registered again),
  and lets each socket that is behind its match's version catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from games import selectors, services
from games.db_threads import db
from games.services.presence import RENEW_SECONDS
from ginsite import channel_layer

logger = logging.getLogger(__name__)


class RenewedSocket(Protocol):
    channel_name: str
    match_id: int

    async def rejoin_groups(self) -> None: ...
    def renew_alone(self) -> None: ...
    def catch_up(self, version: int) -> None: ...


class Renewer:
    """The seated sockets of one event loop, and the task that renews them."""

    period: float = RENEW_SECONDS

    def __init__(self) -> None:
        self.sockets: dict[str, RenewedSocket] = {}
        self.task: asyncio.Task[None] | None = None
        self.woken = asyncio.Event()

    def add(self, socket: RenewedSocket) -> None:
        self.sockets[socket.channel_name] = socket
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    def discard(self, socket: RenewedSocket) -> None:
        self.sockets.pop(socket.channel_name, None)

    def wake(self) -> None:
        """Renew now rather than at the end of the period."""
        self.woken.set()

    async def _run(self) -> None:
        while self.sockets:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self.woken.wait(), self.period * random.uniform(0.75, 1.0)
                )
            self.woken.clear()
            try:
                await self.renew_all()
            except Exception:
                logger.exception("presence renewal of %d sockets failed", len(self.sockets))

    async def renew_all(self) -> None:
        sockets = list(self.sockets.values())
        for socket in sockets:
            with contextlib.suppress(Exception):  # Redis down: next period tries again
                await socket.rejoin_groups()
        names = [socket.channel_name for socket in sockets]
        match_ids = sorted({socket.match_id for socket in sockets})
        missing, versions = await db(_renew)(names, match_ids)
        for socket in sockets:
            if self.sockets.get(socket.channel_name) is not socket:
                continue  # closed meanwhile: it must not be registered again
            if socket.channel_name in missing:
                socket.renew_alone()
            socket.catch_up(versions.get(socket.match_id, 0))


def _renew(names: list[str], match_ids: list[int]) -> tuple[set[str], dict[int, int]]:
    return (
        services.seat_sockets_renew(channel_names=names),
        selectors.match_versions(match_ids=match_ids),
    )


_renewers: WeakKeyDictionary[Any, Renewer] = WeakKeyDictionary()


def renewer() -> Renewer:
    """The renewer of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _renewers.get(loop)
    if found is None:
        found = _renewers[loop] = Renewer()
        channel_layer.on_reconnect(found.wake)
    return found
