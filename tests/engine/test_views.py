"""Player and spectator views: what each may see (docs/rules.md section 10)."""

import json

from games.engine import HandState, RuleSet

from .helpers import PASS, PILE, STOCK, chosen_deal, discard, knock, play

HAND0 = "KH QD 2S 4S 6S 7D JD 3C TH AC"
HAND1 = "4H 5H 6H 9C 9D 9S JC QC 2D TS"

PLAYER_KEYS = {
    "seat", "hand", "melds", "deadwood_cards", "deadwood", "discard_pile", "stock_count",
    "current_player", "phase", "dealer", "knock_limit", "upcard", "opponent_card_count",
    "opponent_known_cards", "known_cards", "card_counts", "taken_from_discard", "rules",
    "history", "result", "legal_actions",
}


def start() -> HandState:
    return chosen_deal(HAND0, HAND1, upcard="KS", stock_top="KC 8H")


def test_a_player_sees_own_hand_melds_and_the_public_table():
    view = start().player_view(1)
    assert set(view) == PLAYER_KEYS
    assert view["seat"] == 1
    assert view["hand"] == ["2D", "4H", "5H", "6H", "9C", "9D", "9S", "TS", "JC", "QC"]
    assert view["melds"] == [["4H", "5H", "6H"], ["9C", "9D", "9S"]]
    assert view["deadwood_cards"] == ["2D", "TS", "JC", "QC"]
    assert view["deadwood"] == 32
    assert view["discard_pile"] == ["KS"] and view["upcard"] == "KS"
    assert view["stock_count"] == 31 and view["opponent_card_count"] == 10
    assert view["phase"] == "first_turn" and view["current_player"] == 1
    assert view["dealer"] == 0 and view["knock_limit"] == 10
    assert view["rules"] == RuleSet.default().to_dict()
    assert view["legal_actions"] == [{"type": "pass"}, {"type": "draw", "source": "discard"}]
    assert start().player_view(0)["legal_actions"] == []
    json.dumps(view)


def test_the_deadwood_shown_with_eleven_cards_counts_all_of_them():
    view = play(start(), PASS, PASS, STOCK).player_view(1)
    assert len(view["hand"]) == 11
    assert view["melds"] == [["4H", "5H", "6H"], ["9C", "9D", "9S"], ["JC", "QC", "KC"]]
    assert view["deadwood"] == 12


def test_cards_taken_from_the_pile_are_known_to_the_opponent_while_held():
    state = play(start(), PILE)  # seat 1 takes KS
    assert state.player_view(0)["opponent_known_cards"] == ["KS"]
    assert state.player_view(1)["taken_from_discard"] == "KS"
    assert state.player_view(0)["taken_from_discard"] is None
    state = play(state, discard("2D"), STOCK, discard("KC"), STOCK)
    assert state.player_view(0)["opponent_known_cards"] == ["KS"]
    state = play(state, discard("KS"))
    assert state.player_view(0)["opponent_known_cards"] == []
    assert state.spectator_view()["known_cards"] == [[], []]


def test_history_lists_public_events_only():
    state = play(start(), PASS, PILE, discard("3C"), STOCK)
    history = [
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "draw", "source": "discard", "card": "KS"},
        {"seat": 0, "type": "discard", "card": "3C"},
        {"seat": 1, "type": "draw", "source": "stock"},  # the stock card stays hidden
    ]
    assert state.player_view(0)["history"] == history
    assert state.player_view(1)["history"] == history
    assert state.spectator_view()["history"] == history
    assert "KC" not in json.dumps(state.player_view(0))


def test_a_spectator_sees_no_hand():
    state = play(start(), PILE)
    view = state.spectator_view()
    assert set(view) == PLAYER_KEYS
    assert view["seat"] is None and view["hand"] == [] and view["melds"] == []
    assert view["legal_actions"] == []
    assert view["card_counts"] == [10, 11]
    assert view["known_cards"] == [[], ["KS"]]
    visible = json.dumps(view)
    assert not any(card in visible for card in HAND0.split() + HAND1.split())


def test_after_the_showdown_both_hands_are_revealed_with_the_lay_offs():
    state = play(start(), PASS, PASS, STOCK, knock("TS"))
    for view in (state.player_view(0), state.player_view(1), state.spectator_view()):
        assert view["phase"] == "over" and view["current_player"] is None
        result = view["result"]
        assert result["kind"] == "knock" and result["winner"] == 1
        assert result["hands"][0] == sorted(HAND0.split(), key=lambda t: "A23456789TJQK".index(
            t[0]) * 4 + "CDHS".index(t[1]))
        assert result["melds"][1] == [["4H", "5H", "6H"], ["9C", "9D", "9S"], ["JC", "QC", "KC"]]
        assert result["layoffs"] == [] and result["knock_card"] == "TS"
        assert "8H" not in json.dumps(view)  # the stock is never revealed
