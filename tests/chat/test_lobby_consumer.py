"""The lobby chat WebSocket through the real ASGI application, the session cookie and
the Redis channel layer: history on join, live messages, errors to the sender only,
blocks, moderation notices, hidden messages, and a ban closing the socket at once."""

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from accounts.services import message_hide, user_ban, user_mute
from games.chat.models import ChatMessage
from games.chat.services import chat_post, user_block
from tests.chat.helpers import ORIGIN, session_cookie, ws_connect
from tests.factories import create_moderator, create_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 3


@pytest.fixture(autouse=True)
async def close_db_connections() -> AsyncIterator[None]:
    yield
    # The consumers' database thread keeps its connection (CONN_MAX_AGE): close it so
    # the test database can be flushed and dropped.
    await database_sync_to_async(connections.close_all)()


#: The lobby's socket also carries a signed-in player's bell (social/consumers.py): frames
#: these chat tests read past, as the chat panel does.
BELL = {"unread", "notification"}


async def receive(client: WebsocketCommunicator) -> dict:
    """The next chat frame."""
    while True:
        frame = await client.receive_json_from(timeout=TIMEOUT)
        if frame["type"] not in BELL:
            return frame


async def no_chat_within(client: WebsocketCommunicator, seconds: float) -> bool:
    """True if no chat frame arrives within ``seconds`` (bell frames are read past)."""
    while not await client.receive_nothing(timeout=seconds):
        if (await client.receive_json_from(timeout=TIMEOUT))["type"] not in BELL:
            return False
    return True


async def join(username: str) -> tuple[object, WebsocketCommunicator]:
    user = await database_sync_to_async(create_user)(username)
    client = await ws_connect(user)
    history = await receive(client)
    assert history["type"] == "chat_history"
    return user, client


async def test_history_on_join_then_live_messages_to_everyone() -> None:
    ann = await database_sync_to_async(create_user)("ann")
    await database_sync_to_async(chat_post)(user=ann, text="earlier")
    _bob, bob_ws = await join("bob")
    ann_ws = await ws_connect(ann)
    history = await receive(ann_ws)
    assert [m["text"] for m in history["messages"]] == ["earlier"]
    assert "version" not in history  # lobby messages have no match version

    await ann_ws.send_json_to({"type": "chat", "text": "Hello <b>lobby</b>"})
    for client in (ann_ws, bob_ws):
        event = await receive(client)
        assert event["type"] == "chat"
        assert event["message"]["author"] == "ann"
        assert event["message"]["text"] == "Hello <b>lobby</b>"
        assert set(event["message"]) == {"id", "author", "seat", "text", "created_at"}
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_errors_go_to_the_sender_only_and_the_socket_stays_open(settings) -> None:
    settings.CHAT_MAX_LENGTH = 10
    _, ann_ws = await join("ann")
    _, bob_ws = await join("bob")
    await ann_ws.send_json_to({"type": "chat", "text": "x" * 11})
    error = await receive(ann_ws)
    assert error["type"] == "error" and error["code"] == "chat_too_long"
    await ann_ws.send_to(text_data="{not json")
    assert (await receive(ann_ws))["code"] == "bad_json"
    await ann_ws.send_to(text_data="[" * 2000 + "]" * 2000)  # nested past Python's limit
    assert (await receive(ann_ws))["code"] == "bad_json"
    await ann_ws.send_json_to({"type": "dance"})
    assert (await receive(ann_ws))["code"] == "unknown_type"
    await ann_ws.send_to(text_data='{"type": "chat", "text": "' + "y" * 5000 + '"}')
    assert (await receive(ann_ws))["code"] == "frame_too_large"
    assert await no_chat_within(bob_ws, 0.3)
    await ann_ws.send_json_to({"type": "chat", "text": "still here"})
    assert (await receive(bob_ws))["message"]["text"] == "still here"
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_rate_limit_answers_with_a_clear_error_without_disconnecting(settings) -> None:
    settings.CHAT_RATE_COUNT = 2
    _, ann_ws = await join("ann")
    for text in ("one", "two"):
        await ann_ws.send_json_to({"type": "chat", "text": text})
        assert (await receive(ann_ws))["type"] == "chat"
    await ann_ws.send_json_to({"type": "chat", "text": "three"})
    error = await receive(ann_ws)
    assert error["code"] == "rate_limited" and "too fast" in error["message"]
    await ann_ws.disconnect()


