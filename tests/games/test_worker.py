"""Computer turns played by a real Celery worker through the real Redis broker,
seen live over the match WebSocket; a real daphne server restarted mid-match."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from websockets.sync.client import connect

from games import tasks
from games.engine import RuleSet
from games.models import Match, Move
from tests.factories import create_match
from tests.games.frames import TableState
from tests.games.helpers import states_by_version
from tests.games.sockets import Socket, choose_from_view, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@database_sync_to_async
def enqueue_duplicates(match_id: int, version: int) -> None:
    for _ in range(3):
        tasks.bot_turn_play.delay(match_id, version)


@database_sync_to_async
def log_of(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    states_by_version(match)  # the log replays
    return match, moves


async def test_a_real_worker_plays_the_computer_to_the_end(
    alice, unthrottled_sockets, live_celery_worker, settings
):
    settings.BOT_THINK_SECONDS = 0
    match = await database_sync_to_async(create_match)(
        alice, "easy", rules=RuleSet.time_freedom().replace(target_score=50), variant="time_freedom"
    )
    socket = await Socket.open(match.pk, alice)
    state = await socket.receive_type("state")
    duplicated_at = None
    for _ in range(2000):
        if state["match"]["status"] == "finished":
            break
        version = state["version"]
        if state["view"]["current_player"] == state["you"]:
            action = choose_from_view(state["view"])
            await socket.send({"type": "action", "version": version, "action": action})
        elif duplicated_at is None:
            # A redelivered task (or three) must not make the computer move twice.
            duplicated_at = version
            await enqueue_duplicates(match.pk, version)
        state = await socket.state_at_least(version + 1, timeout=20)
    else:
        raise AssertionError("the match did not end")
    await socket.close()

    match, moves = await log_of(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "target"
    assert [m.seq for m in moves] == list(range(2, match.version + 1))
    bot_seat = 1 - state["you"]
    assert any(m.seat == bot_seat for m in moves)
    assert duplicated_at is not None
    assert [m.seat for m in moves if m.seq == duplicated_at + 1] == [bot_seat]


def recv_state(ws, table: TableState, *, min_version: int = 0, my_turn: bool = False) -> dict:
    """The table's next state (a full ``state``, or an event frame applied to it)."""
    while True:
        state = table.take(json.loads(ws.recv(timeout=20)))
        if table.gap:
            table.gap = False
            ws.send(json.dumps({"type": "sync"}))
        if state is None or state["version"] < min_version:
            continue
        if my_turn and state["view"]["current_player"] != state["you"]:
            continue
        return state


def test_play_resumes_after_the_server_restarts(
    alice, live_asgi_server, live_celery_worker
):
    match = create_match(alice, "easy", variant="time_freedom")
    server = live_asgi_server
    options = {
        "additional_headers": {"Cookie": session_cookie(alice).decode()},
        "origin": server.url,
    }
    url = f"{server.ws_url}/ws/match/{match.pk}/"
    with connect(url, **options) as ws:
        table = TableState()
        state = recv_state(ws, table, my_turn=True)  # the worker plays the computer's first turn
        action = choose_from_view(state["view"])
        ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
        played = recv_state(ws, table, min_version=state["version"] + 1)
    server.restart()
    with connect(url, **options) as ws:
        table = TableState()
        resync = recv_state(ws, table)
        assert resync["version"] >= played["version"] and resync["you"] == state["you"]
        assert resync["match"]["id"] == match.pk
        if resync["view"]["current_player"] == resync["you"]:
            state = resync
        else:
            state = recv_state(ws, table, my_turn=True)
        action = choose_from_view(state["view"])
        ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))
        assert recv_state(ws, table, min_version=state["version"] + 1)["version"] > state["version"]
    assert Move.objects.filter(match=match, seat=state["you"]).count() >= 2
