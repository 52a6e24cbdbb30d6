"""Table chat over the match WebSocket (games/consumers.py with ChatSocketMixin),
through the real ASGI stack and the Redis channel layer: history after the state on
join, messages to both players with the match version and the author's seat,
spectators read-only (or not at all, by setting), chat errors to the sender alone,
and a ban that closes the banned player's match socket and resigns the match."""

from collections.abc import AsyncIterator

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from accounts.services import user_ban, user_mute
from games.chat.services import chat_post
from games.models import Match
from tests.chat.helpers import receive_type, ws_connect
from tests.factories import create_match, create_moderator, create_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def close_db_connections() -> AsyncIterator[None]:
    yield
    await database_sync_to_async(connections.close_all)()


@database_sync_to_async
def friends_at_a_table() -> tuple[Match, object, object, object]:
    ann, bob, eve = create_user("ann"), create_user("bob"), create_user("eve")
    match = create_match(ann, bob, variant="time_freedom")
    chat_post(user=ann, text="glhf", match_id=match.pk)
    match.refresh_from_db()
    return match, ann, bob, eve


async def joined(match: Match, user: object) -> tuple[WebsocketCommunicator, dict]:
    socket = await ws_connect(user, f"/ws/match/{match.pk}/")
    state = await receive_type(socket, "state")
    history = await receive_type(socket, "chat_history")
    assert history["version"] == state["version"]
    return socket, history


async def test_players_chat_live_with_history_and_their_seats() -> None:
    match, ann, bob, _ = await friends_at_a_table()
    ann_ws, history = await joined(match, ann)
    assert [(m["author"], m["text"]) for m in history["messages"]] == [("ann", "glhf")]
    bob_ws, _ = await joined(match, bob)
    bob_seat = await database_sync_to_async(lambda: match.seats.get(user=bob).index)()

    await bob_ws.send_json_to({"type": "chat", "text": "Nice gin! <script>alert(1)</script>"})
    for socket in (ann_ws, bob_ws):
        frame = await receive_type(socket, "chat")
        assert frame["version"] == match.version
        assert frame["message"]["author"] == "bob"
        assert frame["message"]["seat"] == bob_seat
        assert frame["message"]["text"] == "Nice gin! <script>alert(1)</script>"
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_spectators_read_but_cannot_write(settings) -> None:
    settings.CHAT_SPECTATORS_CAN_READ = True
    match, ann, _, eve = await friends_at_a_table()
    eve_ws, history = await joined(match, eve)
    assert [m["text"] for m in history["messages"]] == ["glhf"]
    await eve_ws.send_json_to({"type": "chat", "text": "psst"})
    error = await receive_type(eve_ws, "error")
    assert error["code"] == "not_a_player" and "version" in error
    ann_ws, _ = await joined(match, ann)
    await ann_ws.send_json_to({"type": "chat", "text": "hello"})
    assert (await receive_type(eve_ws, "chat"))["message"]["text"] == "hello"
    await ann_ws.disconnect()
    await eve_ws.disconnect()


async def test_spectators_see_nothing_when_the_setting_is_off(settings) -> None:
    settings.CHAT_SPECTATORS_CAN_READ = False
    match, ann, _, eve = await friends_at_a_table()
    eve_ws = await ws_connect(eve, f"/ws/match/{match.pk}/")
    assert (await eve_ws.receive_json_from(timeout=5))["type"] == "state"
    ann_ws, _ = await joined(match, ann)
    await ann_ws.send_json_to({"type": "chat", "text": "private"})
    await receive_type(ann_ws, "chat")
    # Nothing of the chat reaches the spectator: no history, no message.
    while not await eve_ws.receive_nothing(timeout=0.5):
        assert not (await eve_ws.receive_json_from())["type"].startswith("chat")
    await ann_ws.disconnect()
    await eve_ws.disconnect()


async def test_a_muted_player_is_refused_with_the_reason_and_can_still_play() -> None:
    from datetime import timedelta

    match, ann, bob, _ = await friends_at_a_table()
    mod = await database_sync_to_async(create_moderator)()
    ann_ws, _ = await joined(match, ann)
    bob_ws, _ = await joined(match, bob)
    await database_sync_to_async(user_mute)(
        staff=mod, user=ann, duration=timedelta(minutes=15), reason="gloating"
    )
    notice = await receive_type(ann_ws, "chat_notice")
    assert "gloating" in notice["text"]
    await ann_ws.send_json_to({"type": "chat", "text": "ha ha"})
    error = await receive_type(ann_ws, "error")
    assert error["code"] == "muted" and "gloating" in error["message"]
    assert "UTC" in error["message"]
    while not await bob_ws.receive_nothing(timeout=0.3):
        assert (await bob_ws.receive_json_from())["type"] != "chat"
    # Muted, not banned: the game goes on (a sync still answers with the state).
    await ann_ws.send_json_to({"type": "sync"})
    assert (await receive_type(ann_ws, "state"))["match"]["status"] == "active"
    await ann_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_ban_closes_the_match_socket_and_the_opponent_wins() -> None:
    match, ann, bob, _ = await friends_at_a_table()
    mod = await database_sync_to_async(create_moderator)()
    ann_ws, _ = await joined(match, ann)
    bob_ws, _ = await joined(match, bob)
    await database_sync_to_async(user_ban)(staff=mod, user=ann, reason="abuse")
    error = await receive_type(ann_ws, "error")
    assert error["code"] == "account_closed" and "abuse" in error["message"]
    closed = await ann_ws.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4003}
    final = await receive_type(bob_ws, "state")
    while final["match"]["status"] != "finished":
        final = await receive_type(bob_ws, "state")
    assert final["match"]["end_reason"] == "suspended"  # a forfeit, not a resignation
    assert final["match"]["winner"] == final["you"]
    await bob_ws.disconnect()
