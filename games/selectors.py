"""Reads of matches for pages, consumers and broadcasts.

The ``state`` message of docs/protocol.md is built here, per recipient: a seated
player gets the engine's ``player_view`` of their seat, anyone else the
``spectator_view``. Seeds appear only for finished hands (or once the match is over).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games.engine import HandState, RuleSet
from games.models import Hand, Match, Move, QuickMatchEntry, Seat
from games.services.errors import HandNotOverError

Audience = int | None  # a seat index, or None for spectators


def seat_for_user(*, match: Match, user: Any) -> int | None:
    """The seat index ``user`` holds in ``match``, or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(match=match, user_id=user.pk).values_list("index", flat=True).first()


def match_state_message(*, match: Match, user: Any) -> dict[str, Any]:
    """The ``state`` message for ``user``: their seat's view, or the spectator view
    (of the match as it is now: ``match`` may be an old row, or only a pk)."""
    match, seats, hands = _load(match)
    you = next((s.index for s in seats if _is_user(s, user)), None)
    return _state_messages(match, seats, hands, [you])[you]


def match_state_messages(*, match: Match) -> dict[Audience, dict[str, Any]]:
    """The ``state`` message for each human seat and for spectators (one read; as
    for ``match_state_message``, only ``match.pk`` counts)."""
    match, seats, hands = _load(match)
    audiences: list[Audience] = [s.index for s in seats if s.user_id is not None]
    return _state_messages(match, seats, hands, [*audiences, None])


def presence_message(*, match_id: int) -> dict[str, Any] | None:
    """The ``presence`` message: who is connected to the match now."""
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is None:
        return None
    seats = Seat.objects.filter(match_id=match_id).order_by("index")
    return {
        "type": "presence",
        "version": version,
        "seats": [{"seat": s.index, "connected": _connected(s)} for s in seats],
    }


def matches_for_user(*, user: Any) -> QuerySet[Match]:
    """The user's matches, newest first, with seats and their users loaded."""
    return (
        Match.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-created_at")
        .distinct()
    )


def quickmatch_status(*, user: Any) -> dict[str, Any]:
    """``{"state": "idle" | "waiting" | "matched", "match_id": id | None}``."""
    entry = QuickMatchEntry.objects.filter(user=user).select_related("match").first()
    if entry is None:
        return {"state": "idle", "match_id": None}
    if entry.match_id is None:
        return {"state": "waiting", "match_id": None}
    return {"state": "matched", "match_id": entry.match_id}


def match_score_sheet(*, match: Match) -> dict[str, Any]:
    """Hand by hand: dealer, outcome, points and running totals; then the final score."""
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    running = [0, 0]
    rows = []
    for hand in Hand.objects.filter(match=match, result__isnull=False).order_by("number"):
        if hand.winner_seat is not None:
            running[hand.winner_seat] += hand.points
        rows.append(
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "kind": hand.result_kind,
                "winner": hand.winner_seat,
                "points": hand.points,
                "totals": list(running),
            }
        )
    return {
        "match_id": match.pk,
        "seats": [_seat_name(s) for s in seats],
        "hands": rows,
        "final": match.final_score,
        "winner": match.winner_seat,
        "end_reason": match.end_reason,
    }


def hand_replay(*, hand: Hand) -> list[dict[str, Any]]:
    """A finished hand move by move, rebuilt from its seed and Move log.

    One step per position, starting with the deal: ``{"move": {seq, seat, action,
    auto} | None, "views": [player_view(0), player_view(1)]}`` (both hands shown:
    the hand is over). Raises HandNotOverError for a hand still in play.
    """
    match_over = Match.objects.filter(pk=hand.match_id, status=Match.Status.FINISHED).exists()
    if hand.result is None and not match_over:
        raise HandNotOverError()
    rules = RuleSet.from_dict(hand.match.rules)
    state = HandState.deal(rules, hand.dealer, bytes(hand.seed))
    steps = [{"move": None, "views": [state.player_view(0), state.player_view(1)]}]
    for move in Move.objects.filter(hand=hand).order_by("seq"):
        state, _events = state.apply(move.action)
        steps.append(
            {
                "move": {
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": move.action,
                    "auto": move.auto,
                },
                "views": [state.player_view(0), state.player_view(1)],
            }
        )
    return steps


