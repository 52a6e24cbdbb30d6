"""HandState: creation, refused actions, events and the saved form."""

import json

import pytest

from games.engine import (
    ActionError,
    HandState,
    IllegalAction,
    MalformedAction,
    RuleSet,
    new_deck,
)

from .helpers import PASS, PILE, STOCK, chosen_deal, discard, knock, play, texts

HAND0 = "KH QD 2S 4S 6S 7D JD 3C TH AC"
HAND1 = "4H 5H 6H 9C 9D 9S JC QC 2D TS"


def start(**kwargs) -> HandState:
    return chosen_deal(HAND0, HAND1, upcard="KS", stock_top="KC 8H", **kwargs)


@pytest.mark.parametrize(
    "action",
    [
        None,
        "pass",
        {},
        {"type": "shuffle"},
        {"type": 3},
        {"type": "draw"},
        {"type": "draw", "source": "table"},
        {"type": "discard"},
        {"type": "discard", "card": "1Z"},
        {"type": "discard", "card": None},
        {"type": "pass", "card": "AS"},
        {"type": "knock", "card": 17},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    state = start()
    before = state.to_dict()
    with pytest.raises(MalformedAction):
        state.apply(action)
    assert state.to_dict() == before


def test_illegal_and_malformed_are_both_action_errors():
    assert issubclass(MalformedAction, ActionError) and issubclass(IllegalAction, ActionError)
    assert issubclass(ActionError, ValueError)


def test_only_the_player_to_move_may_act():
    state = start()
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(PASS, seat=0)
    assert state.apply(PASS, seat=1)[0].current_player == 0


def test_no_action_after_the_hand():
    state = play(start(), PASS, PASS, STOCK, knock("TS"))
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="hand is over"):
        state.apply(PASS)


def test_events_describe_the_action():
    state, events = start().apply(PILE)
    assert events == [{"seat": 1, "type": "draw", "source": "discard", "card": "KS"}]
    state, events = state.apply(discard("2D"))
    assert events == [{"seat": 1, "type": "discard", "card": "2D"}]
    state, events = state.apply(STOCK)
    assert events == [{"seat": 0, "type": "draw", "source": "stock"}]
    state, events = play(state, discard("KC")).apply(PILE)
    state, events = state.apply(knock("KS"))
    assert events[0] == {"seat": 1, "type": "knock"}
    assert events[1] == {"type": "hand_over", "result": state.result.to_dict()}


def test_cards_may_be_given_as_card_objects():
    state = play(start(), PASS, PASS, STOCK)
    card = next(c for c in state.hands[1] if str(c) == "TS")
    assert play(state, {"type": "knock", "card": card}).result.kind == "knock"


def test_the_saved_form_round_trips_through_json_at_every_step():
    state = start()
    for action in (PASS, PASS, STOCK, discard("TS"), PILE, discard("KH"), STOCK,
                   knock("8H")):
        saved = json.loads(json.dumps(state.to_dict()))
        assert HandState.from_dict(saved) == state
        assert HandState.from_dict(saved).to_dict() == state.to_dict()
        state = play(state, action)
    assert HandState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_a_saved_state_written_in_lower_case_reads_as_the_same_state():
    state = play(start(), PASS)
    saved = state.to_dict()
    saved["stock"] = [card.lower() for card in saved["stock"]]
    saved["hands"][1] = [card.lower() for card in saved["hands"][1]]
    assert HandState.from_dict(saved) == state


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("hands"),
        lambda d: d.update(format=99),
        lambda d: d.update(phase="sleeping"),
        lambda d: d.update(current_player=None),
        lambda d: d["stock"].append(d["hands"][0][0]),
        lambda d: d["rules"].update(knock_limit=42),
        lambda d: d["hands"][0].__setitem__(0, "ZZ"),
        lambda d: d["hands"][0].__setitem__(0, ["A", "S"]),
        lambda d: d.update(stock=7),
    ],
)
def test_a_damaged_saved_state_is_refused(damage):
    saved = start().to_dict()
    damage(saved)
    with pytest.raises(ValueError):
        HandState.from_dict(saved)


@pytest.mark.parametrize(
    ("hands", "upcard", "stock", "message"),
    [
        (["AS 2S", HAND1], "KS", "KC 8H 7H", "must be dealt 10 cards"),
        ([HAND0, HAND1], "KS", "KC 8H", "at least 3"),
        ([HAND0, HAND1], "KS", "KC 8H KS", "more than once"),
        ([HAND0, HAND1], "AC", "KC 8H 7H", "more than once"),
    ],
)
def test_from_cards_refuses_impossible_deals(hands, upcard, stock, message):
    with pytest.raises(ValueError, match=message):
        HandState.from_cards(RuleSet.default(), 0, [h.split() for h in hands], upcard,
                             stock.split())
    with pytest.raises(ValueError, match="dealer"):
        HandState.from_cards(RuleSet.default(), 2, [HAND0.split(), HAND1.split()], "KS",
                             ["KC", "8H", "7H"])


def test_from_cards_with_a_full_deck_conserves_every_card():
    state = start()
    assert sorted(state.all_cards()) == sorted(new_deck())
    assert state.stock_count == 31 and texts(state.stock[:2]) == ["KC", "8H"]
