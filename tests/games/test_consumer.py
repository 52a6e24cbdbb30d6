"""The match WebSocket through the real ASGI stack and the real Redis channel layer:
who gets which state, bad input, presence, idle sockets, resign and rematch, and a
whole match in which no frame shows anything the recipient may not see."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.layers import get_channel_layer

from games import broadcast, services
from games.consumers import MatchConsumer
from games.engine import RuleSet
from games.models import Hand, Match, Move
from tests.factories import create_match
from tests.games.helpers import assert_frame_hides_secrets, current_state, states_by_version
from tests.games.sockets import Socket, choose_from_view

pytestmark = pytest.mark.django_db(transaction=True)

FAST_NO_CLOCK = RuleSet.time_freedom().replace(target_score=50)


async def friends_match(alice, bob, rules: RuleSet = FAST_NO_CLOCK) -> Match:
    """``alice`` invites ``bob`` to a Time Freedom match (no clock), started."""
    return await sync_to_async(create_match)(alice, bob, rules=rules, variant="time_freedom")


@sync_to_async
def seat_of(match: Match, user) -> int:
    return match.seats.get(user=user).index


@sync_to_async
def db_snapshot(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return match.version, Move.objects.filter(match=match).count(), match.status


async def test_each_socket_gets_its_own_state(alice, bob, carol):
    match = await friends_match(alice, bob)
    a = await Socket.open(match.pk, alice)
    first = await a.receive()
    assert first["type"] == "state" and first["version"] == match.version
    assert first["you"] == await seat_of(match, alice)
    assert first["view"]["seat"] == first["you"] and len(first["view"]["hand"]) == 10
    assert first["match"]["status"] == "active" and first["match"]["rated"]
    assert [s["name"] for s in first["match"]["seats"]] == sorted(
        ["alice", "bob"], key=lambda n: first["match"]["seats"][0]["name"] != n
    )

    b = await Socket.open(match.pk, bob)
    assert (await b.receive())["you"] == 1 - first["you"]
    presence = await a.presence_until(await seat_of(match, bob), True)
    assert presence["version"] == match.version
    assert all(s["connected"] for s in presence["seats"])

    for watcher in (await Socket.open(match.pk, carol), await Socket.open(match.pk)):
        state = await watcher.receive()
        assert state["you"] is None and state["view"]["hand"] == []
        assert state["view"]["seat"] is None
        await watcher.close()

    missing = await Socket.open(10**9, alice)
    error = await missing.receive()
    assert (error["type"], error["code"]) == ("error", "not_found")
    closed = await missing.communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}
    for socket in (a, b):
        await socket.close()


async def move_of_the_player_to_move(sockets: dict[int, Socket]) -> tuple[int, int]:
    """The player to move plays a sensible action on their socket; (their seat, the
    new version) once both players' sockets show it."""
    table = sockets[0].last_state()
    mover = table["view"]["current_player"]
    mine = sockets[mover].last_state()
    await sockets[mover].send({"type": "action", "version": mine["version"],
                               "action": choose_from_view(mine["view"])})
    for socket in sockets.values():
        await socket.state_at_least(mine["version"] + 1)
    return mover, mine["version"] + 1


async def test_a_move_reaches_the_players_other_tab_and_not_their_only_socket_twice(
    alice, bob,
):
    """The socket that sent a move gets the answer straight back: its seat's group is
    sent the move only while the player has another tab open, which then hears every
    move of theirs as the opponent does."""
    match = await friends_match(alice, bob)
    seat = await seat_of(match, alice)
    sockets = {seat: await Socket.open(match.pk, alice), 1 - seat: await Socket.open(match.pk, bob)}
    for socket in sockets.values():
        await socket.receive_type("state")
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(broadcast.seat_group(match.pk, seat), listener)

    alices, bobs = [], []
    while not (alices and bobs and bobs[-1] > alices[0]):
        mover, version = await move_of_the_player_to_move(sockets)
        (alices if mover == seat else bobs).append(version)
    heard = []
    while bobs[-1] not in heard:
        message = await asyncio.wait_for(layer.receive(listener), timeout=10)
        heard.append(message["message"]["version"])
    assert not set(alices) & set(heard), (alices, heard)

    second_tab = await Socket.open(match.pk, alice)
    await second_tab.receive_type("state")
    while True:
        mover, version = await move_of_the_player_to_move(sockets)
        if mover == seat:
            break
    assert (await second_tab.state_at_least(version))["version"] == version
    for socket in (*sockets.values(), second_tab):
        await socket.close()


@sync_to_async
def hand_of(match_id: int, seat: int) -> list[str]:
    return current_state(Match.objects.get(pk=match_id)).player_view(seat)["hand"]


