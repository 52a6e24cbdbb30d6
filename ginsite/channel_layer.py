"""The channel layer of the Redis deployment: channels-redis's pub/sub layer, which also
says when a Redis server it had lost is back.

When a Redis server of the layer restarts, redis-py's pub/sub connection reconnects
and subscribes again by itself (``PubSub.on_connect``), but whatever was published
while the server was down reached nobody, and channels-redis 4.3 never calls the
``on_reconnect`` it accepts. This layer counts each such reconnection
(``reconnections``) and calls, on the event loop whose connection came back, every
function registered there with ``on_reconnect``. The process's presence renewer
(games/presence_renewer.py) registers one: its table sockets are brought up to date
as soon as Redis answers again, not at their next renewal (every 19-25 s); the bot
API's match streams look at the count at each keep-alive (games/api/streams.py).

It relies on internals of channels-redis and redis-py, checked by
tests/test_internals.py (both are pinned exactly in pyproject.toml): the loop layer's
``_shards`` and ``RedisPubSubChannelLayer._get_layer``'s shape, the shard's
``_ensure_redis`` (``_redis``, ``_pubsub``), and redis-py's ``PubSub.on_connect``,
which it calls on a reconnection only (the first connection registers it after
connecting).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

_listeners: WeakKeyDictionary[asyncio.AbstractEventLoop, list[Callable[[], None]]] = (
    WeakKeyDictionary()
)
_reconnections = 0


def on_reconnect(callback: Callable[[], None]) -> None:
    """Call ``callback()`` on the running event loop whenever one of the layer's
    connections on this loop reconnects to its Redis server."""
    _listeners.setdefault(asyncio.get_running_loop(), []).append(callback)


def reconnections() -> int:
    """How many times the layer's connections of this process have reconnected."""
    return _reconnections


def _reconnected() -> None:
    global _reconnections
    _reconnections += 1
    for callback in _listeners.get(asyncio.get_running_loop(), ()):
        callback()


class _PubSub(PubSub):
    async def on_connect(self, connection: Any) -> None:
        await super().on_connect(connection)  # subscribed again: what follows is heard
        _reconnected()


class _Shard(RedisSingleShardConnection):
    _redis: aioredis.Redis | None
    _pubsub: PubSub | None

    def _ensure_redis(self) -> None:
        if self._redis is None:
            redis = aioredis.Redis(connection_pool=create_pool(self.host))
            self._redis, self._pubsub = redis, _PubSub(redis.connection_pool)


class _LoopLayer(RedisPubSubLoopLayer):
    _shards: list[RedisSingleShardConnection]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]


class ReconnectingRedisPubSubChannelLayer(RedisPubSubChannelLayer):
    """channels-redis's pub/sub layer whose connections report their reconnections."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
