"""The bots see only a player view: nothing hidden is reachable from what they get.

A view never holds the opponent's unrevealed cards, the stock or the seed; the
bot works on a deep copy of it (the caller's objects are untouched); and two
different real deals that give a seat the same view make every level choose the
same action: the hidden cards cannot influence it.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.bots import LEVELS, choose_action
from games.engine import HandState, RuleSet

from .helpers import play_hand, seed_bytes

ALL_CARDS = {r + s for s in "CDHS" for r in "A23456789TJQK"}


def strings_in(value: Any) -> set[str]:
    """Every string anywhere inside a JSON-like value (keys included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        found: set[str] = set()
        for key, item in value.items():
            found |= strings_in(key) | strings_in(item)
        return found
    if isinstance(value, list | tuple):
        found = set()
        for item in value:
            found |= strings_in(item)
        return found
    assert value is None or isinstance(value, bool | int | float), type(value)
    return set()


def test_views_given_to_bots_hold_nothing_hidden() -> None:
    checked = 0

    def check(state: HandState, view: dict, legal: list, action: dict) -> None:
        nonlocal checked
        seat = view["seat"]
        opponent = state.player_view(1 - seat)
        unrevealed = set(opponent["hand"]) - set(view["opponent_known_cards"])
        seen = strings_in(view)
        assert not seen & unrevealed
        stock_cards = (
            ALL_CARDS - set(view["hand"]) - set(opponent["hand"]) - set(view["discard_pile"])
        )
        assert len(stock_cards) == view["stock_count"]
        assert not seen & stock_cards
        assert not {"seed", "stock", "hands", "deck"} & set(view)
        assert all(not isinstance(v, bytes) for v in view.values())
        checked += 1

    for n in range(4):
        play_hand(
            RuleSet.default(),
            ("medium", "easy"),
            seed_bytes("hidden", n),
            dealer=n % 2,
            on_decision=check,
        )
    assert checked > 40


@pytest.mark.parametrize("level", LEVELS)
def test_bot_never_changes_the_view_it_is_given(level: str) -> None:
    def check(state: HandState, view: dict, legal: list, action: dict) -> None:
        snapshot = copy.deepcopy((view, legal))
        choose_action(level, view, legal, random.Random(5), budget=30)
        assert (view, legal) == snapshot

    play_hand(
        RuleSet.default(), (level, "easy"), seed_bytes("copy", level), budget=30, on_decision=check
    )


def twin_states() -> tuple[HandState, HandState]:
    """Two deals that differ only in what seat 0 cannot see: seat 1's hand and the
    stock below its first card. Seat 0 (the non-dealer) holds the same cards."""
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    random.Random(11).shuffle(deck)
    mine, theirs, upcard, rest = deck[:10], deck[10:20], deck[20], deck[21:]
    stock_a = rest
    # Swap six of seat 1's cards with stock cards (never the first stock card, which
    # seat 0 draws), and reverse the order of the rest of the stock.
    theirs_b = theirs[:4] + rest[1:7]
    stock_b = [rest[0], *reversed(theirs[4:] + rest[7:])]
    a = HandState.from_cards(RuleSet.default(), 1, [mine, theirs], upcard, stock_a)
    b = HandState.from_cards(RuleSet.default(), 1, [mine, theirs_b], upcard, stock_b)
    return a, b


def advance(state: HandState, actions: list[dict]) -> HandState:
    for action in actions:
        state, _ = state.apply(action)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_from_different_deals_gives_the_same_action(level: str) -> None:
    a, b = twin_states()
    assert a.player_view(1)["hand"] != b.player_view(1)["hand"]
    positions = [(a, b)]
    # Seat 0 passes, seat 1 passes, seat 0 draws the (common) first stock card and
    # discards, seat 1 draws a different stock card in each deal and discards a card
    # both of its hands hold: seat 0 then sees exactly the same table in both.
    common = sorted(set(a.player_view(1)["hand"]) & set(b.player_view(1)["hand"]))[0]
    opening = [{"type": "pass"}, {"type": "pass"}, {"type": "draw", "source": "stock"}]
    a1, b1 = advance(a, opening), advance(b, opening)
    discard = next(x for x in a1.legal_actions() if x["type"] == "discard")
    rest = [discard, {"type": "draw", "source": "stock"}, {"type": "discard", "card": common}]
    positions.append((advance(a1, rest), advance(b1, rest)))
    for state_a, state_b in positions:
        view_a, view_b = state_a.player_view(0), state_b.player_view(0)
        assert view_a == view_b
        assert state_a.stock != state_b.stock
        legal = state_a.legal_actions()
        assert legal == state_b.legal_actions()
        for seed in range(3):
            chosen_a = choose_action(level, view_a, legal, random.Random(seed), budget=200)
            chosen_b = choose_action(level, view_b, legal, random.Random(seed), budget=200)
            assert chosen_a == chosen_b


def knockable_twins() -> tuple[HandState, HandState]:
    """Two deals in which seat 0 (the non-dealer) holds three melds and a king, so it
    may knock after its first draw, while seat 1's hand and the stock below seat 0's
    draw differ: seat 0 sees the same table at that knock decision in both."""
    mine = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "KS"]
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in mine]
    random.Random(23).shuffle(deck)
    theirs, upcard, rest = deck[:10], deck[10], deck[11:]
    theirs_b = theirs[:3] + rest[1:8]
    stock_b = [rest[0], *reversed(theirs[3:] + rest[8:])]
    a = HandState.from_cards(RuleSet.default(), 1, [mine, theirs], upcard, rest)
    b = HandState.from_cards(RuleSet.default(), 1, [mine, theirs_b], upcard, stock_b)
    return a, b


@pytest.mark.parametrize("level", LEVELS)
def test_a_knock_decision_ignores_the_hidden_cards(level: str) -> None:
    a, b = knockable_twins()
    opening = [{"type": "pass"}, {"type": "pass"}, {"type": "draw", "source": "stock"}]
    state_a, state_b = advance(a, opening), advance(b, opening)
    view_a, view_b = state_a.player_view(0), state_b.player_view(0)
    assert view_a == view_b and state_a.stock != state_b.stock
    assert state_a.player_view(1)["hand"] != state_b.player_view(1)["hand"]
    legal = state_a.legal_actions()
    assert legal == state_b.legal_actions()
    assert any(action["type"] == "knock" for action in legal)
    for seed in range(3):
        chosen_a = choose_action(level, view_a, legal, random.Random(seed), budget=300)
        chosen_b = choose_action(level, view_b, legal, random.Random(seed), budget=300)
        assert chosen_a == chosen_b