async def test_the_host_waiting_for_a_friend_gets_their_own_hand(alice, bob):
    match = await sync_to_async(services.match_create_invite)(user=alice)
    host = await Socket.open(match.pk, alice)
    waiting = await host.receive_type("state")
    assert waiting["match"]["status"] == "waiting" and waiting["view"] is None
    assert waiting["version"] == 0 and waiting["you"] in (0, 1)
    await sync_to_async(services.match_join_invite)(user=bob, token=match.invite_token)
    started = await host.state_at_least(1)
    assert started["you"] == waiting["you"] == await seat_of(match, alice)
    assert started["view"]["hand"] == await hand_of(match.pk, waiting["you"])
    await host.close()


async def test_bad_input_is_answered_and_changes_nothing(alice, bob, carol):
    match = await friends_match(alice, bob)
    a, b, c = [await Socket.open(match.pk, u) for u in (alice, bob, carol)]
    state = await a.receive()
    await b.receive()
    await c.receive()
    mover, waiter = (a, b) if state["view"]["current_player"] == state["you"] else (b, a)
    before = await db_snapshot(match.pk)
    version = match.version
    legal = {"type": "pass"}
    cases = [
        (mover, "{not json", "bad_json"),
        (mover, "[1, 2]", "bad_message"),
        (mover, json.dumps({"type": 5}), "bad_message"),
        (mover, json.dumps({"type": "fly"}), "unknown_type"),
        (mover, json.dumps({"type": "sync", "pad": "x" * 5000}), "frame_too_large"),
        (mover, json.dumps({"type": "action", "action": legal}), "bad_message"),
        (mover, json.dumps({"type": "action", "version": "1", "action": legal}), "bad_message"),
        (mover, json.dumps({"type": "action", "version": True, "action": legal}), "bad_message"),
        (mover, json.dumps({"type": "action", "version": version, "action": []}), "bad_message"),
        (mover, json.dumps({"type": "resign"}), "bad_message"),
        (mover, json.dumps({"type": "action", "version": version,
                            "action": {"type": "draw", "source": "sky"}}), "malformed_action"),
        (mover, json.dumps({"type": "action", "version": version,
                            "action": {"type": "draw", "source": "stock"}}), "illegal_action"),
        (mover, json.dumps({"type": "rematch"}), "match_not_over"),
        (waiter, json.dumps({"type": "action", "version": version, "action": legal}),
         "not_your_turn"),
        (c, json.dumps({"type": "action", "version": version, "action": legal}), "not_a_player"),
        (c, json.dumps({"type": "resign", "version": version}), "not_a_player"),
    ]
    for socket, text, code in cases:
        await socket.send_text(text)
        error = await socket.receive_type("error")
        assert (error["type"], error["code"], error["version"]) == ("error", code, version), text
        assert error["message"]
    await mover.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await mover.receive_type("error"))["code"] == "bad_message"

    await mover.send({"type": "action", "version": version - 1, "action": legal})
    stale = await mover.receive()
    assert stale["code"] == "stale_version"
    resync = await mover.receive()
    assert resync["type"] == "state" and resync["version"] == version
    assert await db_snapshot(match.pk) == before

    await mover.send({"type": "sync"})
    assert (await mover.receive())["version"] == version

    # A flood is cut short: a socket's burst of frames is answered, the frames past it
    # get rate_limited. The socket opened for it refills nothing, so the count does not
    # depend on how fast a busy machine answers (at 10 a second, a slow run had answered
    # 60 frames before the burst ran out).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MatchConsumer, "rate_per_second", 0.0)
        flood = await Socket.open(match.pk, carol)
    await flood.receive_type("state")
    burst = MatchConsumer.rate_burst
    for _ in range(burst + 5):
        await flood.send({"type": "sync"})
    answers = []
    while len(answers) < burst + 5:
        frame = await flood.receive()
        if frame["type"] != "presence":
            answers.append(frame.get("code", frame["type"]))
    assert answers == ["state"] * burst + ["rate_limited"] * 5

    # After all that, every socket still works and the waiting one heard nothing.
    await mover.send({"type": "action", "version": version, "action": legal})
    assert (await mover.state_at_least(version + 1))["version"] == version + 1
    assert (await waiter.receive_type("state"))["version"] == version + 1
    assert [f["type"] for f in waiter.frames if f["type"] != "presence"] == [
        "state", "error", "event",
    ]
    for socket in (a, b, c, flood):
        await socket.close()


async def test_a_socket_idle_for_ten_seconds_still_receives(alice, bob):
    match = await friends_match(alice, bob)
    a, b = await Socket.open(match.pk, alice), await Socket.open(match.pk, bob)
    state = await a.receive()
    await b.receive()
    await a.receive_type("presence")
    mover, waiter = (a, b) if state["view"]["current_player"] == state["you"] else (b, a)
    await asyncio.sleep(10)
    await mover.send({"type": "action", "version": match.version, "action": {"type": "pass"}})
    assert (await waiter.state_at_least(match.version + 1, timeout=5))["version"] == (
        match.version + 1
    )
    for socket in (a, b):
        await socket.close()


