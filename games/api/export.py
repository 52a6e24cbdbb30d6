"""The open export of a match: the ``gin-match/2`` document of docs/export.md.

Read only (a selector): the match, its seats, hands and Move log become one JSON
document, signed with the site's Ed25519 key (games/api/signing.py), that
``python -m games.engine.verify`` (or the single file ``verify_gin.py``) checks
against the rules and the signature. A finished
match exports every hand (a hand cut short by a resignation has ``result: null``); a
match in play exports its finished hands only, so no secret of the hand on the table
(its seed, the stock, a concealed card) ever leaves the server.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games.engine import Card, RuleSet, deal_cards, parse_action, score_match
from games.engine.verify import FORMAT, sign_export
from games.models import Hand, Match, Move, Seat

from .signing import signing_key


def player_name(seat: Seat) -> str:
    """The seat's name in exports and API answers (the BOT mark is the ``bot`` field)."""
    if seat.bot_level:
        return f"Computer ({seat.bot_level})"
    if seat.user is None:
        return "deleted player"
    return "deleted player" if seat.user.display_name == "deleted player" else seat.user.username


def export_action(action: dict[str, Any], knock_card: str | None) -> dict[str, Any]:
    """A logged action in canonical form: card texts upper case, and a knock sent
    without a card with the card the server chose (the hand's knock card)."""
    parsed = parse_action(action)
    out: dict[str, Any] = {"type": parsed["type"]}
    if parsed["type"] == "draw":
        out["source"] = parsed["source"]
    if parsed["type"] == "discard":
        out["card"] = str(parsed["card"])
    if parsed["type"] == "knock":
        card = parsed.get("card")
        out["card"] = str(card) if isinstance(card, Card) else knock_card
    return out


def _deal(hand: Hand) -> dict[str, Any]:
    cards = deal_cards(bytes(hand.seed), hand.dealer)
    return {
        "hands": [[str(c) for c in cards.hands[0]], [str(c) for c in cards.hands[1]]],
        "upcard": str(cards.upcard),
        "stock": [str(c) for c in cards.stock],
    }


def match_export(*, match: Match) -> dict[str, Any]:
    """The signed export document of ``match`` (as it is now: finished hands only while
    in play)."""
    match = Match.objects.get(pk=match.pk)
    over = match.status == Match.Status.FINISHED
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    hands = [
        h for h in Hand.objects.filter(match=match).order_by("number")
        if over or h.result is not None
    ]
    moves: dict[int, list[Move]] = defaultdict(list)
    for move in Move.objects.filter(hand__in=[h.pk for h in hands]).order_by("seq"):
        moves[move.hand_id].append(move)
    rules = RuleSet.from_dict(match.rules)
    final = match.final_score if over else score_match(
        rules, [h.result for h in hands if h.result is not None]
    ).to_dict()
    document = {
        "format": FORMAT,
        "id": match.pk,
        "variant": match.variant,
        "rules": rules.to_dict(),
        "players": [
            {
                "seat": seat.index,
                "name": player_name(seat),
                "bot_level": seat.bot_level or None,
                "bot": bool(seat.user is not None and getattr(seat.user, "is_bot", False)),
            }
            for seat in seats
        ],
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "commitment": hand.seed_hash,
                "seed": bytes(hand.seed).hex(),
                "deal": _deal(hand),
                "actions": [
                    {
                        "seat": move.seat,
                        "action": export_action(
                            move.action, (hand.result or {}).get("knock_card")
                        ),
                        "timeout": move.auto,
                    }
                    for move in moves[hand.pk]
                ],
                "result": hand.result,
            }
            for hand in hands
        ],
        "final": final,
        "end_reason": (match.end_reason or None) if over else None,
        "winner": match.winner_seat if over else None,
    }
    return sign_export(document, *signing_key())
