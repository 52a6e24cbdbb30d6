"""The bell's frames over a socket (``BellSocketMixin``), and the sockets that carry them:
the notification socket ``/ws/notifications/`` of a page with no socket of its own; the
lobby's (``/ws/lobby/``) and a tournament's (``/ws/tournament/<id>/``) sockets, which carry
the bell beside their chat (and the standings), so that every page that is not a table
opens one socket; and a seated player's match socket (``/ws/match/<id>/``), so that a
player's table opens its match socket alone. The notification socket: signed-in
registered players only (others are closed with 4001). It keeps the player online while
it lives (a ``ping`` every 30 s renews the mark: social/services.py ``presence_*``) and
brings their notifications live:

A ban or an account's deletion closes it (4003), as it closes the account's other
sockets. Server -> client: ``unread`` ``{"unread": n}`` on connect and whenever the count changes
elsewhere (a notification opened in another tab); ``notification`` ``{"notification":
{id, kind, text, url, created_at}, "unread": n}`` for each new one, its text in the
language of the page that opened the socket; ``error``.
Client -> server: ``{"type": "ping"}`` (JSON text frames, max 1 KiB). docs/protocol.md,
"Notifications". A socket hears its own player's group ``notify.<id>`` alone.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest
from django.utils import translation

from games import broadcast as games_broadcast
from games.chat import broadcast as chat_broadcast
from games.chat.consumers import LobbyChatConsumer
from games.chat.sockets import CLOSE_ACCOUNT_CLOSED
from games.consumers import MatchConsumer
from games.db_threads import db
from games.tournaments.consumers import TournamentConsumer
from ginsite.errors import AppError, error_frame
from ginsite.overload import is_overload
from ginsite.ratelimit import TokenBucket

from . import selectors, services, texts

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 1024
CLOSE_NOT_SIGNED_IN = 4001
RATE_BURST = 5
RATE_PER_SECOND = 0.5


def _language(scope: dict[str, Any]) -> str:
    """The page's language, as Django would choose it for the page's own request."""
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


class BellSocketMixin:
    """The bell over a socket: mix into a consumer before its base. ``bell_connect`` (after
    ``accept()``) joins the registered player's group ``notify.<id>``, counts them online
    and sends ``unread``; ``notify.new``/``notify.unread`` become ``notification`` and
    ``unread`` frames, the text in the language of the page that opened the socket;
    ``bell_ping`` renews the online mark; ``bell_disconnect`` leaves. Anyone else
    (signed out, a guest) gets nothing of it. The notification socket is this alone; the
    lobby's and a tournament's sockets (below) carry it beside their chat, and a seated
    player's match socket beside the table, so such a page opens one socket for all."""

    bell_user_id: int | None = None
    bell_language: str = "en"
    #: Whether the socket keeps its player online (the match socket's seat does already).
    bell_online: bool = True
    if TYPE_CHECKING:  # what the consumer this is mixed into provides
        channel_layer: Any
        channel_name: str
        scope: dict[str, Any]

        async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                       close: bool = False) -> None: ...

    def bell_db(self, func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        """``func`` run off the event loop (the match socket has threads of its own)."""
        return database_sync_to_async(func)

    async def bell_connect(self, user: Any) -> None:
        if user is None or not user.is_authenticated or user.is_guest:
            return
        self.bell_user_id = user.pk
        self.bell_language = _language(self.scope)
        games_broadcast.bind_event_loop(asyncio.get_running_loop())
        await self.channel_layer.group_add(services.notify_group(user.pk), self.channel_name)
        try:
            unread = await self.bell_db(self._bell_open)(user.pk, self.bell_online)
        except Exception as error:
            if not is_overload(error):
                raise
            return  # no connection free in time: the count comes with the next notification
        await self._bell_send({"type": "unread", "unread": unread})

    @staticmethod
    def _bell_open(user_id: int, online: bool) -> int:
        if online:
            services.presence_open(user_id=user_id)
        return selectors.unread_count_of(user_id=user_id)

    async def bell_disconnect(self) -> None:
        if self.bell_user_id is None:
            return
        user_id, self.bell_user_id = self.bell_user_id, None
        await self.channel_layer.group_discard(services.notify_group(user_id), self.channel_name)
        if self.bell_online:
            await self.bell_db(services.presence_close)(user_id=user_id)

    async def bell_ping(self) -> None:
        if self.bell_user_id is not None and self.bell_online:
            await self.bell_db(services.presence_renew)(user_id=self.bell_user_id)

    # --- group events (social/services.py) ---------------------------------------------

    async def notify_new(self, event: dict[str, Any]) -> None:
        notification = dict(event["notification"])
        with translation.override(self.bell_language):
            notification["text"] = texts.notification_text(
                notification["kind"], notification.pop("params", {})
            )
        await self._bell_send(
            {"type": "notification", "notification": notification, "unread": event["unread"]}
        )

    async def notify_unread(self, event: dict[str, Any]) -> None:
        await self._bell_send({"type": "unread", "unread": event["unread"]})

    async def _bell_send(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload))