async def test_a_socket_hears_the_presence_its_own_arrival_sends(alice, bob):
    """The socket is in the match's public group before its arrival is announced: so a
    player who connects at the same moment as the other never misses the other's
    arrival (CI once saw a first socket get no presence frame at all)."""
    match = await friends_match(alice, bob)
    a = await Socket.open(match.pk, alice)
    await a.receive()
    presence = await a.receive_type("presence", timeout=5)
    seats = presence["seats"]
    assert seats[await seat_of(match, alice)]["connected"] is True
    assert seats[await seat_of(match, bob)]["connected"] is False
    await a.close()


async def test_presence_and_resync_after_a_reload(alice, bob):
    match = await friends_match(alice, bob)
    a, b = await Socket.open(match.pk, alice), await Socket.open(match.pk, bob)
    await a.receive()
    await b.receive()
    bob_seat = await seat_of(match, bob)
    await a.presence_until(bob_seat, True)
    second_tab = await Socket.open(match.pk, bob)
    await second_tab.receive()
    await b.close()  # one of two tabs closed: still connected
    await second_tab.close()
    gone = await a.receive_type("presence")
    assert gone["seats"][bob_seat]["connected"] is False
    again = await Socket.open(match.pk, bob)
    resync = await again.receive()
    assert resync["version"] == match.version and resync["you"] == bob_seat
    back = await a.receive_type("presence")
    assert back["seats"][bob_seat]["connected"] is True
    for socket in (a, again):
        await socket.close()


async def test_resign_and_rematch_over_the_socket(alice, bob):
    match = await friends_match(alice, bob)
    a, b = await Socket.open(match.pk, alice), await Socket.open(match.pk, bob)
    await a.receive()
    await b.receive()
    await a.send({"type": "resign", "version": match.version})
    over = await a.state_at_least(match.version + 1)
    assert over["match"]["status"] == "finished" and over["match"]["end_reason"] == "resign"
    assert over["match"]["winner"] == 1 - over["you"]
    assert over["match"]["final"]["forfeit"] == over["you"]
    assert {h["number"] for h in over["match"]["hands"]} == {1}  # the seed is revealed
    assert (await b.state_at_least(match.version + 1))["match"]["status"] == "finished"
    await a.send({"type": "action", "version": over["version"], "action": {"type": "pass"}})
    assert (await a.receive())["code"] == "match_over"

    await a.send({"type": "rematch"})
    offered = await b.state_at_least(over["version"] + 1)
    assert offered["match"]["rematch"] == {"offered_by": over["you"], "match_id": None}
    await b.send({"type": "rematch"})
    accepted = await a.state_at_least(offered["version"] + 1)
    new_id = accepted["match"]["rematch"]["match_id"]
    assert new_id is not None
    assert (await b.state_at_least(offered["version"] + 1))["match"]["rematch"]["match_id"] == (
        new_id
    )
    for socket in (a, b):
        await socket.close()


@sync_to_async
def truth_of(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    seeds = {h.number: bytes(h.seed).hex() for h in Hand.objects.filter(match=match)}
    return states_by_version(match), seeds


async def test_a_whole_match_never_shows_a_hidden_card(
    alice, bob, carol, unthrottled_sockets
):
    # To 150: no single hand scores that much (at most about 130), so the match
    # always crosses from one hand to the next.
    rules = RuleSet.time_freedom().replace(target_score=150)
    match = await friends_match(alice, bob, rules)
    sockets = {
        await seat_of(match, alice): await Socket.open(match.pk, alice),
        await seat_of(match, bob): await Socket.open(match.pk, bob),
    }
    watcher = await Socket.open(match.pk, carol)
    states = {seat: await s.receive_type("state") for seat, s in sockets.items()}
    await watcher.receive_type("state")
    for _ in range(5000):
        any_state = states[0]
        if any_state["match"]["status"] == "finished":
            break
        mover = any_state["view"]["current_player"]
        version = any_state["version"]
        action = choose_from_view(states[mover]["view"])
        await sockets[mover].send({"type": "action", "version": version, "action": action})
        states[mover] = await sockets[mover].state_at_least(version + 1)
        for seat, socket in sockets.items():
            if seat != mover:
                states[seat] = await socket.state_at_least(version + 1)
            assert states[seat]["version"] == version + 1
        await watcher.state_at_least(version + 1)
    else:
        raise AssertionError("the match did not end")
    final = states[0]["match"]
    assert final["end_reason"] == "target" and final["final"]["over"]
    assert len(final["hands"]) >= 2

    truth, seeds = await truth_of(match.pk)
    for seat, socket in [*sockets.items(), (None, watcher)]:
        versions = socket.state_versions()
        assert versions == sorted(set(versions)), "each version arrives once, in order"
        for frame in socket.frames:
            assert_frame_hides_secrets(frame, seat, truth, seeds)
    for socket in [*sockets.values(), watcher]:
        await socket.close()
