"""Property tests over random legal play from random seeded deals."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ActionError, HandState, RuleSet, new_deck

MAX_ACTIONS = 3000  # random play draws from the stock half the time: ends long before

rules_strategy = st.sampled_from([RuleSet.preset(name) for name in RuleSet.PRESETS]
                                 + [RuleSet(big_gin_allowed=False, knock_limit=3)])
deals = st.builds(
    HandState.deal,
    rules_strategy,
    st.integers(min_value=0, max_value=1),
    st.binary(min_size=32, max_size=32),
)

DECK = sorted(new_deck())


def hidden_from(state: HandState, seat: int) -> set[str]:
    """Cards the player in ``seat`` must not see: the stock, and the opponent's
    cards it did not take from the discard pile (until the showdown)."""
    hidden = {str(card) for card in state.stock}
    if not state.is_over:
        opponent = 1 - seat
        known = set(state.known[opponent])
        hidden |= {str(card) for card in state.hands[opponent] if card not in known}
    return hidden


def strings_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def play_out(state: HandState, rng: random.Random, check) -> HandState:
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return state
        check(state)
        state, _ = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the hand did not end")


@settings(max_examples=40, deadline=None)
@given(deals, st.randoms(use_true_random=False))
def test_random_legal_play_ends_and_conserves_the_52_cards(state, rng):
    def check(s: HandState) -> None:
        assert sorted(s.all_cards()) == DECK
        assert len(s.hands[s.current_player]) == (11 if s.phase == "discard" else 10)

    final = play_out(state, rng, check)
    assert sorted(final.all_cards()) == DECK
    assert final.result is not None and final.current_player is None


@settings(max_examples=30, deadline=None)
@given(deals, st.randoms(use_true_random=False))
def test_a_view_never_shows_the_opponents_hidden_cards_or_the_stock(state, rng):
    def check(s: HandState) -> None:
        for seat in (0, 1):
            view = s.player_view(seat)
            assert not strings_in(view) & hidden_from(s, seat)
            assert view["hand"] == [str(card) for card in s.hands[seat]]
        spectator = strings_in(s.spectator_view())
        everything_hidden = {str(c) for c in (*s.stock, *s.hands[0], *s.hands[1])}
        public = {str(c) for c in (*s.known[0], *s.known[1])}
        assert not spectator & (everything_hidden - public)

    final = play_out(state, rng, check)
    for seat in (0, 1):
        assert not strings_in(final.player_view(seat)) & hidden_from(final, seat)


@settings(max_examples=30, deadline=None)
@given(deals, st.randoms(use_true_random=False))
def test_apply_never_changes_the_old_state(state, rng):
    def check(s: HandState) -> None:
        before = json.dumps(s.to_dict())
        for action in s.legal_actions():
            s.apply(action)
        for bad in ({"type": "discard", "card": "AS"}, {"type": "pass"}, {"type": "big_gin"},
                    {"type": "knock"}, {"type": "draw", "source": "stock"}):
            try:
                s.apply(bad)
            except ActionError:
                pass
        assert json.dumps(s.to_dict()) == before

    play_out(state, rng, check)


@settings(max_examples=30, deadline=None)
@given(deals, st.randoms(use_true_random=False))
def test_the_saved_form_round_trips_at_every_step(state, rng):
    def check(s: HandState) -> None:
        assert HandState.from_dict(json.loads(json.dumps(s.to_dict()))) == s

    final = play_out(state, rng, check)
    check(final)
