#!/usr/bin/env python3
"""A complete bot for the gin rummy bot API (docs/bot-api.md), standard library only.

It streams the account's events, accepts challenges, plays every match it is in
with a simple policy (knock or go gin as soon as it may, else draw from the stock
and throw the highest deadwood card), and can challenge the site's computer. A match
is played from its stream: the bot holds the last ``state`` and applies each
``event`` line to it (``apply_event``), as docs/bot-api.md describes.

    python examples/bot_client.py --url http://127.0.0.1:8000 --token gin_... --upgrade \\
        --computer easy --target 50 --matches 1

Options: ``--upgrade`` turns the account into a BOT account first (for good);
``--computer LEVEL`` challenges the computer (easy, medium, hard, expert) once;
``--matches N`` stops after N matches are over (default: run until interrupted);
``--accept-from NAME`` accepts challenges only from these players (default: anyone).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

STREAM_TIMEOUT = 60  # seconds without a line (keep-alives come every 10 s at most)


class Api:
    """The HTTP calls of the bot API."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _request(
        self, method: str, path: str, body: dict | None = None, timeout: float = 30
    ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        return urllib.request.urlopen(request, timeout=timeout)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """``(status, JSON answer)``; a refusal is ``(4xx, {"error": {...}})``."""
        for _attempt in range(5):
            try:
                with self._request(method, path, body) as response:
                    return response.status, json.loads(response.read() or b"{}")
            except urllib.error.HTTPError as error:
                if error.code == 429:  # rate limited: wait as told, then again
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                    continue
                return error.code, json.loads(error.read() or b"{}")
        return 429, {"error": {"code": "rate_limited", "message": "gave up"}}

    def stream(self, path: str) -> Any:
        """Yield the JSON objects of an NDJSON stream (keep-alive lines skipped)."""
        with self._request("GET", path, timeout=STREAM_TIMEOUT) as response:
            for raw in response:
                if raw.strip():
                    yield json.loads(raw)


def choose(view: dict) -> dict | None:
    """The policy: big gin, gin or knock when legal; on the first turn pass; draw from
    the stock; discard the highest deadwood card (the highest card if all are melded)."""
    legal = view["legal_actions"]
    if not legal:
        return None
    for kind in ("big_gin", "knock"):
        ends = [a for a in legal if a["type"] == kind]
        if ends:
            return ends[0]
    if any(a["type"] == "pass" for a in legal):
        return {"type": "pass"}
    if any(a == {"type": "draw", "source": "stock"} for a in legal):
        return {"type": "draw", "source": "stock"}
    if any(a["type"] == "draw" for a in legal):
        return {"type": "draw", "source": "discard"}
    discards = [a["card"] for a in legal if a["type"] == "discard"]
    order = "A23456789TJQK"
    dead = [c for c in view["deadwood_cards"] if c in discards]
    pool = dead or discards
    return {"type": "discard", "card": max(pool, key=lambda c: order.index(c[0]))}


