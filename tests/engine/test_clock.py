"""The turn clock as a value, and what the server plays when time runs out."""

from datetime import UTC, datetime, timedelta

import pytest

from games.engine import (
    RuleSet,
    TurnClock,
    abandoned_by_timeouts,
    disconnect_limit_seconds,
    timeout_action,
)

from .helpers import PASS, PILE, STOCK, chosen_deal, play


def test_the_clock_runs_out_after_the_turn_seconds():
    clock = TurnClock.start(RuleSet(turn_seconds=15), now=100.0)
    assert clock.remaining(110.0) == 5.0
    assert not clock.expired(114.99)
    assert clock.expired(115.0)
    assert clock.deadline == 115.0
    assert clock.remaining(200.0) == 0.0


def test_the_clock_accepts_datetimes():
    start = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
    clock = TurnClock.start(RuleSet.default(), now=start)
    assert clock.deadline == start + timedelta(seconds=30)
    assert not clock.expired(start + timedelta(seconds=29))
    assert clock.expired(start + timedelta(seconds=30))
    with pytest.raises(ValueError, match="same kind"):
        clock.expired(130.0)


def test_time_freedom_has_no_clock():
    assert TurnClock.start(RuleSet.time_freedom(), now=0.0) is None
    assert disconnect_limit_seconds(RuleSet.time_freedom()) == 24 * 3600
    assert disconnect_limit_seconds(RuleSet.default()) == 120


def test_three_timeouts_in_a_row_abandon():
    assert not abandoned_by_timeouts(2)
    assert abandoned_by_timeouts(3)


# Seat 1 could go gin with the 8H on top of the stock; the clock never knocks for it.
HAND0 = "KH QD 2S 4S 6S 7D JD 3C TH AC"
HAND1 = "2H 3H 4H 5H 5C 6C 7C 8S 8D KD"


def test_timeout_passes_on_the_first_turn():
    state = chosen_deal(HAND0, HAND1, upcard="QH", stock_top="8H")
    assert timeout_action(state) == {"type": "pass"}
    assert timeout_action(play(state, PASS)) == {"type": "pass"}


def test_timeout_draws_from_the_stock_then_discards_the_best_card_without_knocking():
    state = play(chosen_deal(HAND0, HAND1, upcard="QH", stock_top="8H"), PASS, PASS)
    assert timeout_action(state) == {"type": "draw", "source": "stock"}
    state = play(state, timeout_action(state))
    assert timeout_action(state) == {"type": "discard", "card": "KD"}
    state = play(state, timeout_action(state))
    assert not state.is_over and state.current_player == 0


def test_timeout_never_discards_the_card_taken_from_the_pile():
    state = play(chosen_deal(HAND0, HAND1, upcard="KS", stock_top="8H"), PILE)
    assert timeout_action(state) == {"type": "discard", "card": "KD"}
    state = play(chosen_deal(HAND0, HAND1, upcard="KS", stock_top="8H"), PASS, PASS, STOCK)
    assert timeout_action(state) == {"type": "discard", "card": "KD"}


def test_no_timeout_after_the_hand():
    state = play(chosen_deal(HAND0, HAND1, upcard="QH", stock_top="8H"),
                 PASS, PASS, STOCK, {"type": "knock", "card": "KD"})
    with pytest.raises(ValueError, match="hand is over"):
        timeout_action(state)


def test_moves_played_on_a_timeout_are_marked_in_the_events_and_the_history():
    state = play(chosen_deal(HAND0, HAND1, upcard="QH", stock_top="8H"), PASS, PASS)
    drawn, events = state.apply(timeout_action(state), timeout=True)
    assert events == [{"seat": 1, "type": "draw", "source": "stock", "timeout": True}]
    after, events = drawn.apply(timeout_action(drawn), timeout=True)
    assert events == [{"seat": 1, "type": "discard", "card": "KD", "timeout": True}]
    assert [e.get("timeout", False) for e in after.history] == [False, False, True, True]
    # The flag is kept with the state, and a move of one's own carries none.
    again = type(after).from_dict(after.to_dict())
    assert again.history == after.history
    _, events = again.apply({"type": "draw", "source": "stock"})
    assert "timeout" not in events[0]
