"""Fuzzing the match WebSocket: at least 10,000 random and mutated frames (wrong
types, huge strings, deep JSON, invalid cards, other seats, replayed versions)
from the player to move, a second tab of the other player, a spectator and an
anonymous visitor, through the real ASGI stack and the Redis channel layer.

Every frame must be answered with exactly the error the protocol names (the
frames the oracle says would be accepted are not sent), nothing may raise on the
server, the match must be exactly as before, and the other player's own socket
must hear nothing and still play on afterwards.

The socket's frame rate limit (5 a second) is lifted while fuzzing so the run
takes seconds; it is then checked on its own at the end. ``FUZZ_SEED`` replays a
run.
"""

from __future__ import annotations

import logging
import os
import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.chat.models import ChatMessage
from games.consumers import MatchConsumer
from games.models import Hand, Match, Move, Seat
from tests.factories import create_match, create_user, seated
from tests.games.helpers import current_state, play_one
from tests.games.sockets import Socket
from tests.security.frames import Frame, FrameMaker, Table, expected_code

pytestmark = pytest.mark.django_db(transaction=True)

FRAMES = 10_000
BATCH = 200


@sync_to_async
def setup_match() -> tuple:
    alice, bob, carol = create_user("alice"), create_user("bob"), create_user("carol")
    match = create_match(alice, bob, variant="time_freedom")
    # Into the discard phase: the mover holds 11 cards, and knocks, discards and the
    # discard-pile rule all come into play.
    rng = random.Random(7)
    while current_state(match).phase != "discard":
        play_one(match, rng)
    match.refresh_from_db()
    return match, alice, bob, carol


@sync_to_async
def snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    seats = list(Seat.objects.filter(match=match).values_list("index", "score", "user_id"))
    return (match.version, match.status, match.current_seat, hand.state, seats,
            Move.objects.filter(match=match).count(), ChatMessage.objects.count())


def players_in_turn_order(match: Match) -> tuple:
    seats = seated(match)
    return seats[match.current_seat], seats[1 - match.current_seat]


async def next_answer(socket: Socket) -> dict:
    """The next frame that answers this socket (presence news of others aside)."""
    while True:
        frame = await socket.receive()
        if frame["type"] != "presence":
            return frame


@sync_to_async
def table_of(match: Match, users: dict) -> Table:
    match.refresh_from_db()
    seats = {name: (match.seats.get(user=user).index if name in ("mover", "waiter") else None)
             for name, user in users.items()}
    state = current_state(match)
    assert seats["mover"] == state.current_player
    return Table(state=state, version=match.version, mover=state.current_player, seats=seats,
                 signed_in={name: user is not None for name, user in users.items()})


async def test_ten_thousand_bad_frames_change_nothing(monkeypatch, caplog):
    seed = int(os.environ.get("FUZZ_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    match, _alice, _bob, carol = await setup_match()
    monkeypatch.setattr(MatchConsumer, "rate_burst", 10**9)
    monkeypatch.setattr(MatchConsumer, "rate_per_second", 10.0**9)
    caplog.set_level(logging.WARNING)

    mover_user, waiter_user = await sync_to_async(players_in_turn_order)(match)
    users = {"mover": mover_user, "waiter": waiter_user, "spectator": carol, "anonymous": None}
    sockets = {name: await Socket.open(match.pk, user) for name, user in users.items()}
    observer = await Socket.open(match.pk, waiter_user)  # the other player's own tab
    for socket in [*sockets.values(), observer]:
        assert (await socket.receive_type("state"))["version"] == match.version
    table = await table_of(match, users)
    before = await snapshot(match.pk)

    maker = FrameMaker(rng, table)
    sent = skipped = 0
    codes: dict[str, int] = {}
    while sent < FRAMES:
        batch: list[tuple[Frame, str]] = []
        while len(batch) < BATCH:
            frame = maker.frame()
            code = expected_code(table, frame)
            if code is None:
                skipped += 1  # it would be accepted: not a bad frame
                continue
            batch.append((frame, code))
        for frame, _code in batch:
            key = "bytes" if isinstance(frame.payload, bytes) else "text"
            await sockets[frame.sender].communicator.send_input(
                {"type": "websocket.receive", key: frame.payload}
            )
        for frame, code in batch:
            socket = sockets[frame.sender]
            answer = await next_answer(socket)
            context = f"seed {seed}, frame {frame!r:.300}"
            assert answer["type"] == "error", context
            assert answer["code"] == code, f"{answer} {context}"
            assert answer["version"] == table.version and answer["message"], context
            if code == "stale_version":
                resync = await next_answer(socket)
                assert resync["type"] == "state" and resync["version"] == table.version
            codes[code] = codes.get(code, 0) + 1
        sent += len(batch)

    assert sent >= FRAMES
    assert await snapshot(match.pk) == before, f"seed {seed}: the match changed"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], f"seed {seed}"
    # Every kind of refusal was exercised.
    assert set(codes) >= {
        "bad_json", "bad_message", "unknown_type", "frame_too_large", "malformed_action",
        "illegal_action", "not_your_turn", "not_a_player", "stale_version", "match_not_over",
        "chat_not_allowed", "chat_empty", "chat_too_long",
    }, codes
    assert skipped < FRAMES  # the generator mostly makes bad frames

    # The other player heard nothing of it and plays on with the mover.
    assert [f for f in observer.frames[1:] if f["type"] != "presence"] == []
    legal = table.state.legal_actions()[0]
    await sockets["mover"].send({"type": "action", "version": table.version, "action": legal})
    assert (await sockets["mover"].state_at_least(table.version + 1))["version"] == (
        table.version + 1
    )
    assert (await observer.receive_type("state"))["version"] == table.version + 1
    for socket in [*sockets.values(), observer]:
        await socket.close()


async def test_the_frame_rate_limit_answers_and_ignores_a_flood():
    match, alice, _bob, _carol = await setup_match()
    socket = await Socket.open(match.pk, alice)
    state = await socket.receive_type("state")
    before = await snapshot(match.pk)
    flood = MatchConsumer.rate_burst * 4
    for _ in range(flood):
        await socket.send({"type": "resign", "version": "soon"})
    codes = [(await socket.receive_type("error"))["code"] for _ in range(flood)]
    # The burst is answered as usual; beyond it frames are refused unread.
    assert codes[: MatchConsumer.rate_burst] == ["bad_message"] * MatchConsumer.rate_burst
    assert codes.count("rate_limited") >= flood - MatchConsumer.rate_burst - 5
    assert await snapshot(match.pk) == before
    assert state["version"] == before[0]
    await socket.close()