async def test_a_flood_of_frames_is_cut_short_without_disconnecting() -> None:
    _, ann_ws = await join("ann")
    for _ in range(15):
        await ann_ws.send_to(text_data='{"type": "dance"}')
    codes = [(await receive(ann_ws))["code"] for _ in range(15)]
    assert codes.count("rate_limited") >= 4 and "unknown_type" in codes
    await ann_ws.disconnect()


async def test_a_blocked_authors_messages_do_not_reach_the_blocker() -> None:
    ann, ann_ws = await join("ann")
    bob, bob_ws = await join("bob")
    await database_sync_to_async(user_block)(blocker=ann, blocked=bob)
    await bob_ws.send_json_to({"type": "chat", "text": "can you hear me"})
    assert (await receive(bob_ws))["message"]["text"] == "can you hear me"
    assert await no_chat_within(ann_ws, 0.5)
    await ann_ws.send_json_to({"type": "chat", "text": "ann speaks"})
    assert (await receive(bob_ws))["message"]["text"] == "ann speaks"
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_signed_out_visitors_are_refused() -> None:
    from ginsite.asgi import application

    client = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert not connected


async def test_guests_read_but_cannot_write() -> None:
    guest = await database_sync_to_async(create_user)("guest-abc123", is_guest=True)
    client = await ws_connect(guest)
    assert (await receive(client))["type"] == "chat_history"
    await client.send_json_to({"type": "chat", "text": "hi"})
    error = await receive(client)
    assert error["code"] == "chat_not_allowed" and "sign up" in error["message"]
    await client.disconnect()


async def test_mute_notice_then_refusal_with_reason() -> None:
    mod = await database_sync_to_async(create_moderator)()
    ann, ann_ws = await join("ann")
    await database_sync_to_async(user_mute)(
        staff=mod, user=ann, duration=timedelta(hours=1), reason="shouting"
    )
    notice = await receive(ann_ws)
    assert notice["type"] == "chat_notice" and notice["code"] == "muted"
    assert "shouting" in notice["text"]
    await ann_ws.send_json_to({"type": "chat", "text": "LET ME SPEAK"})
    error = await receive(ann_ws)
    assert error["code"] == "muted" and "shouting" in error["message"] and "UTC" in error["message"]
    await ann_ws.disconnect()


async def test_hiding_a_message_removes_it_from_open_panels() -> None:
    mod = await database_sync_to_async(create_moderator)()
    _ann, ann_ws = await join("ann")
    _, bob_ws = await join("bob")
    await ann_ws.send_json_to({"type": "chat", "text": "spam spam"})
    message_id = (await receive(bob_ws))["message"]["id"]
    await receive(ann_ws)
    message = await database_sync_to_async(ChatMessage.objects.get)(pk=message_id)
    await database_sync_to_async(message_hide)(staff=mod, message=message, reason="spam")
    for client in (ann_ws, bob_ws):
        assert await receive(client) == {"type": "chat_hidden", "id": message_id}
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_ban_closes_the_open_socket_at_once_and_it_cannot_reconnect() -> None:
    from ginsite.asgi import application

    mod = await database_sync_to_async(create_moderator)()
    ann = await database_sync_to_async(create_user)("ann")
    cookie = await database_sync_to_async(session_cookie)(ann)
    headers = [ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    ann_ws = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await ann_ws.connect(timeout=TIMEOUT))[0]
    await receive(ann_ws)
    await database_sync_to_async(user_ban)(staff=mod, user=ann, reason="cheating")
    error = await receive(ann_ws)
    assert error["code"] == "account_closed" and "cheating" in error["message"]
    closed = await ann_ws.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4003}
    again = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert not (await again.connect(timeout=TIMEOUT))[0]
