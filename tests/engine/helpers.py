"""Building chosen deals for the engine tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.engine import Card, HandState, RuleSet, new_deck


def cards(text: str) -> list[Card]:
    """Cards from space-separated texts: cards("AH 2H 3H")."""
    return [Card.parse(t) for t in text.split()]


def texts(items: Iterable[Card | str]) -> list[str]:
    return [str(item) for item in items]


def chosen_deal(
    hand0: str,
    hand1: str,
    *,
    upcard: str,
    stock_top: str = "",
    rules: RuleSet | None = None,
    dealer: int = 0,
    stock_size: int | None = None,
) -> HandState:
    """A deal with these hands and upcard; the stock starts with ``stock_top`` and
    continues with the remaining cards in deck order (cut to ``stock_size``)."""
    used = set(cards(hand0) + cards(hand1) + cards(upcard) + cards(stock_top))
    stock = cards(stock_top) + [card for card in new_deck() if card not in used]
    if stock_size is not None:
        stock = stock[:stock_size]
    return HandState.from_cards(
        rules or RuleSet.default(), dealer, [cards(hand0), cards(hand1)], upcard, stock
    )


def play(state: HandState, *actions: dict[str, Any]) -> HandState:
    for action in actions:
        state, _ = state.apply(action)
    return state


PASS = {"type": "pass"}
STOCK = {"type": "draw", "source": "stock"}
PILE = {"type": "draw", "source": "discard"}


def discard(card: str) -> dict[str, str]:
    return {"type": "discard", "card": card}


def knock(card: str | None = None) -> dict[str, str]:
    return {"type": "knock"} if card is None else {"type": "knock", "card": card}


def knocked(
    knocker_hand: str,
    defender_hand: str,
    *,
    drawn: str,
    knock_card: str | None,
    rules: RuleSet | None = None,
    upcard: str | None = None,
) -> HandState:
    """Seat 1 (non-dealer) is dealt ``knocker_hand``, both pass the upcard, seat 1 draws
    ``drawn`` from the stock and knocks with ``knock_card``. Seat 0 holds
    ``defender_hand``."""
    used = set(cards(knocker_hand) + cards(defender_hand) + cards(drawn))
    up = upcard or str(next(c for c in reversed(new_deck()) if c not in used))
    state = chosen_deal(defender_hand, knocker_hand, upcard=up, stock_top=drawn, rules=rules)
    return play(state, PASS, PASS, STOCK, knock(knock_card))


def seat_cards(result_part: Sequence[Card]) -> list[str]:
    return sorted(texts(result_part))
