"""Perft-style regression counts: distinct legal action sequences to a fixed depth.

From fixed seeded deals (and positions reached from them by a fixed line of play),
count every sequence of legal actions of exactly ``depth`` actions (a sequence that
ends the hand earlier is not counted). Any change to what is legal when (first turn,
discard restriction, knock limits, variants, the wall) changes these numbers.
"""

import pytest

from games.engine import HandState, RuleSet


def perft(state: HandState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(state.apply(action)[0], depth - 1) for action in state.legal_actions())


def near_the_wall(seed: bytes) -> HandState:
    """Both pass, then each turn draw from the stock and discard the first card listed,
    until 4 cards are left in the stock and a player is about to draw."""
    state = HandState.deal(RuleSet.default(), 1, seed)
    while not (state.stock_count == 4 and state.phase == "draw"):
        state, _ = state.apply(state.legal_actions()[0])
    return state


# Seed 1896: the non-dealer can take the upcard and knock with 2 deadwood at once.
KNOCK_SEED = (1896).to_bytes(32, "big")


@pytest.mark.parametrize(
    ("preset", "counts"),
    [
        ("default", [2, 14, 32, 253, 672]),
        ("time_freedom", [2, 14, 32, 253, 672]),
        ("straight", [2, 12, 32, 251, 672]),  # no knock, no gin available
        ("oklahoma", [2, 13, 32, 252, 672]),  # upcard 9D: limit 9, one knock of two
    ],
)
def test_perft_from_a_deal_with_an_early_knock(preset, counts):
    state = HandState.deal(RuleSet.preset(preset), 0, KNOCK_SEED)
    assert [perft(state, depth) for depth in range(1, 6)] == counts


def test_perft_from_the_worked_example_deal():
    state = HandState.deal(RuleSet.default(), 0, bytes(range(32)))
    assert [perft(state, depth) for depth in range(1, 7)] == [2, 12, 32, 251, 672, 5271]


@pytest.mark.parametrize(
    ("seed", "counts"),
    [
        (b"wall".ljust(32, b"\0"), [2, 21, 42, 441, 640, 6790]),
        (bytes(range(32)), [2, 21, 42, 453, 640, 6720]),
    ],
    ids=["wall-seed", "example-seed"],
)
def test_perft_near_the_wall(seed, counts):
    state = near_the_wall(seed)
    assert [perft(state, depth) for depth in range(1, 7)] == counts
