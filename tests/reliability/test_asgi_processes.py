"""Two live ASGI processes share the Redis channel layer, with the two players of
each match on different processes: a process killed with SIGKILL mid-match loses
no accepted move and applies none twice; the same move sent from two tabs (one on
each process) at the same instant is applied once."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from websockets.asyncio.client import connect

from games.models import Move
from tests.games.frames import TableState
from tests.reliability.common import (
    assert_frames_hide_secrets,
    cookie,
    move_log,
    people_matches,
    versions,
    wait_for,
)
from tests.reliability.players import Player, check_against_log

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = 4


async def test_kill_9_of_an_asgi_process_mid_match(asgi_pair):
    first, second = asgi_pair
    matches = await database_sync_to_async(people_matches)(MATCHES, "k")
    players: list[Player] = []
    for match, host, guest in matches:
        players.append(Player(f"{host.username}", match.pk, await _cookie(host),
                              servers=[first.url, second.url]))
        players.append(Player(f"{guest.username}", match.pk, await _cookie(guest),
                              servers=[second.url, first.url]))
    ids = [m.pk for m, _h, _g in matches]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players]
    try:
        await wait_for(lambda: _all_at_least(ids, {i: 8 for i in ids}), 30, "play to start")
        at_kill = await versions(ids)
        await asyncio.to_thread(first.kill)
        # Play goes on: the killed process's players reconnect to the other one.
        await wait_for(
            lambda: _all_at_least(ids, {i: v + 8 for i, v in at_kill.items()}), 40,
            "play to go on after the kill",
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        await asyncio.to_thread(first.start)

    for player in players[0::2]:  # the hosts started on the killed process
        assert player.drops >= 1 and player.connected_to[0] == first.url
        assert player.connected_to[-1] == second.url
        # Each (re)connection began with a full state no older than the last one seen.
        assert len(player.resyncs) >= 2
        assert all(after >= before for before, after in player.resyncs)
    for player in players[1::2]:
        assert player.connected_to == [second.url], "the surviving process kept its sockets"
    for match_id in ids:
        pair = [p for p in players if p.match_id == match_id]
        log = await move_log(match_id)
        check_against_log(pair, log)
        # Every frame they received over the two processes hid what it must.
        await assert_frames_hide_secrets(match_id, [(p.you, p.states) for p in pair])
        assert len(log) >= 16
        assert sum(len(p.accepted()) for p in pair) >= len(log) // 2


async def test_the_same_move_from_two_tabs_at_once_is_applied_once(asgi_pair):
    first, second = asgi_pair
    [(match, host, guest)] = await database_sync_to_async(people_matches)(1, "d")
    host_cookie, guest_cookie = await _cookie(host), await _cookie(guest)
    path = f"/ws/match/{match.pk}/"

    def open_socket(server, user_cookie):
        return connect(server.ws_url + path, additional_headers={"Cookie": user_cookie},
                       origin=server.url, open_timeout=10)

    async with (
        open_socket(first, host_cookie) as tab_one,
        open_socket(second, host_cookie) as tab_two,
        open_socket(first, guest_cookie) as opponent,
    ):
        tabs = [Tab(tab_one), Tab(tab_two)]
        other = Tab(opponent)
        doubled = 0
        for _ in range(12):
            state = await other.state_at_least(0)
            version = state["version"]
            states = [await tab.state_at_least(version) for tab in tabs]
            if states[0]["view"]["current_player"] != states[0]["you"]:
                await other.act(state)
                continue
            # Both tabs send the same action for the same version at the same instant.
            action = states[0]["view"]["legal_actions"][0]
            frame = json.dumps({"type": "action", "version": version, "action": action})
            await asyncio.gather(*(tab.ws.send(frame) for tab in tabs))
            after = [await tab.state_at_least(version + 1) for tab in tabs]
            stale = [await tab.stale_errors() for tab in tabs]
            assert sorted(stale) == [0, 1], "exactly one tab was told its action was stale"
            assert after[0]["version"] == after[1]["version"] == version + 1
            doubled += 1
            await other.state_at_least(version + 1)
        assert doubled >= 4
    log = await move_log(match.pk)
    assert [m.seq for m in log] == list(range(2, log[-1].seq + 1))
    host_seat = await database_sync_to_async(lambda: match.seats.get(user=host).index)()
    assert await database_sync_to_async(
        lambda: Move.objects.filter(match=match, seat=host_seat).count()
    )() == doubled


async def test_a_fragmented_multibyte_message_reaches_the_player_on_the_other_process(
    asgi_pair
):
    """Frames are unmasked by ginsite/websocket_frames.py: a chat line of multi-byte
    text, sent as three masked frames (cut inside a character), arrives whole."""
    first, second = asgi_pair
    [(match, host, guest)] = await database_sync_to_async(people_matches)(1, "f")
    path = f"/ws/match/{match.pk}/"
    text = "Gin! ♠♥♦♣ Grüße, どうぞ " * 10
    frame = json.dumps({"type": "chat", "text": text}, ensure_ascii=False)
    cut = [frame.index("♥") + 1, frame.index("ど") + 1]
    async with (
        connect(first.ws_url + path, additional_headers={"Cookie": await _cookie(host)},
                origin=first.url, open_timeout=10) as writer,
        connect(second.ws_url + path, additional_headers={"Cookie": await _cookie(guest)},
                origin=second.url, open_timeout=10) as reader,
    ):
        for ws in (writer, reader):  # connected: the history came
            await _frame_of_type(ws, "chat_history")
        await writer.send([frame[:cut[0]], frame[cut[0]:cut[1]], frame[cut[1]:]])
        for ws in (writer, reader):
            message = (await _frame_of_type(ws, "chat"))["message"]
            assert message["text"] == text.strip()


async def _frame_of_type(ws, kind: str) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame


class Tab:
    """One socket, read frame by frame."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.last: dict | None = None
        self.stale = 0
        self.table = TableState()

    async def _take(self, frame: dict) -> None:
        state = self.table.take(frame)
        if state is not None:
            self.last = state
        elif self.table.gap:  # a version went missing: ask, as the browser does
            self.table.gap = False
            await self.ws.send(json.dumps({"type": "sync"}))

    async def state_at_least(self, version: int) -> dict:
        while self.last is None or self.last["version"] < version:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=15))
            if frame["type"] in ("state", "event"):
                await self._take(frame)
            elif frame["type"] == "error":
                assert frame["code"] == "stale_version", frame
                self.stale += 1
        return self.last

    async def stale_errors(self) -> int:
        """Stale errors received so far for the current round (then reset): waits
        briefly so an error already on its way is counted."""
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=0.5))
                if frame["type"] == "error":
                    assert frame["code"] == "stale_version", frame
                    self.stale += 1
                elif frame["type"] in ("state", "event"):
                    await self._take(frame)
        except TimeoutError:
            pass
        count, self.stale = self.stale, 0
        return count

    async def act(self, state: dict) -> None:
        from tests.games.sockets import choose_from_view

        action = choose_from_view(state["view"])
        await self.ws.send(json.dumps(
            {"type": "action", "version": state["version"], "action": action}
        ))
        await self.state_at_least(state["version"] + 1)


async def _cookie(user) -> str:
    return await database_sync_to_async(cookie)(user)


async def _all_at_least(ids: list[int], targets: dict[int, int]) -> bool:
    from games.models import Match

    done = await database_sync_to_async(
        lambda: dict(Match.objects.filter(pk__in=ids).values_list("pk", "status"))
    )()
    now = await versions(ids)
    return all(now[i] >= targets[i] or done[i] == "finished" for i in ids)
