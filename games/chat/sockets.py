"""Chat over a WebSocket, shared by the lobby, match and tournament chat consumers.

``ChatSocketMixin`` gives a Channels consumer: joining the user's group ``user.<id>``
and the room's group on connect (with the recent history sent at once), the
``{"type": "chat", "text": ...}`` client message, and the group event handlers that
relay chat, hide moderated messages, show moderation notices, apply new blocks, and
close the socket when the account is banned or deleted. Thin: the rules live in
games/chat/services.py and selectors.py.
"""

import json
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async

from ginsite.errors import AppError, error_frame

from . import broadcast, selectors, services

# Close code sent when the account is banned or deleted (application range 4000-4999).
CLOSE_ACCOUNT_CLOSED = 4003


class ChatSocketMixin:
    """Mix into an ``AsyncWebsocketConsumer`` (or its JSON subclass) before the base."""

    chat_match_id: int | None = None
    if TYPE_CHECKING:  # what the consumer this is mixed into provides
        channel_layer: Any
        channel_name: str

        async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                       close: bool = False) -> None: ...

        async def close(self, code: int | None = None, reason: str | None = None) -> None: ...
    chat_tournament_id: int | None = None
    chat_user: Any = None
    chat_blocked: frozenset[int] = frozenset()
    chat_groups: tuple[str, ...] = ()

    async def chat_send(self, payload: dict) -> None:
        await self.send(text_data=json.dumps(payload))

    def _chat_versioned(self, payload: dict) -> dict:
        # On a match socket every message carries the match version this socket last
        # sent (the match consumer's ``version``); lobby messages have none.
        if self.chat_match_id is None:
            return payload
        return {"type": payload["type"], "version": getattr(self, "version", 0), **payload}

    async def chat_connect(
        self, *, user: Any, match_id: int | None, tournament_id: int | None = None
    ) -> None:
        """Join ``user.<id>`` and, if the user may read the room (a match's table, a
        tournament, or the lobby when both ids are None), its group; then send
        ``chat_history``. Call after ``accept()``."""
        self.chat_user = user
        self.chat_match_id = match_id
        self.chat_tournament_id = tournament_id
        groups = []
        if getattr(user, "is_authenticated", False):
            groups.append(broadcast.user_group(user.pk))
        readable = await database_sync_to_async(selectors.chat_can_read)(
            user=user, match_id=match_id, tournament_id=tournament_id
        )
        if readable:
            groups.append(broadcast.room_group(match_id, tournament_id))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.chat_groups = tuple(groups)
        if readable:
            history, blocked = await database_sync_to_async(self._chat_snapshot)()
            self.chat_blocked = frozenset(blocked)
            await self.chat_send(
                self._chat_versioned({"type": "chat_history", "messages": history})
            )

    def _chat_snapshot(self) -> tuple[list[dict], set[int]]:
        history = selectors.chat_history(
            user=self.chat_user, match_id=self.chat_match_id,
            tournament_id=self.chat_tournament_id,
        )
        return history, selectors.blocked_user_ids(user=self.chat_user)

    async def chat_disconnect(self) -> None:
        for group in self.chat_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.chat_groups = ()

    async def chat_receive(self, content: dict) -> None:
        """Handle a client ``{"type": "chat", "text": ...}``: post it, or answer this
        socket alone with an ``error`` (the socket stays open)."""
        try:
            await database_sync_to_async(services.chat_post)(
                user=self.chat_user, text=content.get("text"), match_id=self.chat_match_id,
                tournament_id=self.chat_tournament_id,
            )
        except AppError as error:
            await self.chat_send(self._chat_versioned(error_frame(error)))

    # --- group events (see games/chat/broadcast.py) ---------------------------------

    async def chat_message(self, event: dict) -> None:
        if event["author_id"] in self.chat_blocked:
            return
        await self.chat_send(self._chat_versioned({"type": "chat", "message": event["message"]}))

    async def chat_hidden(self, event: dict) -> None:
        await self.chat_send(self._chat_versioned({"type": "chat_hidden", "id": event["id"]}))

    async def chat_notice(self, event: dict) -> None:
        await self.chat_send(
            self._chat_versioned(
                {"type": "chat_notice", "code": event["code"], "text": event["text"]}
            )
        )

    async def chat_blocks(self, event: dict) -> None:
        self.chat_blocked = frozenset(event["blocked_ids"])

    async def chat_challenge(self, event: dict) -> None:
        # Only the lobby lists challenges to the user (templates/api/_incoming_challenges.html).
        if self.chat_match_id is None and self.chat_tournament_id is None:
            await self.chat_send({"type": "challenge", "challenge": event["challenge"]})

    async def chat_challenge_closed(self, event: dict) -> None:
        if self.chat_match_id is None and self.chat_tournament_id is None:
            await self.chat_send({"type": "challenge_closed", "id": event["id"]})

    async def user_logout(self, event: dict) -> None:
        await self.chat_send(
            self._chat_versioned(
                {"type": "error", "code": "account_closed", "message": event["reason"]}
            )
        )
        await self.close(code=CLOSE_ACCOUNT_CLOSED)
