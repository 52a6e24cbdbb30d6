"""The lobby chat WebSocket (``/ws/lobby/``): thin, the chat itself is ChatSocketMixin.
A room's own chat socket (games/tournaments/consumers.py) is this consumer in another room
(``chat_room``).

Client -> server: ``{"type": "chat", "text": "..."}`` and ``{"type": "ping"}`` (JSON text
frames, max 4 KiB). The site routes these paths to social/consumers.py's sockets, which
add the bell's frames (``unread``, ``notification``) for a registered player.
Server -> client: ``chat_history``, ``chat``, ``chat_hidden``, ``chat_notice`` and
``error`` (docs/protocol.md, "Chat"). Anyone signed in reads; registered players write.
"""

import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer

from ginsite.errors import AppError, error_frame
from ginsite.ratelimit import TokenBucket

from .sockets import ChatSocketMixin

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
# The socket's frames, before any database work (ginsite/ratelimit.py TokenBucket):
# bursts of RATE_BURST, RATE_PER_SECOND sustained (the per-player chat rate limit is
# checked by chat_post).
RATE_BURST = 10
RATE_PER_SECOND = 2.0


class LobbyChatConsumer(ChatSocketMixin, AsyncWebsocketConsumer):
    def chat_room(self) -> dict:
        """The room this socket chats in, as ``chat_connect``'s keywords."""
        return {"match_id": None}

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4001)
            return
        self.frames = TokenBucket(RATE_BURST, RATE_PER_SECOND)
        await self.accept()
        await self.chat_connect(user=user, **self.chat_room())

    async def disconnect(self, code: int) -> None:
        await self.chat_disconnect()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await self._receive(text_data, bytes_data)
        except Exception:
            logger.exception("lobby socket: unexpected error")
            await self._error("server_error", "Something went wrong on the server.")

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if not self.frames.take():
            await self._error("rate_limited", "Too many messages; slow down.")
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
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
        if content["type"] == "ping":
            await self.on_ping()
            return
        if content["type"] != "chat":
            await self._error("unknown_type", f"Unknown message type {content['type'][:40]!r}.")
            return
        await self.chat_receive(content)

    async def on_ping(self) -> None:
        """``{"type": "ping"}``: nothing here; the socket the site routes (social's, with
        the bell) renews the player's online mark. No answer either way."""

    async def _error(self, code: str, message: str) -> None:
        await self.chat_send(error_frame(AppError(message, code=code)))
