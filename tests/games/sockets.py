"""A WebSocket test client for the match consumer, through the real ASGI stack
(origin check, session auth) and the real Redis channel layer."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from ginsite.asgi import application
from tests.games.frames import TableState

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


class Socket:
    """One browser tab's socket: records every frame it receives, and keeps the table
    as the browser does (``state`` messages, with ``event`` frames applied: the
    ``states`` list holds each of those states in turn)."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[dict[str, Any]] = []
        self.table = TableState()
        self.states: list[dict[str, Any]] = []
        # The bell's frames (a seated player's own notifications: social/consumers.py).
        self.bell: list[dict[str, Any]] = []
        self.bell_read = 0

    @classmethod
    async def open(cls, match_id: int, user: Any = None) -> Socket:
        headers = [ORIGIN]
        if user is not None:
            headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
        communicator = WebsocketCommunicator(
            application, f"/ws/match/{match_id}/", headers=headers
        )
        connected, _ = await communicator.connect(timeout=10)
        assert connected
        return cls(communicator)

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        """The next frame of live play (the table chat's and the bell's are not ours: the
        bell's are kept in ``bell``)."""
        while True:
            frame = await self._next(timeout)
            if frame is not None:
                return frame

    async def receive_bell(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next of the bell's frames of ``kind`` (``unread``, ``notification``)."""
        while True:
            while self.bell_read < len(self.bell):
                frame = self.bell[self.bell_read]
                self.bell_read += 1
                if frame["type"] == kind:
                    return frame
            await self._next(timeout)

    async def drain(self, quiet: float = 0.3) -> None:
        """Read every frame that comes until none has for ``quiet`` seconds."""
        while not await self.communicator.receive_nothing(timeout=quiet):
            await self._next(10)

    async def _next(self, timeout: float) -> dict[str, Any] | None:
        """Read one frame: a frame of live play is recorded and returned, the bell's
        kept in ``bell``, the chat's dropped."""
        frame = await self.communicator.receive_json_from(timeout=timeout)
        if frame["type"] in ("unread", "notification"):
            self.bell.append(frame)
            return None
        if frame["type"].startswith("chat"):
            return None
        self.frames.append(frame)
        state = self.table.take(frame)
        if state is not None:
            self.states.append(state)
        elif self.table.gap:  # a version went missing: ask, as the browser does
            self.table.gap = False
            await self.send({"type": "sync"})
        return frame

    async def receive_type(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next frame of ``kind``; for "state", the table's next state, whether a
        full ``state`` or an ``event`` frame applied to the one before."""
        while True:
            frame = await self.receive(timeout)
            if kind == "state" and frame["type"] in ("state", "event"):
                if self.states and self.states[-1]["version"] == frame["version"]:
                    return self.states[-1]
            elif frame["type"] == kind:
                return frame

    async def presence_until(self, seat: int, connected: bool,
                             timeout: float = 10) -> dict[str, Any]:
        """The first presence frame that shows ``seat`` connected (or not). Two players
        who arrive together each announce themselves: a socket hears one or both."""
        while True:
            frame = await self.receive_type("presence", timeout)
            if frame["seats"][seat]["connected"] is connected:
                return frame

    async def state_at_least(self, version: int, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = await self.receive_type("state", timeout)
            if frame["version"] >= version:
                return frame

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def close(self) -> None:
        await self.communicator.disconnect()

    def last_state(self) -> dict[str, Any]:
        return self.states[-1]

    def state_versions(self) -> list[int]:
        return [state["version"] for state in self.states]


def value(card: str) -> int:
    return VALUES.get(card[0]) or int(card[0])


def choose_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A sensible action from a player view alone: gin or knock when legal, else
    draw from the stock and discard the highest unmelded card."""
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock"):
        ends = [a for a in legal if a["type"] == kind]
        if ends:
            return ends[0]
    if view["phase"] == "first_turn":
        return {"type": "pass"}
    if view["phase"] == "draw":
        return {"type": "draw", "source": "stock"}
    discards = [a for a in legal if a["type"] == "discard"]
    loose = [a for a in discards if a["card"] in view["deadwood_cards"]] or discards
    return max(loose, key=lambda a: value(a["card"]))