def apply_event(state: dict, frame: dict) -> dict | None:
    """The state after an ``event`` line (docs/bot-api.md, "To apply an event frame"),
    or None when the line does not follow the state held (a line was missed)."""
    if frame["version"] - len(frame["events"]) != state["version"]:
        return None
    me = state["you"]
    view = dict(state["view"])
    for key in ("hand", "discard_pile", "card_counts", "opponent_known_cards", "history"):
        view[key] = list(view[key])
    view["known_cards"] = [list(cards) for cards in view["known_cards"]]
    you = frame.get("you") or {}
    for event in frame["events"]:
        seat, mine = event["seat"], event["seat"] == me
        if event["type"] == "draw":
            view["card_counts"][seat] += 1
            if not mine:
                view["opponent_card_count"] += 1
            if event["source"] == "stock":
                view["stock_count"] -= 1
                if mine:
                    view["hand"].append(you["drew"])
                view["taken_from_discard"] = None
            else:
                card = view["discard_pile"].pop()
                view["known_cards"][seat].append(card)
                if mine:
                    view["hand"].append(card)
                else:
                    view["opponent_known_cards"].append(card)
                view["taken_from_discard"] = card if mine else None
        elif event["type"] == "discard":
            card = event["card"]
            view["card_counts"][seat] -= 1
            view["discard_pile"].append(card)
            view["known_cards"][seat] = [c for c in view["known_cards"][seat] if c != card]
            if mine:
                view["hand"] = [c for c in view["hand"] if c != card]
            else:
                view["opponent_card_count"] -= 1
                view["opponent_known_cards"] = [
                    c for c in view["opponent_known_cards"] if c != card
                ]
            view["taken_from_discard"] = None
        view["history"].append(event)
    view["current_player"] = frame["turn"]["player"]
    view["phase"] = frame["turn"]["phase"]
    match = {**state["match"], "current_seat": frame["turn"]["player"]}
    if "clock" in frame:
        match["clock"] = frame["clock"]
    if you:
        view["melds"], view["deadwood"] = you["melds"], you["deadwood"]
        melded = {card for meld in view["melds"] for card in meld}
        view["deadwood_cards"] = [c for c in view["hand"] if c not in melded]
    if view["current_player"] != me:
        view["taken_from_discard"] = None
    view["legal_actions"] = legal_actions(view, me, you.get("knock", []))
    return {**state, "version": frame["version"], "match": match, "view": view}


def legal_actions(view: dict, me: int, knock_cards: list[str]) -> list[dict]:
    """The bot's legal actions in a view built from event lines (docs/bot-api.md)."""
    if view["current_player"] != me:
        return []
    if view["phase"] == "first_turn":
        return [{"type": "pass"}, {"type": "draw", "source": "discard"}]
    if view["phase"] == "draw":
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    if view["phase"] != "discard":
        return []
    actions = [
        {"type": "discard", "card": card}
        for card in view["hand"]
        if card != view["taken_from_discard"]
    ]
    actions += [{"type": "knock", "card": card} for card in knock_cards]
    if view["rules"]["big_gin_allowed"] and view["deadwood"] == 0:
        actions.append({"type": "big_gin"})
    return actions


