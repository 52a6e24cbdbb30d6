#!/usr/bin/env python3
"""A minimal bot written from docs/bot-api.md alone (Python's standard library, nothing
of the project): it challenges the site's computer, plays that one match from the
match stream, applying each `event` line to the `state` it holds as the document
says, and prints the final result.

    python tests/api/minimal_bot.py URL TOKEN [LEVEL] [TARGET]

The account must already be a BOT account. Exit status 0 once the match is over.
"""

import json
import sys
import urllib.error
import urllib.request

URL, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]
LEVEL = sys.argv[3] if len(sys.argv) > 3 else "easy"
TARGET = int(sys.argv[4]) if len(sys.argv) > 4 else 50
RANKS = "A23456789TJQK"


def request(method, path, body=None, timeout=30):
    headers = {"Authorization": "Bearer " + TOKEN}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    return urllib.request.urlopen(
        urllib.request.Request(URL + path, data=data, method=method, headers=headers),
        timeout=timeout,
    )


def call(method, path, body=None):
    try:
        with request(method, path, body) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def apply(held, frame):
    """The state after the event frame (steps 2 to 7 of the document)."""
    me = held["you"]
    view = dict(held["view"])
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
                    view["taken_from_discard"] = card
                else:
                    view["opponent_known_cards"].append(card)
                    view["taken_from_discard"] = None
        elif event["type"] == "discard":
            card = event["card"]
            view["card_counts"][seat] -= 1
            if not mine:
                view["opponent_card_count"] -= 1
            view["discard_pile"].append(card)
            view["known_cards"][seat] = [c for c in view["known_cards"][seat] if c != card]
            if mine:
                view["hand"].remove(card)
            else:
                view["opponent_known_cards"] = [
                    c for c in view["opponent_known_cards"] if c != card
                ]
            view["taken_from_discard"] = None
        view["history"].append(event)
    view["current_player"], view["phase"] = frame["turn"]["player"], frame["turn"]["phase"]
    match = dict(held["match"], current_seat=frame["turn"]["player"])
    if "clock" in frame:
        match["clock"] = frame["clock"]
    if you:
        view["melds"], view["deadwood"] = you["melds"], you["deadwood"]
        melded = {card for meld in view["melds"] for card in meld}
        view["deadwood_cards"] = [c for c in view["hand"] if c not in melded]
    if view["current_player"] != me:
        view["taken_from_discard"] = None
    legal = []
    if view["current_player"] == me:
        if view["phase"] == "first_turn":
            legal = [{"type": "pass"}, {"type": "draw", "source": "discard"}]
        elif view["phase"] == "draw":
            legal = [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
        elif view["phase"] == "discard":
            legal = [
                {"type": "discard", "card": c}
                for c in view["hand"]
                if c != view["taken_from_discard"]
            ]
            legal += [{"type": "knock", "card": c} for c in you.get("knock", [])]
            if view["rules"]["big_gin_allowed"] and view["deadwood"] == 0:
                legal.append({"type": "big_gin"})
    view["legal_actions"] = legal
    return dict(held, version=frame["version"], match=match, view=view)


def choose(view):
    """Go out when allowed; pass the first turn; draw from the stock; throw the
    highest card of deadwood (or of the hand when all of it is melded)."""
    legal = view["legal_actions"]
    for kind in ("big_gin", "knock", "pass"):
        for action in legal:
            if action["type"] == kind:
                return action
    if {"type": "draw", "source": "stock"} in legal:
        return {"type": "draw", "source": "stock"}
    draws = [a for a in legal if a["type"] == "draw"]
    if draws:
        return draws[0]
    cards = [a["card"] for a in legal if a["type"] == "discard"]
    dead = [c for c in view["deadwood_cards"] if c in cards] or cards
    return {"type": "discard", "card": max(dead, key=lambda c: RANKS.index(c[0]))}


def main():
    status, answer = call("POST", "/api/challenge/computer", {"level": LEVEL, "target": TARGET})
    if status != 200:
        print("cannot challenge the computer:", answer)
        return 1
    match_id = answer["match"]["id"]
    path = f"/api/bot/match/{match_id}"
    held, acted_on, lines = None, None, {"state": 0, "event": 0, "asked": 0}
    with request("GET", path + "/stream", timeout=60) as stream:
        for raw in stream:
            if not raw.strip():
                continue  # a keep-alive
            line = json.loads(raw)
            if line["type"] == "error":
                print("stream closed:", line["code"])
                return 1
            if line["type"] == "state":
                held = line
                lines["state"] += 1
            elif line["type"] == "event":
                lines["event"] += 1
                if line["version"] <= held["version"]:
                    continue  # a copy
                if line["version"] - len(line["events"]) != held["version"]:
                    lines["asked"] += 1  # a line was missed: the whole state
                    status, held = call("GET", path + "/state")
                else:
                    held = apply(held, line)
            else:
                continue  # presence, chat
            if held["match"]["status"] == "finished":
                break
            mine = held["match"]["current_seat"] == held["you"]
            if mine and held["view"]["legal_actions"] and acted_on != held["version"]:
                acted_on = held["version"]
                action = choose(held["view"])
                status, answer = call(
                    "POST", path + "/action", {"version": held["version"], "action": action}
                )
                if status != 200 and answer["error"]["code"] != "stale_version":
                    print("refused:", action, answer)
                    return 1
    if held is None or held["match"]["status"] != "finished":
        print("the stream ended before the match")
        return 1
    final = held["match"]
    print(
        f"match {match_id} over: winner seat {final['winner']} ({final['end_reason']}),"
        f" I was seat {held['you']}; lines: {lines['state']} state, {lines['event']} event,"
        f" {lines['asked']} asked for the state"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
