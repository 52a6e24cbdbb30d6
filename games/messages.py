"""What each audience of a match hears over its socket (docs/protocol.md).

Pure: built from a match's state in memory (the engine's ``MatchState``) and the
rows the caller already holds, never read from the database here. Two kinds:

* ``state``: the whole table for one audience (a seat's private player view, or
  the spectator view), sent on connect, on ``sync``, at the start of a hand and
  whenever something other than an ordinary move changed the match;
* ``event``: after an ordinary move (pass, draw, discard), only what changed, for
  one audience: the public events, whose turn it is, the turn clock when the turn
  passed, and for the mover alone what only they may see (the card they drew from
  the stock, their melds and deadwood, the cards they may knock with).

A client that holds the view of version ``v - len(events)`` and applies an event
frame of version ``v`` holds exactly the view the server would send it in a
``state`` of version ``v``: ``apply_frame`` below does it in Python (the load
generator and the test clients use it), games/static/games/events.js in the browser;
the tests check both for every move of many hands and every audience.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.engine import MatchState, best_melds_mask, cards_to_mask

# The computer's levels as a seat's name says them ("Computer (easy)").
_LEVEL_NAMES = {
    "easy": pgettext_lazy("computer level in a name", "easy"),
    "medium": pgettext_lazy("computer level in a name", "medium"),
    "hard": pgettext_lazy("computer level in a name", "hard"),
    "expert": pgettext_lazy("computer level in a name", "expert"),
}


def level_name(level: str) -> str:
    return str(_LEVEL_NAMES.get(level, level))

Audience = int | None  # a seat index, or None for spectators

# Events of a move that an ``event`` frame can carry; any other change (the end of a
# hand, a forfeit, a rematch offer) is sent as a ``state``.
ORDINARY = frozenset({"pass", "draw", "discard"})


def is_ordinary(events: Iterable[dict[str, Any]]) -> bool:
    return all(event.get("type") in ORDINARY for event in events)


def clock_dict(rules: dict[str, Any], deadline: datetime | None, now: datetime) -> dict | None:
    """The turn clock as the protocol sends it (None without a clock)."""
    seconds = rules.get("turn_seconds")
    if seconds is None or deadline is None:
        return None
    remaining = (deadline - now).total_seconds()
    return {
        "turn_seconds": seconds,
        "deadline": deadline.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "remaining_ms": max(0, int(remaining * 1000)),
    }


def seat_name(seat: Any) -> str:
    """How a seat is named to people, everywhere (pages, messages; the browser shows
    the ``name`` it is sent): the computer's level, or the player's name."""
    if seat.bot_level:
        return _("Computer (%(level)s)") % {"level": level_name(seat.bot_level)}
    if seat.user is None:
        return _("deleted player")
    return seat.user.display_name


def table(
    *,
    match: Any,
    seats: Sequence[Any],
    hands: Sequence[dict[str, Any]],
    current: Any | None,
    clock: dict | None,
    rematch_id: int | None,
) -> dict[str, Any]:
    """The ``match`` part of a ``state`` message, the same for every audience.

    ``match``, ``seats``: the rows (any objects with their attributes); ``hands``: the
    finished hands' summaries in order (``Match.finished_hands``); ``current``: the
    last hand dealt (its row) or None; its seed is shown only once the match is over.
    """
    over = match.status == "finished"
    listed = list(hands)
    if over and current is not None and current.result is None:
        listed.append(hand_summary(current))
    return {
        "id": match.pk,
        "status": match.status,
        "kind": match.kind,
        "variant": match.variant,
        "rated": match.rated,
        "rules": match.rules,
        "hand_number": current.number if current is not None else 0,
        "seats": [
            {
                "seat": s.index,
                "name": seat_name(s),
                "bot_level": s.bot_level or None,
                "connected": bool(s.bot_level) or s.connected,
                "score": s.score,
            }
            for s in seats
        ],
        "commitment": current.seed_hash if current is not None else None,
        "clock": clock,
        "correspondence": correspondence(match),
        "current_seat": match.current_seat,
        "winner": match.winner_seat,
        "end_reason": match.end_reason or None,
        # Ended before each player made two moves: not rated, on no board.
        "aborted": match.aborted,
        "final": match.final_score,
        "hands": listed,
        "rematch": {"offered_by": match.rematch_offered_by, "match_id": rematch_id},
    }


def _instant(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def correspondence(match: Any) -> dict[str, Any] | None:
    """A correspondence match's clock (None for live play): its days per move and the
    current turn's deadline (``Match.move_deadline``; None between turns)."""
    days = getattr(match, "days_per_move", None)
    if not days:
        return None
    deadline = getattr(match, "move_deadline", None)
    return {"days_per_move": days, "deadline": _instant(deadline) if deadline else None}


