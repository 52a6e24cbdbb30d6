"""A correspondence turn's deadline moved with no move reaches every open table at once
(docs/protocol.md, "deadline"): the player to move takes a vacation, or ends it, and
both players' tables and a spectator's hear the new deadline, at the match's version,
which does not change; a full state says the same. Through the real ASGI stack and the
Redis channel layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connections

from games.api import services as api_services
from games.models import Match
from games.services import correspondence
from tests.factories import create_challenge, create_user, seated
from tests.games.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def close_db_connections() -> AsyncIterator[None]:
    yield
    await sync_to_async(connections.close_all)()


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@sync_to_async
def _correspondence_match(a: Any, b: Any) -> tuple[Match, Any, Any]:
    challenge = create_challenge(a, b, variant="default", target=100, days=3)
    match = api_services.challenge_accept(user=b, challenge_id=challenge.pk)
    match.refresh_from_db()
    players = seated(match)
    return match, players[match.current_seat], players[1 - match.current_seat]


async def test_a_vacation_moves_the_deadline_on_every_open_table_live(
    close_db_connections: Any,
) -> None:
    alice, bob, sam = [await sync_to_async(create_user)(n) for n in ("alice", "bob", "sam")]
    match, mover, waiter = await _correspondence_match(alice, bob)
    sockets = [await Socket.open(match.pk, user) for user in (alice, bob, sam)]
    for socket in sockets:
        await socket.receive_type("state")
    version = match.version
    before = _instant(sockets[0].last_state()["match"]["correspondence"]["deadline"])
    assert abs(before - match.move_deadline) < timedelta(milliseconds=1)

    # The player to move goes on vacation for four days: four more days to move.
    await sync_to_async(correspondence.vacation_take)(user=mover, days=4)
    moved = []
    for socket in sockets:
        frame = await socket.receive_type("deadline")
        assert frame["version"] == version and frame["correspondence"]["days_per_move"] == 3
        moved.append(_instant(frame["correspondence"]["deadline"]))
    assert moved[0] == moved[1] == moved[2]
    assert timedelta(days=4) - timedelta(minutes=1) < moved[0] - before <= timedelta(days=4)
    # A full state (a page opened now, a sync) says the same, at the same version.
    await sockets[2].send({"type": "sync"})
    state = await sockets[2].receive_type("state")
    assert state["version"] == version
    assert _instant(state["match"]["correspondence"]["deadline"]) == moved[0]

    # Back early: the deadline comes back nearer, live again.
    await sync_to_async(correspondence.vacation_end)(user=mover)
    for socket in sockets:
        frame = await socket.receive_type("deadline")
        assert frame["version"] == version
        assert _instant(frame["correspondence"]["deadline"]) < moved[0]

    # The other player's vacation moves no deadline of this match (not their turn).
    await sync_to_async(correspondence.vacation_take)(user=waiter, days=2)
    for socket in sockets:
        await socket.drain()
        assert [f["type"] for f in socket.frames].count("deadline") == 2
        await socket.close()
