"""Tournament chat (the chat app's room for one tournament, over the tournament page's
one socket ``/ws/tournament/<id>/``) under the site's moderation, through the real ASGI
stack and the Redis channel layer: players post and every reader gets it live; someone not in the
tournament reads but cannot write; a muted player is refused; a hidden message
disappears; a ban closes the banned player's tournament chat socket; a report on a
tournament message reaches the admin's report queue, whose resolution mutes the
author; the page shows the panel."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import message_hide, user_ban, user_mute
from games.chat.models import ChatMessage, ChatReport
from games.chat.selectors import chat_can_read, chat_history
from games.chat.services import ChatError, chat_post
from games.tournaments import services
from tests.chat.helpers import receive_type, ws_connect
from tests.factories import create_moderator, create_tournament, create_user


def _tournament(*players, public=True):
    """A staff arena (public unless told) starting in an hour, ``players`` in it."""
    return create_tournament("arena", players, name="Chatty Arena", public=public,
                             starts_at=timezone.now() + timedelta(hours=1))


@database_sync_to_async
def _setup():
    ann, bob, eve = create_user("ann"), create_user("bob"), create_user("eve")
    t = _tournament(ann, bob)
    chat_post(user=ann, text="good luck all", tournament_id=t.pk)
    return t, ann, bob, eve


@pytest.fixture
async def close_db_connections() -> AsyncIterator[None]:
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
async def test_players_chat_live_outsiders_read_only_mute_hide_and_ban(
    close_db_connections,
) -> None:
    t, ann, bob, eve = await _setup()
    path = f"/ws/tournament/{t.pk}/"
    ann_ws, bob_ws, eve_ws = [await ws_connect(u, path) for u in (ann, bob, eve)]
    for socket in (ann_ws, bob_ws, eve_ws):
        history = await receive_type(socket, "chat_history")
        assert [(m["author"], m["text"]) for m in history["messages"]] == [
            ("ann", "good luck all")]

    await bob_ws.send_json_to({"type": "chat", "text": "see you in the final"})
    for socket in (ann_ws, bob_ws, eve_ws):
        frame = await receive_type(socket, "chat")
        assert (frame["message"]["author"], frame["message"]["text"]) == (
            "bob", "see you in the final")
        assert frame["message"]["seat"] is None

    # eve is not in the tournament: she reads, but her message is refused, unstored.
    await eve_ws.send_json_to({"type": "chat", "text": "let me in"})
    refused = await receive_type(eve_ws, "error")
    assert refused["code"] == "not_a_player" and "tournament" in refused["message"]

    mod = await database_sync_to_async(create_moderator)()
    await database_sync_to_async(user_mute)(
        staff=mod, user=bob, duration=timedelta(hours=1), reason="spam")
    notice = await receive_type(bob_ws, "chat_notice")
    assert notice["code"] == "muted"
    await bob_ws.send_json_to({"type": "chat", "text": "am I muted?"})
    muted = await receive_type(bob_ws, "error")
    assert muted["code"] == "muted" and "spam" in muted["message"]

    bobs = await database_sync_to_async(
        lambda: ChatMessage.objects.get(author=bob, tournament=t))()
    await database_sync_to_async(message_hide)(staff=mod, message=bobs, reason="rude")
    for socket in (ann_ws, eve_ws):
        assert (await receive_type(socket, "chat_hidden"))["id"] == bobs.pk

    await database_sync_to_async(user_ban)(staff=mod, user=ann, reason="abuse")
    closed = await receive_type(ann_ws, "error")
    assert closed["code"] == "account_closed"
    assert (await ann_ws.receive_output(timeout=5))["type"] == "websocket.close"

    texts = await database_sync_to_async(lambda: sorted(
        ChatMessage.objects.filter(tournament=t).values_list("text", flat=True)))()
    assert texts == ["good luck all", "see you in the final"]
    lobby = await database_sync_to_async(chat_history)(user=eve, match_id=None)
    assert lobby == [], "tournament messages stay in the tournament's room"
    for socket in (bob_ws, eve_ws):
        await socket.disconnect()


@pytest.mark.django_db
def test_a_banned_or_removed_player_cannot_post_and_a_private_room_is_closed_to_outsiders():
    ann, bob, eve, mod = (create_user("ann"), create_user("bob"), create_user("eve"),
                          create_moderator())
    t = _tournament(ann, bob, public=False)
    user_ban(staff=mod, user=ann, reason="cheating")
    ann.refresh_from_db()
    with pytest.raises(ChatError) as banned:
        chat_post(user=ann, text="hello?", tournament_id=t.pk)
    assert banned.value.code == "chat_not_allowed"
    services.entrant_remove(entrant=t.entrants.get(user=bob), staff=mod, reason="abuse")
    with pytest.raises(ChatError) as removed:
        chat_post(user=bob, text="hello?", tournament_id=t.pk)
    assert removed.value.code == "not_a_player"
    assert not ChatMessage.objects.filter(tournament=t).exists()
    # A private tournament's room: its outsiders neither read nor write.
    message = chat_post(user=mod, text="Welcome, players.", tournament_id=t.pk)
    assert chat_can_read(user=mod, match_id=None, tournament_id=t.pk)
    assert not chat_can_read(user=eve, match_id=None, tournament_id=t.pk)
    client = Client()
    client.force_login(eve)
    answer = client.post(f"/chat/messages/{message.pk}/report/",
                         json.dumps({"reason": "spam"}), content_type="application/json")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_such_message"


@pytest.mark.django_db
def test_a_report_on_a_tournament_message_is_resolved_from_the_admin_queue():
    ann, eve = create_user("ann"), create_user("eve")
    t = _tournament(ann)
    chat_post(user=ann, text="before", tournament_id=t.pk)
    rude = chat_post(user=ann, text="you all stink", tournament_id=t.pk)
    chat_post(user=ann, text="elsewhere")  # the lobby: not in the tournament's context
    reader = Client()
    reader.force_login(eve)
    sent = reader.post(f"/chat/messages/{rude.pk}/report/",
                       json.dumps({"reason": "abuse", "comment": "insults"}),
                       content_type="application/json")
    assert sent.status_code == 200 and sent.json()["ok"]
    report = ChatReport.objects.get()
    assert (report.message, report.reporter, report.reason) == (rude, eve, "abuse")

    staff = Client()
    staff.force_login(create_moderator())
    url = reverse("admin:chat_chatreport_change", args=[report.pk])
    page = staff.get(url).content.decode()
    assert f"tournament {t.pk}" in page
    assert "before" in page and "you all stink" in page and "elsewhere" not in page
    listing = staff.get(reverse("admin:chat_chatmessage_changelist") + "?room=tournament")
    assert "you all stink" in listing.content.decode()
    assert "elsewhere" not in listing.content.decode()
    done = staff.post(url, {"action": "mute", "duration": "1h", "also_hide": "on",
                            "reason": "insults in the tournament chat"})
    assert done.status_code == 302
    report.refresh_from_db()
    assert report.status == ChatReport.Status.ACTIONED
    assert [m["text"] for m in chat_history(user=eve, match_id=None, tournament_id=t.pk)] == [
        "before"]
    with pytest.raises(ChatError) as muted:
        chat_post(user=ann, text="sorry", tournament_id=t.pk)
    assert muted.value.code == "muted"


@pytest.mark.django_db
def test_the_tournament_page_has_the_chat_panel_for_players_and_read_only_for_others(client):
    ann, eve = create_user("ann"), create_user("eve")
    t = _tournament(ann)
    url = reverse("tournaments:detail", args=[t.pk])
    client.force_login(ann)
    page = client.get(url).content.decode()
    # The panel opens no socket of its own: the page's one socket carries the chat.
    assert 'data-room="tournament"' in page and "data-ws-path" not in page
    assert f'"wsPath": "/ws/tournament/{t.pk}/"' in page
    assert "Tournament chat" in page and "data-chat-form" in page
    client.force_login(eve)
    page = client.get(url).content.decode()
    assert "data-chat-log" in page and "data-chat-form" not in page
    assert "Join the tournament to chat here." in page
