"""The bell over a page's one socket, through the real ASGI stack and the Redis channel
layer (docs/protocol.md, "Notification socket"):

- the tournament page's one socket, ``/ws/tournament/<id>/``, carries its standings,
  its chat and the bell together for a registered player; a visitor who is signed out
  gets the standings alone (and cannot chat); a finished tournament match's table opens
  it with ``?only=standings``: no chat, no bell;
- a seated player's match socket, ``/ws/match/<id>/``, carries that player's bell, each
  frame with the match version; the opponent's socket hears only the opponent's own,
  a spectator's socket nobody's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connections

from social import services as social
from tests.chat.helpers import receive_type, ws_connect
from tests.factories import create_match, create_tournament, create_user
from tests.games.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def close_db_connections() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


async def test_the_tournament_page_hears_standings_chat_and_bell_on_one_socket(
    close_db_connections: Any,
) -> None:
    ann, bob, cat = [await sync_to_async(create_user)(name) for name in ("ann", "bob", "cat")]
    t = await sync_to_async(create_tournament)("arena", [ann, bob], name="One Socket Arena")
    path = f"/ws/tournament/{t.pk}/"
    ann_ws = await ws_connect(ann, path)
    opening = [await ann_ws.receive_json_from(timeout=5) for _ in range(3)]
    assert [frame["type"] for frame in opening] == ["standings", "chat_history", "unread"]
    assert opening[2] == {"type": "unread", "unread": 0}
    visitor = await ws_connect(None, path)
    assert (await visitor.receive_json_from(timeout=5))["type"] == "standings"
    table = await ws_connect(ann, f"{path}?only=standings")
    assert (await table.receive_json_from(timeout=5))["type"] == "standings"

    # The bell: a follow reaches ann's page on the same socket.
    await sync_to_async(social.follow_create)(user=cat, followee=ann)
    frame = await receive_type(ann_ws, "notification")
    assert frame["unread"] == 1 and frame["notification"]["text"] == "cat follows you."
    # The chat: a player writes, the page reads it on the same socket.
    await ann_ws.send_json_to({"type": "chat", "text": "good luck"})
    line = await receive_type(ann_ws, "chat")
    assert (line["message"]["author"], line["message"]["text"]) == ("ann", "good luck")
    # A ping renews the online mark and is answered, as the standings socket always did.
    await ann_ws.send_json_to({"type": "ping"})
    assert await receive_type(ann_ws, "pong") == {"type": "pong"}

    # Neither the signed-out visitor's socket nor the table's heard the bell or the chat.
    assert await visitor.receive_nothing(timeout=0.5)
    assert await table.receive_nothing(timeout=0.2)
    for socket in (visitor, table):
        await socket.send_json_to({"type": "chat", "text": "hello"})
        refused = await receive_type(socket, "error")
        assert refused["code"] == "chat_not_allowed"
    for socket in (ann_ws, visitor, table):
        await socket.disconnect()


async def test_a_seated_players_match_socket_carries_their_own_bell_alone(
    close_db_connections: Any,
) -> None:
    ann, bob, cat, dan = [await sync_to_async(create_user)(n) for n in ("ann", "bob", "cat", "dan")]
    match = await sync_to_async(create_match)(ann, bob)
    ann_ws, bob_ws, dan_ws, nobody = [
        await Socket.open(match.pk, user) for user in (ann, bob, dan, None)
    ]
    for socket in (ann_ws, bob_ws, dan_ws, nobody):
        await socket.receive_type("state")
    version = ann_ws.last_state()["version"]
    for socket in (ann_ws, bob_ws):  # each seat hears its own player's count
        assert await socket.receive_bell("unread") == {
            "type": "unread", "version": version, "unread": 0}

    await sync_to_async(social.follow_create)(user=cat, followee=ann)
    frame = await ann_ws.receive_bell("notification")
    assert frame["version"] == version and frame["unread"] == 1
    assert frame["notification"]["text"] == "cat follows you."
    await sync_to_async(social.follow_create)(user=dan, followee=bob)
    assert (await bob_ws.receive_bell("notification"))["notification"]["text"] == (
        "dan follows you.")
    # (Who never hears whose bell: tests/security/test_hidden_information.py.)
    for socket in (dan_ws, nobody):
        await socket.drain()
        assert socket.bell == []
    for socket in (ann_ws, bob_ws, dan_ws, nobody):
        await socket.close()
