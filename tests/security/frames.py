"""Random and mutated WebSocket frames for the fuzz test, and the oracle that says
which error the server must answer each with (docs/protocol.md).

A generated frame is ``Frame(sender, payload)``: ``payload`` is text or bytes.
``expected_code`` follows the protocol's order of checks, with the engine itself
deciding between ``malformed_action`` and ``illegal_action`` (and whether an action
would be accepted: such frames are not sent, the fuzz must change nothing).
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass
from typing import Any

from games.engine import HandState, IllegalAction, MalformedAction

MAX_FRAME_BYTES = 4096
MESSAGE_TYPES = ("action", "resign", "rematch", "sync", "chat")
CARD_RANKS = "A23456789TJQK"
CARD_SUITS = "CDHS"
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1.5, 2**63, -(2**70), "", "0", "x" * 300, [], [1, [2]], {},
    {"a": None}, "TD", "td", "10D", "ZZ", "\u0000", "\ud800", "💣", "<script>", "' OR 1=1 --",
    float("1e308"), "stock", "discard", "pass", "knock",
]
ACTION_TYPES = ["pass", "draw", "discard", "knock", "big_gin", "gin", "undo", "", "PASS", "Draw"]


@dataclass(frozen=True)
class Frame:
    sender: str  # "mover", "waiter", "spectator", "anonymous"
    payload: str | bytes


@dataclass(frozen=True)
class Table:
    """What the oracle needs to know: the state on the table and who is who."""

    state: HandState
    version: int
    mover: int  # seat of the player to move
    seats: dict[str, int | None]  # sender -> seat (None: not seated)
    signed_in: dict[str, bool]


def expected_code(table: Table, frame: Frame) -> str | None:
    """The error code the server must answer ``frame`` with; None if it is valid."""
    if isinstance(frame.payload, bytes):
        return "bad_message"
    if len(frame.payload.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        return "frame_too_large"
    try:
        message = json.loads(frame.payload)
    except (ValueError, RecursionError):
        return "bad_json"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return "bad_message"
    kind = message["type"]
    if kind not in MESSAGE_TYPES:
        return "unknown_type"
    seat = table.seats[frame.sender]
    if kind == "sync":
        return None
    if kind == "action":
        version, action = message.get("version"), message.get("action")
        if not _is_int(version) or not isinstance(action, dict):
            return "bad_message"
        if seat is None:
            return "not_a_player"
        if version != table.version:
            return "stale_version"
        if seat != table.mover:
            return "not_your_turn"
        try:
            table.state.apply(action)
        except MalformedAction:
            return "malformed_action"
        except IllegalAction:
            return "illegal_action"
        return None
    if kind == "resign":
        if not _is_int(message.get("version")):
            return "bad_message"
        return "not_a_player" if seat is None else None
    if kind == "rematch":
        return "not_a_player" if seat is None else "match_not_over"
    # chat: games/chat/services.py chat_post
    if not table.signed_in[frame.sender]:
        return "chat_not_allowed"
    if seat is None:
        return "not_a_player"
    text = message.get("text")
    if not isinstance(text, str):
        return "bad_message"
    clean = " ".join("".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c
                             for c in text).split())
    if not clean:
        return "chat_empty"
    if len(clean) > 300:
        return "chat_too_long"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class FrameMaker:
    """Generates frames of every kind the fuzz sends, from ``rng``."""

    def __init__(self, rng: random.Random, table: Table) -> None:
        self.rng = rng
        self.table = table
        self.legal = table.state.legal_actions()

    def frame(self) -> Frame:
        rng = self.rng
        sender = rng.choices(["mover", "waiter", "spectator", "anonymous"], [70, 15, 10, 5])[0]
        maker = rng.choice([
            self.garbage_text, self.not_an_object, self.bad_type, self.unknown_type,
            self.too_large, self.deep_json, self.bad_fields, self.odd_action,
            self.mutated_legal, self.mutated_legal, self.replayed_version, self.bad_card,
            self.other_seat, self.chat, self.control, self.binary,
        ])
        return Frame(sender, maker())

    # --- the kinds of frames ------------------------------------------------------------

    def garbage_text(self) -> str:
        rng = self.rng
        pieces = [
            "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 60))),
            '{"type": "action", "version": ' + str(self.table.version),  # cut short
            "{'type': 'sync'}", "[1, 2,]", '{"type": "action",}', "NaN]", "\\u0000",
            "{" * rng.randint(1, 5), '"unterminated', "",
        ]
        return rng.choice(pieces)

    def not_an_object(self) -> str:
        return json.dumps(self.rng.choice([1, -3.5, "action", None, True, [], [{"type": "sync"}]]))

    def bad_type(self) -> str:
        return json.dumps({"type": self.rng.choice([None, 5, [], {}, True, ["action"]]),
                           "version": self.table.version})

    def unknown_type(self) -> str:
        kind = self.rng.choice(["", "ACTION", "Action", "actions", "move", "state", "error",
                                "presence", "admin", "sync ", "__proto__", "chat_history"])
        return json.dumps({"type": kind, "version": self.table.version})

    def too_large(self) -> str:
        size = self.rng.choice([MAX_FRAME_BYTES + 1, 5000, 65536, 400_000])
        filler = self.rng.choice(["x", "é", "💣"])
        text = filler * (size // len(filler.encode()) + 1)
        return json.dumps({"type": "action", "version": self.table.version,
                           "action": {"type": "pass", "pad": text}}, ensure_ascii=False)

    def deep_json(self) -> str:
        rng = self.rng
        # Far from the interpreter's recursion limit (1000) either way, so the answer does
        # not depend on how deep the parser is called.
        depth = rng.choice([50, 400, 1500, 2000])
        if rng.random() < 0.5:
            inner = "[" * depth + "]" * depth
        else:
            inner = '{"a":' * depth + "1" + "}" * depth
        if len(inner) > MAX_FRAME_BYTES - 80:
            return inner
        head = json.dumps({"type": "action", "version": self.table.version})[:-1]
        return f'{head}, "action": {{"type": "pass", "x": {inner}}}}}'

    def bad_fields(self) -> str:
        rng = self.rng
        kind = rng.choice(["action", "resign", "action", "action"])
        message: dict[str, Any] = {"type": kind}
        if rng.random() < 0.7:
            message["version"] = rng.choice([*ODD_VALUES, str(self.table.version)])
        if kind == "action" and rng.random() < 0.8:
            message["action"] = rng.choice([*ODD_VALUES, rng.choice(self.legal)])
        return json.dumps(message)

    def odd_action(self) -> str:
        rng = self.rng
        action: dict[str, Any] = {}
        for _ in range(rng.randint(0, 4)):
            key = rng.choice(["type", "source", "card", "seat", "player", "version", "cards", "x"])
            action[key] = rng.choice([*ODD_VALUES, *ACTION_TYPES])
        return self._action(action, self.table.version)

    def mutated_legal(self) -> str:
        rng = self.rng
        action = dict(rng.choice(self.legal))
        for _ in range(rng.randint(1, 3)):
            move = rng.randrange(5)
            key = rng.choice([*action, "type", "card", "source", "seat"])
            if move == 0:
                action.pop(key, None)
            elif move == 1:
                action[key] = rng.choice(ODD_VALUES)
            elif move == 2:
                action[key] = rng.choice(ACTION_TYPES)
            elif move == 3 and isinstance(action.get(key), str):
                action[key] = action[key][::-1] + rng.choice(["", " ", "x"])
            else:
                action["type"] = rng.choice(ACTION_TYPES)
        return self._action(action, self.table.version)

    def replayed_version(self) -> str:
        version = self.rng.choice([0, 1, self.table.version - 1, self.table.version + 1,
                                   self.table.version + 1000, -5, 2**53])
        return self._action(dict(self.rng.choice(self.legal)), version)

    def bad_card(self) -> str:
        rng = self.rng
        card = rng.choice([
            rng.choice(CARD_RANKS) + rng.choice(CARD_SUITS),  # a real card, likely not held
            rng.choice(["1D", "0S", "KX", "AA", "JOKER", "T", "tdd", "♠A", " TD"]),
        ])
        return self._action({"type": rng.choice(["discard", "knock"]), "card": card},
                            self.table.version)

    def other_seat(self) -> str:
        rng = self.rng
        action = dict(rng.choice(self.legal))
        action[rng.choice(["seat", "player", "you"])] = rng.choice([0, 1, 1 - self.table.mover])
        return self._action(action, self.table.version)

    def chat(self) -> str:
        rng = self.rng
        text = rng.choice([None, 5, [], {"text": "hi"}, "", "   ", "\n\t", "a" * 301,
                           "b " * 200, True])
        return json.dumps({"type": "chat", "text": text})

    def control(self) -> str:
        rng = self.rng
        return json.dumps(rng.choice([
            {"type": "rematch"}, {"type": "resign"}, {"type": "resign", "version": None},
            {"type": "resign", "version": str(self.table.version)},
            {"type": "rematch", "version": self.table.version},
        ]))

    def binary(self) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 64)))

    def _action(self, action: Any, version: Any) -> str:
        return json.dumps({"type": "action", "version": version, "action": action})
