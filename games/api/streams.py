"""The NDJSON streams of the bot API, as async iterators of bytes (Django sends
them line by line under ASGI; a synchronous iterator would be consumed whole first).

* ``event_stream``: the account's events (games/api/events.py), first a
  ``matchStart`` for every match in play and a ``challenge`` for every open
  challenge to the account. At its next keep-alive after the channel layer
  reconnected to a restarted Redis it sends the events it missed meanwhile
  (games/api/catch_up.py), and ends if its token was revoked meanwhile.
* ``match_stream``: the full ``state`` of the account's seat, then every message the
  WebSocket of that seat gets (docs/protocol.md) from the same channel-layer groups,
  until the match is over; the last line is the final state. While it is open it is
  the seat's presence at the table, renewed like a socket's, and, like a socket, it
  is sent the state at its next keep-alive when the channel layer reconnected to a
  restarted Redis (ginsite/channel_layer.py) and the match moved on meanwhile.

Both send an empty line after ``API_KEEPALIVE_SECONDS`` without a line, and end when
the account is banned or deleted (the ``user.logout`` event of games/chat/broadcast.py)
or their token is revoked (the same event, sent to the token's group by
games/api/events.py ``token_revoked``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import broadcast, selectors
from games.chat import broadcast as chat_broadcast
from games.chat.selectors import blocked_user_ids
from games.models import Match
from games.services import presence
from ginsite import channel_layer

from . import events
from . import selectors as api_selectors
from .catch_up import Told

logger = logging.getLogger(__name__)


def db(func: Any) -> Any:
    # Off Channels' single database thread: a stream waits on nobody else's query.
    return database_sync_to_async(func, thread_sensitive=False)


def line(value: dict[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


KEEPALIVE = b"\n"


class Subscription:
    """A fresh channel of the channel layer in some groups, read with a timeout."""

    def __init__(self, groups: list[str]) -> None:
        self.layer = get_channel_layer()
        self.groups = groups
        self.channel = ""
        self.pending: asyncio.Future | None = None

    async def open(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.join()

    async def join(self) -> None:
        for group in self.groups:
            await self.layer.group_add(group, self.channel)

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next event, or None after ``timeout`` seconds without one."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.layer.receive(self.channel))
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if not done:
            return None
        future, self.pending = self.pending, None
        return future.result()

    async def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
        for group in self.groups:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(group, self.channel)


def _token_groups(token_id: int | None) -> list[str]:
    return [] if token_id is None else [events.token_group(token_id)]


async def _revoked_meanwhile(token_id: int | None) -> bool:
    """Whether the token was revoked before the stream joined its group (the
    revocation's message then went to nobody)."""
    return not await db(api_selectors.token_live)(token_id=token_id)


async def event_stream(user: Any, token_id: int | None = None) -> AsyncIterator[bytes]:
    keepalive = settings.API_KEEPALIVE_SECONDS
    subscription = Subscription(
        [events.events_group(user.pk), chat_broadcast.user_group(user.pk), *_token_groups(token_id)]
    )
    await subscription.open()  # before the opening events: nothing falls in between
    try:
        if await _revoked_meanwhile(token_id):
            return
        told = Told()
        for event in await db(told.opening)(user):
            told.sent(event)
            yield line(event)
        joined = time.monotonic()
        reconnects = channel_layer.reconnections()
        while True:
            message = await subscription.next(keepalive)
            # Redis came back: what was published while it was down reached nobody.
            missed = message is None and channel_layer.reconnections() != reconnects
            if missed:
                reconnects = channel_layer.reconnections()
                joined = time.monotonic() - presence.RENEW_SECONDS  # join again now
            if time.monotonic() - joined >= presence.RENEW_SECONDS:
                # In its groups again: a Redis restart empties the channel layer's groups.
                joined = time.monotonic()
                with contextlib.suppress(Exception):
                    await subscription.join()
            if missed:
                if await _revoked_meanwhile(token_id):
                    return
                for event in await db(told.missed)(user):
                    told.sent(event)
                    yield line(event)
            if message is None:
                yield KEEPALIVE
            elif message["type"] == "user.logout":
                return
            elif message["type"] == "api.event" and told.sent(message["event"]):
                yield line(message["event"])
    finally:
        await subscription.close()


def _over(message: dict[str, Any]) -> bool:
    return message.get("type") == "state" and message["match"]["status"] == "finished"


def _status(match_id: int) -> tuple[int, str]:
    return selectors.match_version(match_id=match_id)


async def match_stream(
    user: Any, match_id: int, seat: int, token_id: int | None = None
) -> AsyncIterator[bytes]:
    keepalive = settings.API_KEEPALIVE_SECONDS
    state_of = db(selectors.match_state_message)
    subscription = Subscription(
        [
            broadcast.public_group(match_id),
            broadcast.seat_group(match_id, seat),
            chat_broadcast.room_group(match_id),
            chat_broadcast.user_group(user.pk),
            *_token_groups(token_id),
        ]
    )
    await subscription.open()
    if await _revoked_meanwhile(token_id):
        await subscription.close()
        yield line(
            {
                "type": "error",
                "code": "token_revoked",
                "message": "This API token has been revoked.",
            }
        )
        return
    await db(presence.seat_connect)(
        match=Match(pk=match_id), user=user, channel_name=subscription.channel
    )
    try:
        blocked = await db(blocked_user_ids)(user=user)
        state = await state_of(match=Match(pk=match_id), user=user)
        version = state["version"]
        yield line(state)
        if _over(state):
            return
        renewed = time.monotonic()
        reconnects = channel_layer.reconnections()
        while True:
            message = await subscription.next(keepalive)
            if message is None and channel_layer.reconnections() != reconnects:
                # Redis came back: what was published while it was down reached nobody.
                reconnects = channel_layer.reconnections()
                renewed = time.monotonic() - presence.RENEW_SECONDS  # renew and catch up now
            if time.monotonic() - renewed >= presence.RENEW_SECONDS:
                renewed = time.monotonic()
                with contextlib.suppress(Exception):  # Redis down: the next period tries
                    await subscription.join()
                await db(presence.seat_socket_renew)(
                    match=Match(pk=match_id), user=user, channel_name=subscription.channel
                )
                current, _status_now = await db(_status)(match_id)
                if current > version and message is None:
                    # A change broadcast while the stream was out of its groups.
                    state = await state_of(match=Match(pk=match_id), user=user)
                    version = state["version"]
                    yield line(state)
                    if _over(state):
                        return
                    continue
            if message is None:
                yield KEEPALIVE
                continue
            kind = message["type"]
            if kind == "user.logout":
                yield line(
                    {
                        "type": "error",
                        "version": version,
                        "code": message.get("code", "account_closed"),
                        "message": message["reason"],
                    }
                )
                return
            if kind == "chat.message":
                if message["author_id"] not in blocked:
                    yield line({"type": "chat", "version": version, "message": message["message"]})
                continue
            if kind == "chat.hidden":
                yield line({"type": "chat_hidden", "version": version, "id": message["id"]})
                continue
            if kind == "chat.blocks":
                blocked = set(message["blocked_ids"])
                continue
            if not kind.startswith("match.") or "message" not in message:
                continue
            out = message["message"]
            if out.get("type") == "state":
                if out["version"] < version:
                    continue  # never an older position after a newer one
                version = out["version"]
                yield line(out)
                if _over(out):
                    return
                continue
            if out.get("type") == "event":
                if out["version"] <= version:
                    continue  # a copy of a version already sent
                version = out["version"]
            yield line(out)
            if isinstance(out.get("version"), int):
                version = max(version, out["version"])
            # A message that is not a full state may still end the match: then the
            # final state closes the stream.
            if (await db(_status)(match_id))[1] == Match.Status.FINISHED:
                yield line(await state_of(match=Match(pk=match_id), user=user))
                return
    finally:
        await subscription.close()
        with contextlib.suppress(Exception):
            await asyncio.shield(
                db(presence.seat_disconnect)(
                    match=Match(pk=match_id), user=user, channel_name=subscription.channel
                )
            )
