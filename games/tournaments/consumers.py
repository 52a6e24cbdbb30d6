"""The tournament WebSocket (docs/protocol.md, "Tournament socket"), the tournament
page's one socket.

``/ws/tournament/<id>/``: thin: check the viewer may see the tournament, join its
groups, send the current standings; then relay ``standings`` (everyone) and
``match_ready`` (the player's own sockets) from games/tournaments/broadcast.py; a player
whose match is in play gets its ``match_ready`` again on connect (read after the
socket joined its groups: a pairing committed meanwhile is never missed). For a
signed-in viewer it is also the tournament's chat room: the lobby chat consumer
(games/chat/consumers.py) in the tournament's room, under the same moderation (the
site routes the path to social's socket, which adds the bell). A tournament match's
finished table opens it with ``?only=standings``: standings and ``match_ready``, no
chat. Nothing here ever carries a card. The client sends ``{"type": "ping"}``
(answered ``pong``) and ``{"type": "chat", "text": ...}``.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils.translation import gettext

from games import broadcast as games_broadcast
from games.chat.consumers import RATE_BURST, RATE_PER_SECOND, LobbyChatConsumer
from ginsite.ratelimit import TokenBucket

from . import broadcast, selectors

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

CLOSE_NOT_FOUND = 4404


def _may_view(tournament_id: int, user: User | AnonymousUser, token: str | None) -> bool:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    return tournament is not None and selectors.can_view(tournament=tournament, user=user,
                                                         token=token)


def _opening(tournament_id: int, user: User | AnonymousUser) -> tuple[str, int | None] | None:
    """The current standings message's text (ranked once per version) and the viewer's
    match in play here, read once the socket is in its groups (so that a pairing
    committed meanwhile is either read here or heard from the group); None if the
    tournament was deleted meanwhile."""
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        return None
    return (selectors.standings_text(tournament),
            selectors.match_in_play(tournament=tournament, user=user))


class TournamentConsumer(LobbyChatConsumer):
    """The standings and ``match_ready``, and the tournament's chat room (parsing the
    client's frames as the lobby's chat socket does)."""

    groups_joined: list[str]

    def chat_room(self) -> dict:
        return {"match_id": None,
                "tournament_id": int(self.scope["url_route"]["kwargs"]["tournament_id"])}

    async def connect(self) -> None:
        self.groups_joined = []
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode())
        token = (query.get("token") or [None])[0]
        standings_only = (query.get("only") or [None])[0] == "standings"
        self.frames = TokenBucket(RATE_BURST, RATE_PER_SECOND)
        await self.accept()
        if not await database_sync_to_async(_may_view)(tournament_id, user, token):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        games_broadcast.bind_event_loop(asyncio.get_running_loop())
        self.groups_joined = [broadcast.group(tournament_id)]
        if getattr(user, "is_authenticated", False):
            self.groups_joined.append(broadcast.user_group(tournament_id, user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        opening = await database_sync_to_async(_opening)(tournament_id, user)
        if opening is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        text, match_id = opening
        await self.send(text_data=text)
        if match_id is not None:
            # A player whose match started while this page was away (a reconnect, a
            # message lost): taken to the table now, as ``match_ready`` does.
            await self.send(text_data=json.dumps(broadcast.match_ready(match_id)))
        if getattr(user, "is_authenticated", False) and not standings_only:
            # The room's history (if the viewer may read it) and its live messages.
            await self.chat_connect(user=user, **self.chat_room())

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.chat_disconnect()

    async def on_ping(self) -> None:
        await self.send(text_data=json.dumps({"type": "pong"}))

    async def chat_receive(self, content: dict) -> None:
        if self.chat_user is None:  # signed out, or the table's socket of standings only
            await self._error("chat_not_allowed", gettext("Sign in to chat."))
            return
        await super().chat_receive(content)

    async def tournament_message(self, event: dict) -> None:
        await self.send(text_data=event["text"])  # serialised once by the sender