class NotificationConsumer(BellSocketMixin, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or user.is_guest:
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        self.frames = TokenBucket(RATE_BURST, RATE_PER_SECOND)
        await self.accept()
        # The account's own group (games/chat/broadcast.py): a ban or a deletion closes
        # this socket at once, as it closes the account's other sockets.
        await self.channel_layer.group_add(chat_broadcast.user_group(user.pk), self.channel_name)
        await self.bell_connect(user)

    async def disconnect(self, code: int) -> None:
        if self.bell_user_id is None:
            return
        await self.channel_layer.group_discard(
            chat_broadcast.user_group(self.bell_user_id), self.channel_name
        )
        await self.bell_disconnect()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if not self.frames.take():
            await self._error("rate_limited", "Too many messages; slow down.")
            return
        if len(raw.encode("utf-8")) > MAX_FRAME_BYTES:
            await self._error("frame_too_large", f"Frames are limited to {MAX_FRAME_BYTES} bytes.")
            return
        try:
            content = json.loads(raw)
        except (ValueError, RecursionError):
            await self._error("bad_json", "Send JSON text frames.")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self._error("bad_message", 'A message is a JSON object with a "type".')
            return
        if content["type"] != "ping":
            await self._error("unknown_type", f"Unknown message type {content['type'][:40]!r}.")
            return
        await self.bell_ping()

    async def user_logout(self, event: dict[str, Any]) -> None:
        """The account was banned or deleted: closed (4003), as its other sockets are."""
        await self.close(code=CLOSE_ACCOUNT_CLOSED)

    # The account group's chat events are for chat panels: nothing to do here.
    async def chat_notice(self, event: dict[str, Any]) -> None:
        pass

    chat_blocks = chat_challenge = chat_challenge_closed = chat_notice

    async def _error(self, code: str, message: str) -> None:
        await self._bell_send(error_frame(AppError(message, code=code)))


class ChatBellMixin(BellSocketMixin):
    """The bell on a socket that is a chat consumer (``ChatSocketMixin``'s): mix in before
    it. Once the chat half has connected its user (``chat_user``: anyone signed in whom
    the socket accepted), a registered player gets the bell too; a ``ping`` (the chat
    consumer's ``on_ping``) renews their online mark; closing leaves both."""

    chat_user: Any = None

    async def connect(self) -> None:
        await super().connect()  # type: ignore[misc]  # the chat consumer's
        if self.chat_user is not None:  # accepted, and the chat joined its groups
            await self.bell_connect(self.chat_user)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)  # type: ignore[misc]
        await self.bell_disconnect()

    async def on_ping(self) -> None:
        await super().on_ping()  # type: ignore[misc]
        await self.bell_ping()


class LobbySocket(ChatBellMixin, LobbyChatConsumer):
    """``/ws/lobby/``: the lobby's chat socket (games/chat/consumers.py) with the bell, so
    the lobby opens one socket."""


class TournamentSocket(ChatBellMixin, TournamentConsumer):
    """``/ws/tournament/<id>/``: the tournament page's one socket, its standings and its
    chat (games/tournaments/consumers.py), with the bell. The finished table of a
    tournament match opens it for the standings only (``?only=standings``): no chat, so
    no bell either (the table's bell is its match socket's)."""


class MatchSocket(BellSocketMixin, MatchConsumer):
    """``/ws/match/<id>/``: the table's match socket (games/consumers.py) with the bell of
    the seat's own player, so a table too opens one socket. Only a seated registered
    player's socket joins their ``notify.<id>``: the opponent's socket hears the
    opponent's own bell, a spectator's socket nobody's. Its frames carry the match
    ``version`` this socket last sent, as every frame of the match socket does. The seat
    keeps its player online already: no online mark, no ping."""

    bell_online = False

    def bell_db(self, func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        return db(func)  # the match sockets' database threads (games/db_threads.py)

    async def connect(self) -> None:
        await super().connect()
        if self.seat is not None:
            await self.bell_connect(self.user)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        await self.bell_disconnect()

    async def rejoin_groups(self) -> None:
        await super().rejoin_groups()
        if self.bell_user_id is not None:
            await self.channel_layer.group_add(
                services.notify_group(self.bell_user_id), self.channel_name
            )

    async def _bell_send(self, payload: dict[str, Any]) -> None:
        await self._send({"type": payload["type"], "version": self.version, **payload})