class Bot:
    def __init__(self, api: Api, *, matches: int | None, accept_from: list[str]) -> None:
        self.api = api
        self.matches_wanted = matches
        self.accept_from = set(accept_from)
        self.playing: set[int] = set()
        self.finished = 0
        self.lock = threading.Lock()
        self.done = threading.Event()

    def log(self, text: str) -> None:
        print(text, flush=True)

    # --- events ---------------------------------------------------------------------

    def run_events(self) -> None:
        while not self.done.is_set():
            try:
                for event in self.api.stream("/api/stream/event"):
                    self.on_event(event)
                    if self.done.is_set():
                        return
            except (OSError, ValueError) as error:
                self.log(f"event stream lost ({error}); reconnecting")
                time.sleep(1)

    def on_event(self, event: dict) -> None:
        kind = event["type"]
        if kind == "challenge":
            challenge = event["challenge"]
            if self.accept_from and challenge["from"] not in self.accept_from:
                self.api.call("POST", f"/api/challenge/{challenge['id']}/decline")
                self.log(f"declined challenge {challenge['id']} from {challenge['from']}")
                return
            status, _answer = self.api.call("POST", f"/api/challenge/{challenge['id']}/accept")
            self.log(f"accepted challenge {challenge['id']} from {challenge['from']}: {status}")
        elif kind == "matchStart":
            self.start_match(event["match"]["id"])

    # --- playing ----------------------------------------------------------------------

    def start_match(self, match_id: int) -> None:
        with self.lock:
            if match_id in self.playing:
                return
            self.playing.add(match_id)
        threading.Thread(target=self.play, args=(match_id,), daemon=True).start()

    def play(self, match_id: int) -> None:
        """Play one match from its stream: hold each ``state``, apply each ``event`` to
        it (asking for the whole state only when a line was missed), and act whenever
        the table held says it is the bot's turn."""
        self.log(f"match {match_id}: playing")
        state: dict | None = None
        greeted = False
        acted_on = None  # the version the bot last acted on (one action per version)
        while True:
            try:
                for message in self.api.stream(f"/api/bot/match/{match_id}/stream"):
                    kind = message["type"]
                    if kind == "state":
                        state = message
                    elif kind == "event" and state is not None:
                        if message["version"] <= state["version"]:
                            continue  # a copy of a version already held
                        applied = apply_event(state, message)
                        if applied is None:  # a line was missed: the whole state
                            status, fresh = self.api.call("GET", f"/api/bot/match/{match_id}/state")
                            if status != 200:
                                continue
                            applied = fresh
                        state = applied
                    elif kind == "error":
                        self.log(f"match {match_id}: the stream closed: {message['message']}")
                        return
                    else:
                        continue  # presence, chat: nothing to do
                    if not greeted:
                        greeted = True
                        self.api.call(
                            "POST",
                            f"/api/bot/match/{match_id}/chat",
                            {"text": "Hello from bot_client.py. Good luck!"},
                        )
                    if state["match"]["status"] == "finished":
                        break
                    if acted_on != state["version"] and self.move(match_id, state):
                        acted_on = state["version"]
                break
            except (OSError, ValueError) as error:
                self.log(f"match {match_id}: stream lost ({error}); reconnecting")
                time.sleep(1)
        final = state["match"] if state else {}
        self.log(
            f"match {match_id}: over, winner seat {final.get('winner')} "
            f"({final.get('end_reason')}), I was seat {state and state['you']}"
        )
        with self.lock:
            self.finished += 1
            if self.matches_wanted is not None and self.finished >= self.matches_wanted:
                self.done.set()

    def move(self, match_id: int, state: dict) -> bool:
        """Act if the table held says it is the bot's turn; whether it acted."""
        view = state["view"]
        if view is None or state["match"]["current_seat"] != state["you"]:
            return False
        action = choose(view)
        if action is None:
            return False
        status, answer = self.api.call(
            "POST",
            f"/api/bot/match/{match_id}/action",
            {"version": state["version"], "action": action},
        )
        if status != 200 and answer.get("error", {}).get("code") != "stale_version":
            self.log(f"match {match_id}: {action} refused: {answer}")
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal API token")
    parser.add_argument("--upgrade", action="store_true", help="become a BOT account first")
    parser.add_argument("--computer", metavar="LEVEL", help="challenge the computer once")
    parser.add_argument("--variant", default="default")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--matches", type=int, help="stop after this many matches")
    parser.add_argument("--accept-from", nargs="*", default=[], metavar="NAME")
    args = parser.parse_args(argv)

    api = Api(args.url, args.token)
    status, me = api.call("GET", "/api/account")
    if status != 200:
        print(f"cannot sign in: {me}", file=sys.stderr)
        return 1
    if not me["bot"]:
        if not args.upgrade:
            print("this is not a BOT account: run with --upgrade", file=sys.stderr)
            return 1
        status, answer = api.call("POST", "/api/bot/account/upgrade")
        if status != 200:
            print(f"cannot upgrade: {answer}", file=sys.stderr)
            return 1
    bot = Bot(api, matches=args.matches, accept_from=args.accept_from)
    bot.log(f"signed in as BOT {me['username']}")
    threading.Thread(target=bot.run_events, daemon=True).start()
    if args.computer:
        status, answer = api.call(
            "POST",
            "/api/challenge/computer",
            {
                "level": args.computer,
                "variant": args.variant,
                "target": args.target,
            },
        )
        if status != 200:
            print(f"cannot challenge the computer: {answer}", file=sys.stderr)
            return 1
        bot.start_match(answer["match"]["id"])
    try:
        while not bot.done.wait(0.5):
            pass
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
