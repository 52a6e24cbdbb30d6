"""The typed wire (games/wire.py) and its JSON Schemas (docs/schemas/).

The committed schema files and the browser's typedefs (games/static/games/wire.js)
are what the models generate; the action schema accepts exactly what the engine
accepts; the views of many hands of every variant fit the view schema; and every
frame the sockets send while real matches are played over the real ASGI stack and
Redis channel layer (a friend match to its end with chat, moderation, refusals, a
resignation and a rematch; a match against the computer; the lobby; an arena and a
Swiss tournament's sockets) fits its socket's schema, type by type.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.core.management import CommandError, call_command
from django.db import connections

from accounts import services as accounts
from games import services, wire, wire_files
from games.api import services as api_services
from games.chat.models import ChatMessage
from games.consumers import MatchConsumer
from games.engine import HandState, IllegalAction, MalformedAction, RuleSet
from games.models import Match
from games.services import correspondence
from games.tournaments import services as tournaments
from tests.chat.helpers import receive_type, ws_connect
from tests.factories import create_challenge, create_moderator, create_tournament, create_user
from tests.games.sockets import Socket, choose_from_view
from tests.security.frames import ACTION_TYPES, ODD_VALUES

ROOT = Path(__file__).resolve().parent.parent


def validator(name: str) -> jsonschema.Draft202012Validator:
    """The committed schema docs/schemas/``name`` (checked as a schema first)."""
    schema = json.loads((ROOT / "docs" / "schemas" / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_fits(check: jsonschema.Draft202012Validator, value: Any, context: str = "") -> None:
    errors = sorted(check.iter_errors(value), key=lambda error: error.path)
    assert not errors, f"{context}{errors[0].message} at {list(errors[0].path)}: {value!r:.600}"


# --- the generated files -----------------------------------------------------------------


def test_the_committed_schemas_and_typedefs_are_what_the_models_generate() -> None:
    stale = wire_files.stale()
    assert not stale, (
        f"{', '.join(stale)} differ from games/wire.py's models: run `{wire_files.COMMAND}`"
    )
    assert sorted(p.name for p in (ROOT / "docs" / "schemas").glob("*.json")) == sorted(
        wire_files.SCHEMAS
    )


def test_the_command_writes_the_files_and_its_check_fails_on_a_stale_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire_files, "ROOT", tmp_path)
    with pytest.raises(CommandError, match=r"out of date: docs/schemas/match-server\.json"):
        call_command("wire_schemas", "--check")
    call_command("wire_schemas")
    for path, text in wire_files.files().items():
        assert (tmp_path / path).read_text() == text == (ROOT / path).read_text()
    call_command("wire_schemas", "--check")
    (tmp_path / "docs/schemas/view.json").write_text("{}\n")
    with pytest.raises(CommandError, match=r"out of date: docs/schemas/view\.json; run `python"):
        call_command("wire_schemas", "--check")


# --- the action and the view against the engine ------------------------------------------


DEALT = HandState.deal(RuleSet.default(), 0, bytes(32))


def engine_accepts(action: Any) -> bool:
    """Whether the engine reads ``action`` as an action (legal now or not)."""
    try:
        DEALT.apply(action)
    except MalformedAction:
        return False
    except IllegalAction:
        return True
    return True


def test_the_action_schema_accepts_exactly_what_the_engine_reads() -> None:
    check = validator("action.json")
    rng = random.Random(7)
    fields = ["source", "card", "extra"]
    values = [*ODD_VALUES, "stock", "discard", "TD", "td", "AS", "KH", "1S", "TDX"]
    samples: list[Any] = [[], "pass", None, {}, {"type": None}]
    for kind in ACTION_TYPES:
        samples.append({"type": kind})
        for field in fields:
            samples += [{"type": kind, field: value} for value in values]
    for _ in range(3000):
        action = {"type": rng.choice(ACTION_TYPES)}
        for field in rng.sample(fields, rng.randint(0, 3)):
            action[field] = rng.choice(values)
        samples.append(action)
    accepted = 0
    for action in samples:
        assert check.is_valid(action) == engine_accepts(action), action
        accepted += check.is_valid(action)
    assert 100 < accepted < len(samples) - 1000


def test_the_views_and_moves_of_hands_of_every_variant_fit_the_schemas() -> None:
    # Every view of every position through the models (fast); through the committed
    # schema every view at the end of a hand (its whole history and result) and a
    # sample of the others.
    view_check = validator("view.json")
    action_check = validator("action.json")
    rng = random.Random(3)
    results = set()
    for number in range(24):
        rules = [RuleSet.default(), RuleSet.straight_gin(), RuleSet.oklahoma_gin(),
                 RuleSet.time_freedom()][number % 4]
        state = HandState.deal(rules, number % 2, rng.randbytes(32))
        while True:
            views = (state.player_view(0), state.player_view(1), state.spectator_view())
            for view in views:
                wire.View.model_validate(view)
                if state.phase == "over" or rng.random() < 0.05:
                    assert_fits(view_check, view)
            if state.phase == "over":
                break
            legal = state.legal_actions()
            for action in legal:
                assert_fits(action_check, action)
            mover = state.player_view(state.current_player)
            action = choose_from_view(mover) if rng.random() < 0.7 else rng.choice(legal)
            # The clock plays passes, draws and discards (docs/protocol.md), marked.
            clock = action["type"] in ("pass", "draw", "discard") and rng.random() < 0.1
            state, _ = state.apply(action, timeout=clock)
        assert state.result is not None
        results.add(state.result.kind)
    assert len(results) >= 2, results


# --- every frame of real matches over the sockets -----------------------------------------


class Recorder:
    """A WebsocketCommunicator that keeps every frame it receives, as decoded JSON."""

    def __init__(self, inner: Any, schema: str) -> None:
        self.inner = inner
        self.schema = schema
        self.frames: list[dict[str, Any]] = []

    async def receive_json_from(self, timeout: float = 1) -> dict[str, Any]:
        frame = json.loads(await self.inner.receive_from(timeout=timeout))
        self.frames.append(frame)
        return frame

    async def drain(self) -> None:
        """Keep what is still on its way (a short quiet ends it)."""
        while not await self.inner.receive_nothing(timeout=0.3):
            await self.receive_json_from()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def play_to_the_end(state: dict[str, Any], sockets: dict[int, Socket],
                          watchers: list[Socket]) -> dict[str, Any]:
    """Play from each seat's view, from ``state``, until the match is over; returns
    the last state."""
    for _ in range(5000):
        if state["match"]["status"] == "finished":
            return state
        version, mover = state["version"], state["view"]["current_player"]
        view = sockets[mover].last_state()["view"]
        assert sockets[mover].last_state()["version"] == version
        await sockets[mover].send(
            {"type": "action", "version": version, "action": choose_from_view(view)}
        )
        for socket in [*sockets.values(), *watchers]:
            state = await socket.state_at_least(version + 1)
    raise AssertionError("the match did not end")


@pytest.mark.django_db(transaction=True)
async def test_every_frame_of_real_matches_fits_its_sockets_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(MatchConsumer, "rate_per_second", 1000.0)  # moves at machine speed
    make = sync_to_async(create_user)
    alice, bob, carol, dave, ann, erin, fay, gus = [
        await make(name) for name in ("alice", "bob", "carol", "dave", "ann", "erin", "fay", "gus")
    ]
    robo = await make("robo", bot=True)
    moderator = await sync_to_async(create_moderator)()
    taps: list[Recorder] = []
    sockets: list[Socket] = []

    async def tapped(match_id: int, user: Any = None) -> Socket:
        socket = await Socket.open(match_id, user)
        socket.communicator = Recorder(socket.communicator, "match-server.json")  # type: ignore[assignment]
        sockets.append(socket)
        return socket

    async def chat_tap(user: Any, path: str, schema: str) -> Recorder:
        recorder = Recorder(await ws_connect(user, path), schema)
        taps.append(recorder)
        return recorder

    try:
        # A friend match with a clock, from the invitation to the rematch.
        invite = await sync_to_async(services.match_create_invite)(
            user=alice, rules=RuleSet.default().replace(target_score=100)
        )
        host = await tapped(invite.pk, alice)
        await host.receive_type("state")
        await sync_to_async(services.match_join_invite)(user=bob, token=invite.invite_token)
        guest = await tapped(invite.pk, bob)
        watcher, anonymous = await tapped(invite.pk, carol), await tapped(invite.pk)
        state = await guest.receive_type("state")
        for socket in (host, watcher, anonymous):
            await socket.state_at_least(state["version"])
        await host.send({"type": "chat", "text": "good luck"})
        for text in ("{not json", "[1]", '{"type": "fly"}', '{"type": "resign"}',
                     '{"type": "rematch"}'):
            await host.send_text(text)
            await host.receive_type("error")
        await host.send({"type": "action", "version": state["version"],
                         "action": {"type": "draw", "source": "sky"}})
        await host.receive_type("error")
        await watcher.send({"type": "chat", "text": "hi"})  # a spectator may not write
        await watcher.send({"type": "sync"})
        said = await sync_to_async(ChatMessage.objects.get)(match=invite)
        await sync_to_async(accounts.message_hide)(staff=moderator, message=said, reason="test")
        await sync_to_async(accounts.user_warn)(staff=moderator, user=bob, reason="test")
        seat_of_host = host.last_state()["you"]
        players = {seat_of_host: host, 1 - seat_of_host: guest}
        final = await play_to_the_end(state, players, [watcher, anonymous])
        assert final["match"]["end_reason"] == "target"
        await host.send({"type": "rematch"})
        await guest.state_at_least(final["version"] + 1)
        await guest.send({"type": "rematch"})
        await host.state_at_least(final["version"] + 2)
        await guest.close()  # the others hear bob leave
        await host.receive_type("presence")

        # Against the computer: a few moves, then a resignation.
        match = await sync_to_async(services.match_create_computer)(user=dave, level="easy")
        seats = await sync_to_async(lambda: {s.index: s.user_id for s in match.seats.all()})()
        person = next(index for index, user in seats.items() if user == dave.pk)
        table = await tapped(match.pk, dave)
        state = await table.receive_type("state")
        for _ in range(6):
            version, mover = state["version"], state["view"]["current_player"]
            if mover == person:
                await table.send({"type": "action", "version": version,
                                  "action": choose_from_view(state["view"])})
            else:
                await sync_to_async(services.bot_turn_play)(
                    match_id=match.pk, expected_version=version
                )
            state = await table.state_at_least(version + 1)
        await table.send({"type": "resign", "version": state["version"]})
        over = await table.state_at_least(state["version"] + 1)
        assert over["match"]["status"] == Match.Status.FINISHED

        # The lobby: chat, a refusal, a challenge from a bot opened and withdrawn.
        lobby = await chat_tap(alice, "/ws/lobby/", "chat-server.json")
        await receive_type(lobby, "chat_history")
        await lobby.send_to(text_data=json.dumps({"type": "chat", "text": "anyone?"}))
        await receive_type(lobby, "chat")
        await lobby.send_to(text_data="{nope")
        await receive_type(lobby, "error")
        challenge = await sync_to_async(create_challenge)(
            robo, alice, variant="straight", target=100, rated=False
        )
        await receive_type(lobby, "challenge")
        await sync_to_async(api_services.challenge_cancel)(user=robo, challenge_id=challenge.pk)
        await receive_type(lobby, "challenge_closed")

        # Tournaments: an arena's socket to its first pairing, a Swiss round with a bye,
        # and a tournament's chat room.
        arena = await sync_to_async(create_tournament)("arena", [ann, erin], name="Arena")
        arena_tap = await chat_tap(ann, f"/ws/tournament/{arena.pk}/", "tournament-server.json")
        await receive_type(arena_tap, "standings")
        await arena_tap.send_to(text_data=json.dumps({"type": "ping"}))
        await receive_type(arena_tap, "pong")
        await sync_to_async(tournaments.tournament_progress)(tournament_id=arena.pk)
        await receive_type(arena_tap, "match_ready")
        swiss = await sync_to_async(create_tournament)(
            "swiss", [carol, fay, gus], name="Swiss", start=True
        )
        swiss_tap = await chat_tap(carol, f"/ws/tournament/{swiss.pk}/", "tournament-server.json")
        standings = await receive_type(swiss_tap, "standings")
        assert any(p["seat1"] is None for p in standings["pairings"]), "a bye"
        # The tournament page's one socket carries its chat room and the bell too.
        await swiss_tap.send_to(text_data=json.dumps({"type": "chat", "text": "gl all"}))
        await receive_type(swiss_tap, "chat")
        await swiss_tap.send_to(text_data="{nope")
        await receive_type(swiss_tap, "error")
        await sync_to_async(accounts.user_warn)(staff=moderator, user=carol, reason="test")
        await receive_type(swiss_tap, "notification")

        # A correspondence match: a vacation moves its turn's deadline on the open table.
        hal, ivy = await make("hal"), await make("ivy")
        by_mail = await sync_to_async(create_challenge)(hal, ivy, variant="default",
                                                        target=100, days=3)
        by_mail = await sync_to_async(api_services.challenge_accept)(
            user=ivy, challenge_id=by_mail.pk)
        mail_table = await tapped(by_mail.pk, hal)
        state = await mail_table.receive_type("state")
        to_move = hal if state["you"] == state["view"]["current_player"] else ivy
        await sync_to_async(correspondence.vacation_take)(user=to_move, days=2)
        await mail_table.receive_type("deadline")

        for recorder in [*(s.communicator for s in sockets), *taps]:
            await recorder.drain()
    finally:
        for recorder in taps:
            await recorder.disconnect()
        for socket in sockets:
            if socket is not guest:
                await socket.close()
        await sync_to_async(connections.close_all)()
    match_taps = [s.communicator for s in sockets]

    seen: dict[str, set[str]] = {}
    for recorder in [*match_taps, *taps]:
        check = validator(recorder.schema)
        for frame in recorder.frames:
            assert_fits(check, frame, f"{recorder.schema}: ")
            seen.setdefault(recorder.schema, set()).add(frame["type"])
    assert seen == {
        # unread and notification: the bell of a seated player (bob, warned).
        "match-server.json": {"state", "event", "presence", "error", "chat_history", "chat",
                              "chat_hidden", "chat_notice", "unread", "notification",
                              "deadline"},
        # unread and notification: the bell, over the lobby's socket (a challenge).
        "chat-server.json": {"chat_history", "chat", "error", "challenge", "challenge_closed",
                             "unread", "notification"},
        "tournament-server.json": {"standings", "pong", "match_ready", "chat_history",
                                   "chat", "chat_notice", "error", "unread", "notification"},
    }
    events = [f for r in match_taps for f in r.frames if f["type"] == "event"]
    assert any("drew" in f.get("you", {}) for f in events)
    assert any(f.get("clock") for f in events) and any("knock" in f.get("you", {}) for f in events)
    states = [f for r in match_taps for f in r.frames if f["type"] == "state"]
    assert any(f["match"]["status"] == "waiting" for f in states)
    assert any(f["match"]["rematch"]["match_id"] for f in states)
    assert any(s["bot_level"] for f in states for s in f["match"]["seats"])
