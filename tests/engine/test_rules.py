"""RuleSet: presets, serialisation and validation."""

import json

import pytest

from games.engine import RuleSet


def test_default_rules_follow_the_rule_book():
    rules = RuleSet.default()
    assert (rules.knock_limit, rules.target_score, rules.turn_seconds) == (10, 100, 30)
    assert (rules.gin_bonus, rules.big_gin_bonus, rules.undercut_bonus) == (25, 31, 25)
    assert (rules.game_bonus, rules.line_bonus) == (100, 25)
    assert rules.shutout and rules.big_gin_allowed
    assert not (rules.oklahoma or rules.straight or rules.oklahoma_ace_gin_only)


def test_presets():
    assert RuleSet.time_freedom() == RuleSet(turn_seconds=None)
    straight = RuleSet.straight_gin()
    assert straight.straight and straight.gin_bonus == 0 and straight.big_gin_bonus == 0
    assert straight.game_bonus == 100 and straight.line_bonus == 25 and straight.shutout
    assert RuleSet.oklahoma_gin().oklahoma
    assert RuleSet.PRESETS["straight"] == straight
    for name in ("default", "time_freedom", "straight", "oklahoma"):
        assert RuleSet.preset(name).preset_name() == name
        assert name in RuleSet.PRESETS
    assert RuleSet(knock_limit=7).preset_name() is None
    with pytest.raises(ValueError, match="unknown rule preset"):
        RuleSet.preset("hollywood")


@pytest.mark.parametrize("name", ["default", "time_freedom", "straight", "oklahoma"])
def test_rules_round_trip_through_json(name):
    rules = RuleSet.preset(name).replace(target_score=150) if name != "straight" \
        else RuleSet.preset(name)
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_from_dict_fills_missing_fields_and_refuses_unknown_ones():
    assert RuleSet.from_dict({"knock_limit": 5}) == RuleSet(knock_limit=5)
    with pytest.raises(ValueError, match="unknown rule field"):
        RuleSet.from_dict({"knock": 5})
    with pytest.raises(ValueError, match="knock_limit"):
        RuleSet.from_dict({"knock_limit": 11})


def test_rules_read_before_do_not_let_an_equal_looking_bad_value_through():
    """``from_dict`` remembers the rules it read (they are read back on every move); a
    value equal to a good one but of another type is still refused."""
    assert RuleSet.from_dict({"knock_limit": 1, "shutout": False}).knock_limit == 1
    with pytest.raises(ValueError, match="knock_limit must be a whole number"):
        RuleSet.from_dict({"knock_limit": True, "shutout": False})
    with pytest.raises(ValueError, match="shutout must be true or false"):
        RuleSet.from_dict({"knock_limit": 1, "shutout": 0})
    with pytest.raises(ValueError, match="knock_limit must be a whole number"):
        RuleSet.from_dict({"knock_limit": 1.0, "shutout": False})
    with pytest.raises(ValueError, match="knock_limit must be a whole number"):
        RuleSet.from_dict({"knock_limit": [1]})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"knock_limit": -1}, "knock_limit must be between 0 and 10"),
        ({"knock_limit": "10"}, "knock_limit must be a whole number"),
        ({"knock_limit": True}, "knock_limit must be a whole number"),
        ({"target_score": 120}, "target_score must be one of 50, 100, 150, 200, 250"),
        ({"gin_bonus": -5}, "gin_bonus must be between 0"),
        ({"line_bonus": 10**6}, "line_bonus must be between 0"),
        ({"shutout": 1}, "shutout must be true or false"),
        ({"turn_seconds": 45}, "turn_seconds must be one of 15, 30, 60, 120"),
        ({"straight": True}, "Straight Gin has no knocking"),
        ({"straight": True, "knock_limit": 0, "oklahoma": True}, "both Straight"),
        ({"oklahoma_ace_gin_only": True}, "applies only to Oklahoma"),
    ],
)
def test_invalid_rules_are_refused_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        RuleSet(**changes)


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        RuleSet.default().knock_limit = 3  # type: ignore[misc]
