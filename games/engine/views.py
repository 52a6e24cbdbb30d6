"""What a player or a spectator may see of a hand (docs/rules.md section 10).

A view is a JSON-ready dict built from the public parts of the state only: never
the opponent's unrevealed cards, the stock's content or order, or the seed. Once the
hand is over the result reveals both hands (the showdown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import cards_to_mask
from .melds import best_melds_mask

if TYPE_CHECKING:
    from .state import HandState


def _public(state: HandState) -> dict[str, Any]:
    return {
        "discard_pile": [str(card) for card in state.discard_pile],
        "stock_count": len(state.stock),
        "current_player": state.current_player,
        "phase": state.phase,
        "dealer": state.dealer,
        "knock_limit": state.knock_limit,
        "upcard": str(state.upcard),
        "card_counts": [len(state.hands[0]), len(state.hands[1])],
        "known_cards": [[str(c) for c in state.known[0]], [str(c) for c in state.known[1]]],
        "rules": state.rules.to_dict(),
        "history": [dict(event) for event in state.history],
        "result": None if state.result is None else state.result.to_dict(),
    }


def player_view(state: HandState, seat: int) -> dict[str, Any]:
    """The view of the player in ``seat``: own hand and melds plus the public table."""
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    hand = state.hands[seat]
    melding = best_melds_mask(cards_to_mask(hand))
    to_move = state.current_player == seat
    view = {
        "seat": seat,
        "hand": [str(card) for card in hand],
        "melds": [[str(card) for card in meld] for meld in melding.melds],
        "deadwood_cards": [str(card) for card in melding.deadwood],
        "deadwood": melding.points,
        "opponent_card_count": len(state.hands[1 - seat]),
        "opponent_known_cards": [str(card) for card in state.known[1 - seat]],
        "taken_from_discard": str(state.taken_from_discard)
        if to_move and state.taken_from_discard is not None
        else None,
        "legal_actions": state.legal_actions() if to_move else [],
    }
    view.update(_public(state))
    return view


def spectator_view(state: HandState) -> dict[str, Any]:
    """The view of someone watching: the public table only."""
    view: dict[str, Any] = {
        "seat": None,
        "hand": [],
        "melds": [],
        "deadwood_cards": [],
        "deadwood": None,
        "opponent_card_count": None,
        "opponent_known_cards": [],
        "taken_from_discard": None if state.taken_from_discard is None
        else str(state.taken_from_discard),
        "legal_actions": [],
    }
    view.update(_public(state))
    return view