def deadline_frame(match: Any) -> dict[str, Any]:
    """The ``deadline`` frame: a correspondence turn's deadline moved with no move (a
    vacation taken or ended, or found by beat's job), at the match's current version,
    which it does not raise (docs/protocol.md, "deadline"). Public: every socket."""
    return {"type": "deadline", "version": match.version,
            "correspondence": correspondence(match)}


def hand_summary(hand: Any) -> dict[str, Any]:
    """A dealt hand as the table lists it once it is over: its seed is revealed."""
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "commitment": hand.seed_hash,
        "seed": bytes(hand.seed).hex(),
        "result": hand.result,
    }


def state(
    *, version: int, audience: Audience, table: dict[str, Any], match: MatchState | None
) -> dict[str, Any]:
    """The full ``state`` message for ``audience``."""
    if match is None:
        view = None
    elif audience is None:
        view = match.spectator_view()
    else:
        view = match.player_view(audience)
    return {"type": "state", "version": version, "you": audience, "match": table, "view": view}


def events_frame(
    *,
    version: int,
    audience: Audience,
    after: MatchState,
    events: Sequence[dict[str, Any]],
    clock: dict | None,
    turn_passed: bool,
    drawn: str | None,
    move_deadline: datetime | None = None,
) -> dict[str, Any]:
    """The ``event`` frame of an ordinary move for ``audience``.

    ``drawn``: the card the mover took from the stock (sent to the mover only);
    ``turn_passed``: the turn went to the other player, so its clock is sent (and a
    correspondence match's ``move_deadline``, the new turn's).
    """
    hand = after.hand
    assert hand is not None
    frame: dict[str, Any] = {
        "type": "event",
        "version": version,
        "events": list(events),
        "turn": {"player": hand.current_player, "phase": hand.phase},
    }
    if turn_passed:  # the new turn's clock (its length is in the rules)
        frame["clock"] = None if clock is None else {
            "deadline": clock["deadline"], "remaining_ms": clock["remaining_ms"]
        }
        if move_deadline is not None:  # a correspondence match: the new turn's deadline
            frame["move_deadline"] = _instant(move_deadline)
    movers = {event["seat"] for event in events}
    if audience is not None and audience in movers:
        melding = best_melds_mask(cards_to_mask(hand.hands[audience]))
        you: dict[str, Any] = {
            "melds": [[str(card) for card in meld] for meld in melding.melds],
            "deadwood": melding.points,
        }
        if drawn is not None:
            you["drew"] = drawn
        if hand.phase == "discard" and hand.current_player == audience:
            knocks = [a["card"] for a in hand.legal_actions() if a["type"] == "knock"]
            if knocks:
                you["knock"] = knocks
        frame["you"] = you
    return frame


# --- the client side: applying an event frame -------------------------------------

_RANKS = "A23456789TJQK"
_SUITS = "CDHS"


def _sort_key(card: str) -> int:
    return _RANKS.index(card[0]) * 4 + _SUITS.index(card[1])


