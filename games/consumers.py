"""The match WebSocket (``/ws/match/<id>/``, messages in docs/protocol.md).

Thin: authenticate by the session, parse and check each frame (its form by the models
of games/wire.py), call one service or selector, reply. A player's own answers go
straight down their socket; what other sockets must hear comes through the channel
layer from games.broadcast.
Bad input is answered with an ``error`` frame and never closes the socket.
A seated player's socket is renewed, with the process's other sockets, while it is
open (games/presence_renewer.py), so a socket lost with a killed process expires.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from games import broadcast, presence_renewer, selectors, services, wire
from games.chat.sockets import ChatSocketMixin
from games.db_threads import db
from games.errors import StaleVersionError
from games.models import Match
from ginsite.errors import AppError, error_frame
from ginsite.overload import Overloaded, is_overload
from ginsite.ratelimit import TokenBucket
from ginsite.socket_dispatch import QueuedDispatchConsumer

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
CLOSE_NOT_FOUND = 4404
CATCH_UP_GRACE_SECONDS = 1.0


class MatchConsumer(ChatSocketMixin, QueuedDispatchConsumer):
    """One socket of one match page: a seated player's or a spectator's."""

    # The socket's frames (ginsite/ratelimit.py TokenBucket): bursts of rate_burst,
    # rate_per_second sustained (far above what a person clicks; a flood gets
    # rate_limited errors).
    rate_burst = 30
    rate_per_second = 10.0

    match_id: int
    # The match by its primary key alone, built once: the services it is handed to
    # only read ``pk`` (building one per call showed in a socket process's profile:
    # docs/benchmarks-log.md, "daphne's per-frame costs").
    match_ref: Match
    seat: int | None
    version: int
    presence_renewal: asyncio.Future | None = None
    catching_up: asyncio.Future | None = None

    def ended(self) -> None:
        # However the consumer ends, its socket no longer renews its presence.
        self._leave_renewal()

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.match_ref = Match(pk=self.match_id)
        self.user = self.scope.get("user")
        self.version = 0
        self.seat = None
        self.joined: list[str] = []
        self.frames = TokenBucket(self.rate_burst, self.rate_per_second)
        match = await db(selectors.match_get)(match_id=self.match_id)
        await self.accept()
        if match is None:
            await self._send_error("not_found", "There is no such match.")
            await self.close(code=CLOSE_NOT_FOUND)
            return
        broadcast.bind_event_loop(asyncio.get_running_loop())
        # In the public group before the arrival is announced (after the seat's commit):
        # a player who arrives as the other does hears at least the later of the two.
        self.joined = [broadcast.public_group(self.match_id)]
        await self.channel_layer.group_add(self.joined[0], self.channel_name)
        self.seat = await db(services.seat_connect)(
            match=match, user=self.user, channel_name=self.channel_name
        )
        if self.seat is not None:
            presence_renewer.renewer().add(self)
        audience = (
            broadcast.spectator_group(self.match_id)
            if self.seat is None
            else broadcast.seat_group(self.match_id, self.seat)
        )
        self.joined.append(audience)
        await self.channel_layer.group_add(audience, self.channel_name)
        await self._send_state(force=True)
        # Table chat (games/chat/sockets.py): history, live messages, ban closes.
        await self.chat_connect(user=self.user, match_id=self.match_id)

    async def disconnect(self, code: int) -> None:
        await self.chat_disconnect()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.seat is not None:
            await self._stop_presence_renewal()
            await db(services.seat_disconnect)(
                match=self.match_ref, user=self.user, channel_name=self.channel_name
            )

    # --- presence, renewed with the process's other sockets (games/presence_renewer.py) ---

    async def rejoin_groups(self) -> None:
        for group in (*self.joined, *self.chat_groups):
            await self.channel_layer.group_add(group, self.channel_name)

    def renew_alone(self) -> None:
        """Renew this socket's presence on its own (the sweep expired it: it is
        registered again, and the table is told its player is back)."""
        self.presence_renewal = asyncio.ensure_future(
            db(services.seat_socket_renew)(
                match=self.match_ref, user=self.user, channel_name=self.channel_name
            )
        )

    def catch_up(self, version: int) -> None:
        """The match is at ``version``: a move broadcast while the socket was out of its
        groups is caught up with a full state. The version may also be a move whose
        frame is on its way: it gets a moment to arrive, since a full state would take
        the place of the move's event (and the table announces each move from its
        event)."""
        if version > self.version and self.catching_up is None:
            self.catching_up = asyncio.ensure_future(self._catch_up(version))

    async def _catch_up(self, version: int) -> None:
        try:
            await asyncio.sleep(CATCH_UP_GRACE_SECONDS)
            if version > self.version:
                with contextlib.suppress(Exception):
                    await self._send_state(force=False)
        finally:
            self.catching_up = None

    def _leave_renewal(self) -> None:
        presence_renewer.renewer().discard(self)
        if self.catching_up is not None:
            self.catching_up.cancel()

    async def _stop_presence_renewal(self) -> None:
        # A renewal already running in its database thread finishes first: one that
        # ran after the socket's row was deleted would register the socket again.
        self._leave_renewal()
        if self.presence_renewal is not None:
            with contextlib.suppress(Exception):
                await self.presence_renewal

    # --- client -> server -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await self._receive(text_data, bytes_data)
        except Exception as error:
            if is_overload(error):  # no database connection free in time: nothing done
                await self._send_error(Overloaded.code, str(Overloaded.default_message))
                return
            logger.exception("match socket %s: unexpected error", self.match_id)
            await self._send_error("server_error", "Something went wrong on the server.")

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if not self.frames.take():
            await self._send_error("rate_limited", "Too many messages; slow down.")
            return
        if text_data is None:
            await self._send_error("bad_message", "Send JSON text frames, not binary.")
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._send_error(
                "frame_too_large", f"Messages are limited to {MAX_FRAME_BYTES} bytes."
            )
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._send_error("bad_json", "That message is not valid JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._send_error("bad_message", 'A message is an object with a "type".')
            return
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            await self._send_error(
                "unknown_type",
                f"Unknown message type; use one of {', '.join(sorted(self.HANDLERS))}.",
            )
            return
        await handler(self, message)

    async def _on_action(self, message: dict[str, Any]) -> None:
        # The frame's form here (games/wire.py); the action's own form is the engine's,
        # checked after the seat, the version and the turn (docs/protocol.md's order).
        try:
            frame = wire.ActionMessage.model_validate(message)
        except wire.ValidationError:
            await self._send_error(
                "bad_message", 'An action message needs "version" (integer) and "action" (object).'
            )
            return
        await self._call(
            lambda match: services.move_submit(
                match=match, user=self.user, action=frame.action, expected_version=frame.version,
                answers_mover=True,
            )
        )

    async def _on_resign(self, message: dict[str, Any]) -> None:
        try:
            wire.ResignMessage.model_validate(message)
        except wire.ValidationError:
            await self._send_error("bad_message", 'A resign message needs "version" (integer).')
            return
        await self._call(lambda match: services.match_resign(match=match, user=self.user))

    async def _on_rematch(self, message: dict[str, Any]) -> None:
        await self._call(lambda match: services.match_rematch(match=match, user=self.user))

    async def _on_sync(self, message: dict[str, Any]) -> None:
        await self._send_state(force=True)

    async def _on_chat(self, message: dict[str, Any]) -> None:
        await self.chat_receive(message)

    HANDLERS: dict[str, Callable[[MatchConsumer, dict[str, Any]], Any]] = {
        "action": _on_action,
        "resign": _on_resign,
        "rematch": _on_rematch,
        "sync": _on_sync,
        "chat": _on_chat,
    }

    async def _call(self, service: Callable[[Match], Any]) -> None:
        """Run one service. A move answers with the mover's own message, built by the
        service from what it wrote; a refusal with the error (and, for a stale
        version, the current state)."""
        error, message = await db(self._call_sync)(service)
        if error is not None:
            await self._send(error_frame(error, version=message["version"]))
            if isinstance(error, StaleVersionError):
                await self._send_message(message, force=True)
            return
        if message is not None:
            await self._send_message(message, force=False)

    def _call_sync(
        self, service: Callable[[Match], Any]
    ) -> tuple[AppError | None, dict[str, Any] | None]:
        try:
            result = service(self.match_ref)
        except AppError as refused:
            state = selectors.match_state_message(match=self.match_ref, user=self.user)
            return refused, state
        return None, result.message if isinstance(result, services.MoveResult) else None

    # --- server -> client ---------------------------------------------------------------

    async def match_message(self, event: dict[str, Any]) -> None:
        await self._send_message(event["message"], force=False)

    async def match_presence(self, event: dict[str, Any]) -> None:
        await self._send(event["message"])

    async def match_deadline(self, event: dict[str, Any]) -> None:
        # At the version it was moved in (which it did not raise): a socket already sent a
        # later version has the deadline from that version's frame.
        if event["message"]["version"] >= self.version:
            await self._send(event["message"])

    async def _send_state(self, *, force: bool) -> None:
        state = await db(selectors.match_state_message)(
            match=self.match_ref, user=self.user
        )
        await self._send_message(state, force=force)

    async def _send_message(self, message: dict[str, Any], *, force: bool) -> None:
        # The same version can reach a socket twice (its own direct answer, then the
        # copy sent to its seat's group): send each version once, never go back.
        # A client that finds a gap in the versions asks for ``sync``.
        if not force and message["version"] <= self.version:
            return
        self.version = max(self.version, message["version"])
        await self._send(message)

    async def _send_error(self, code: str, text: str) -> None:
        await self._send(error_frame(AppError(text, code=code), version=self.version))

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))