# --- building the state message ------------------------------------------------------


def _load(match: Match) -> tuple[Match, list[Seat], list[Hand]]:
    """The match row, its seats and its hands; only ``match.pk`` is used. The row is
    read in the same statement as the hands, so the version sent always belongs to
    the position sent, even while another process commits a move. Raises
    ``Match.DoesNotExist`` if the match is gone."""
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    hands = list(Hand.objects.filter(match=match).select_related("match").order_by("number"))
    if hands:
        return hands[-1].match, seats, hands
    return Match.objects.get(pk=match.pk), seats, hands  # no hand dealt yet


def _is_user(seat: Seat, user: Any) -> bool:
    return (
        seat.user_id is not None
        and getattr(user, "is_authenticated", False)
        and seat.user_id == user.pk
    )


def _connected(seat: Seat) -> bool:
    return bool(seat.bot_level) or seat.connected


def _seat_name(seat: Seat) -> str:
    if seat.bot_level:
        return f"Computer ({seat.bot_level})"
    if seat.user is None:
        return "deleted player"
    return seat.user.display_name


def _state_messages(
    match: Match, seats: list[Seat], hands: list[Hand], audiences: list[Audience]
) -> dict[Audience, dict[str, Any]]:
    shared = _match_dict(match, seats, hands)
    current = hands[-1] if hands else None
    state = HandState.from_dict(current.state) if current is not None else None
    messages = {}
    for audience in audiences:
        if state is None:
            view = None
        elif audience is None:
            view = state.spectator_view()
        else:
            view = state.player_view(audience)
        messages[audience] = {
            "type": "state",
            "version": match.version,
            "you": audience,
            "match": shared,
            "view": view,
        }
    return messages


def _match_dict(match: Match, seats: list[Seat], hands: list[Hand]) -> dict[str, Any]:
    over = match.status == Match.Status.FINISHED
    current = hands[-1] if hands else None
    return {
        "id": match.pk,
        "status": match.status,
        "kind": match.kind,
        "variant": match.variant,
        "rated": match.rated,
        "rules": match.rules,
        "hand_number": current.number if current else 0,
        "seats": [
            {
                "seat": s.index,
                "name": _seat_name(s),
                "bot_level": s.bot_level or None,
                "connected": _connected(s),
                "score": s.score,
            }
            for s in seats
        ],
        "commitment": current.seed_hash if current else None,
        "clock": _clock(match),
        "current_seat": match.current_seat,
        "winner": match.winner_seat,
        "end_reason": match.end_reason or None,
        "final": match.final_score,
        "hands": [
            {
                "number": h.number,
                "dealer": h.dealer,
                "commitment": h.seed_hash,
                "seed": bytes(h.seed).hex(),
                "result": h.result,
            }
            for h in hands
            if h.result is not None or over
        ],
        "rematch": {
            "offered_by": match.rematch_offered_by,
            "match_id": _rematch_id(match) if over else None,
        },
    }


def _clock(match: Match) -> dict[str, Any] | None:
    seconds = match.rules.get("turn_seconds")
    if match.status != Match.Status.ACTIVE or seconds is None or match.turn_deadline is None:
        return None
    deadline: datetime = match.turn_deadline
    remaining = (deadline - timezone.now()).total_seconds()
    return {
        "turn_seconds": seconds,
        "deadline": deadline.isoformat().replace("+00:00", "Z"),
        "remaining_ms": max(0, int(remaining * 1000)),
    }


def _rematch_id(match: Match) -> int | None:
    return (
        Match.objects.filter(rematch_of=match).order_by("pk").values_list("pk", flat=True).first()
    )