def _with_card(cards: list[str], card: str) -> list[str]:
    return sorted([*cards, card], key=_sort_key)


def apply_frame(msg: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """What a client holds after ``frame``: the ``state`` message the server would send
    for the frame's version, built from the last one ``msg`` (the reference of the
    protocol's client side; the browser's events.js is its twin, and the tests check
    both against the server's own states). None when the frame does not follow
    ``msg``: the client asks for ``sync``."""
    if msg is None or msg.get("view") is None:
        return None
    if frame["version"] - len(frame["events"]) != msg["version"]:
        return None
    me = msg["you"]
    old = msg["view"]
    view = {
        **old,
        "discard_pile": list(old["discard_pile"]),
        "card_counts": list(old["card_counts"]),
        "known_cards": [list(old["known_cards"][0]), list(old["known_cards"][1])],
        "history": list(old["history"]),
    }
    you = frame.get("you") or {}
    for event in frame["events"]:
        _apply_event(view, me, event, you)
        view["history"].append(event)
    view["current_player"] = frame["turn"]["player"]
    view["phase"] = frame["turn"]["phase"]
    if you and me is not None:
        view["melds"] = you["melds"]
        view["deadwood"] = you["deadwood"]
        melded = {card for meld in view["melds"] for card in meld}
        view["deadwood_cards"] = [c for c in view["hand"] if c not in melded]
    if me is not None and view["current_player"] != me:
        view["taken_from_discard"] = None
    view["legal_actions"] = [] if me is None else _legal_actions(view, me, you.get("knock", []))
    match = {**msg["match"], "current_seat": frame["turn"]["player"]}
    if "clock" in frame:
        match["clock"] = frame["clock"] and {
            "turn_seconds": msg["match"]["rules"]["turn_seconds"], **frame["clock"]
        }
    return {**msg, "version": frame["version"], "match": match, "view": view}


def _apply_event(view: dict, me: int | None, event: dict, you: dict) -> None:
    seat = event["seat"]
    mine = me == seat
    theirs = me is not None and me != seat
    if event["type"] == "draw":
        view["card_counts"][seat] += 1
        if event["source"] == "stock":
            view["stock_count"] -= 1
            if mine:
                view["hand"] = _with_card(view["hand"], you["drew"])
            view["taken_from_discard"] = None
        else:
            card = event["card"]
            view["discard_pile"].pop()
            view["known_cards"][seat] = _with_card(view["known_cards"][seat], card)
            if mine:
                view["hand"] = _with_card(view["hand"], card)
            if theirs:
                view["opponent_known_cards"] = _with_card(view["opponent_known_cards"], card)
            view["taken_from_discard"] = None if theirs else card
        if theirs:
            view["opponent_card_count"] += 1
    elif event["type"] == "discard":
        card = event["card"]
        view["card_counts"][seat] -= 1
        view["discard_pile"].append(card)
        view["known_cards"][seat] = [c for c in view["known_cards"][seat] if c != card]
        if mine:
            view["hand"] = [c for c in view["hand"] if c != card]
        if theirs:
            view["opponent_card_count"] -= 1
            view["opponent_known_cards"] = [c for c in view["opponent_known_cards"] if c != card]
        view["taken_from_discard"] = None


def _legal_actions(view: dict, me: int, knock_cards: list[str]) -> list[dict[str, str]]:
    if view["current_player"] != me:
        return []
    if view["phase"] == "first_turn":
        return [{"type": "pass"}, {"type": "draw", "source": "discard"}]
    if view["phase"] == "draw":
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    if view["phase"] != "discard":
        return []
    locked = view["taken_from_discard"]
    acts = [{"type": "discard", "card": c} for c in view["hand"] if c != locked]
    acts += [{"type": "knock", "card": c} for c in knock_cards]
    if view["rules"]["big_gin_allowed"] and view["deadwood"] == 0:
        acts.append({"type": "big_gin"})
    return acts
