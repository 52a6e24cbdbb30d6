"""A headless player for the fault tests: one WebSocket to a live ASGI process, that
plays whenever it is its turn, reconnects to the next process when its socket dies,
and records every action it sent and what became of it.

What the player saw is compared afterwards with the Move log: every action the
server acknowledged must be in the log once, and the log must hold nothing the
players did not send.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.games.frames import TableState
from tests.games.sockets import choose_from_view


@dataclass
class Submission:
    """One action frame: ``outcome`` is ``accepted`` (the socket then received the
    next version, showing this seat's action), ``refused`` (an error), or
    ``unknown`` (the socket died first, or the next state it saw does not tell)."""

    version: int
    action: dict[str, Any]
    seat: int
    outcome: str = "pending"
    sent_at: float = field(default_factory=time.monotonic)


@dataclass
class Player:
    """Plays seat ``you`` of ``match_id`` on the first of ``servers`` (base URLs),
    failing over to the next when a socket cannot be kept or opened."""

    name: str
    match_id: int
    cookie: str
    servers: list[str]
    pace: float = 0.2
    submissions: list[Submission] = field(default_factory=list)
    # Every state the player held: the full ones, and those after each event frame.
    states: list[dict[str, Any]] = field(default_factory=list)
    table: TableState = field(default_factory=TableState)
    errors: list[dict[str, Any]] = field(default_factory=list)
    connected_to: list[str] = field(default_factory=list)
    # (last version seen before a connection, version of its first state)
    resyncs: list[tuple[int, int]] = field(default_factory=list)
    drops: int = 0
    # Ask for the table again a second after a ``server_error`` (the page says "nothing
    # was changed, try again in a moment", and its person does), then play on it.
    retry_server_errors: bool = False
    finished: bool = False
    you: int | None = None
    server_index: int = 0

    @property
    def version(self) -> int:
        return self.states[-1]["version"] if self.states else 0

    def accepted(self) -> list[Submission]:
        return [s for s in self.submissions if s.outcome == "accepted"]

    async def play(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` is set or the match is over."""
        while not stop.is_set() and not self.finished:
            base = self.servers[self.server_index % len(self.servers)]
            url = base.replace("http://", "ws://") + f"/ws/match/{self.match_id}/"
            try:
                async with connect(
                    url, additional_headers={"Cookie": self.cookie}, origin=base,
                    open_timeout=5, close_timeout=1,
                ) as ws:
                    self.connected_to.append(base)
                    await self._session(ws, stop)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                self.drops += 1
                self.server_index += 1
                self._socket_lost()
                await asyncio.sleep(0.05)

    def _socket_lost(self) -> None:
        for submission in self.submissions:
            if submission.outcome == "pending":
                submission.outcome = "unknown"

    async def _session(self, ws: ClientConnection, stop: asyncio.Event) -> None:
        seen_before = self.version
        first = True
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.25)
            except TimeoutError:
                continue  # look at ``stop`` again
            frame = json.loads(text)
            if frame["type"] in ("state", "event"):
                if first and frame["type"] == "state":
                    self.resyncs.append((seen_before, frame["version"]))
                    first = False
                state = self.table.take(frame)
                if state is None:
                    if self.table.gap:  # a version went missing: ask, as browsers do
                        self.table.gap = False
                        await ws.send(json.dumps({"type": "sync"}))
                    continue
                await self._on_state(ws, state)
                if self.finished:
                    return
            elif frame["type"] == "error":
                self.errors.append(frame)
                for submission in self.submissions:
                    if submission.outcome == "pending":
                        submission.outcome = "refused"
                if self.retry_server_errors and frame.get("code") == "server_error":
                    await asyncio.sleep(1.0)
                    await ws.send(json.dumps({"type": "sync"}))

    async def _on_state(self, ws: ClientConnection, state: dict[str, Any]) -> None:
        self.states.append(state)
        self.you = state["you"]
        for submission in self.submissions:
            if submission.outcome == "pending" and state["version"] > submission.version:
                submission.outcome = "accepted" if _shows_own_action(state, submission) else (
                    "unknown"
                )
        if state["match"]["status"] == "finished":
            self.finished = True
            return
        view = state["view"]
        if view is None or view["current_player"] != state["you"]:
            return
        if any(s.outcome == "pending" for s in self.submissions):
            return
        await asyncio.sleep(self.pace)
        action = choose_from_view(view)
        self.submissions.append(Submission(state["version"], action, state["you"]))
        await ws.send(json.dumps({"type": "action", "version": state["version"], "action": action}))


def _shows_own_action(state: dict[str, Any], submission: Submission) -> bool:
    """``state`` is the version right after ``submission`` and its last public event
    is that seat's action of the same kind (a state labelled with an older version
    than the position it shows, or a hand that ended, does not tell)."""
    history = (state["view"] or {}).get("history") or []
    if state["version"] != submission.version + 1 or not history:
        return False
    last = history[-1]
    kind = submission.action["type"]
    # A hand's end ("hand_over", no seat) does not tell either.
    return last.get("seat") == submission.seat and (
        last["type"] == kind or (kind == "knock" and last["type"] in ("gin", "big_gin"))
    )


def check_against_log(players: list[Player], moves: list[Any]) -> None:
    """The Move log of one match against what its players sent and saw.

    - the log has one move per version, without gaps;
    - every acknowledged action is in the log, at the version after the one it was
      sent for, by that seat;
    - every move in the log is an action a player sent for the version before it
      (acknowledged, or sent just as its socket died), so nothing was invented or
      applied a second time at a later version (the computer's moves aside).
    """
    seqs = [m.seq for m in moves]
    assert seqs == list(range(2, len(moves) + 2)), "a gap or a repeat in the Move log"
    by_seq = {m.seq: m for m in moves}
    sent: dict[int, list[tuple[int, dict]]] = {}
    for player in players:
        for submission in player.submissions:
            if submission.outcome == "accepted":
                move = by_seq.get(submission.version + 1)
                assert move is not None, f"{player.name}: acknowledged move lost {submission}"
                assert (move.seat, move.action) == (submission.seat, submission.action), (
                    f"{player.name}: {submission} acknowledged, but the log has {move.seq}: "
                    f"seat {move.seat} {move.action} (auto {move.auto}); "
                    f"{[(s.version, s.outcome) for s in player.submissions]} "
                    f"{[(f['version'], f['view']['current_player']) for f in player.states]}"
                )
            if submission.outcome != "refused":
                sent.setdefault(submission.version + 1, []).append(
                    (submission.seat, submission.action)
                )
    seats = {player.you for player in players}
    for move in moves:
        if move.seat in seats and not move.auto:
            assert (move.seat, move.action) in sent.get(move.seq, []), (
                f"move {move.seq} ({move.action}) was never sent for version {move.seq - 1}"
            )
