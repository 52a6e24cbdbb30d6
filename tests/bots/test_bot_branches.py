"""Branching the real hand (bench/botbranches.py): decisions valued on the true cards."""

from __future__ import annotations

import pytest

from bench import botbranches
from games.bots.arena import deal_seed
from games.engine import MatchState, RuleSet


def test_a_level_against_itself_is_never_branched_and_every_knock_is() -> None:
    # The same level asked twice from one view takes the same action: nothing to
    # compare. Knocking against waiting is branched wherever a knock without gin is legal.
    hands = botbranches.play_match(("medium", "medium", "easy", 4, 0, False))
    rows = [row for hand in hands for row in hand]
    assert rows and all(table == "knock minus wait" for table, _key, _diff in rows)
    assert {key.split(",")[0] for _table, key, _diff in rows} <= {"default knocks", "default waits"}


def test_a_variant_differs_from_its_level_only_where_its_change_does() -> None:
    # Medium knocking at the full limit two opponent turns longer: only knocks differ.
    hands = botbranches.play_match(("full_turns=4", "medium", "easy", 4, 0, True))
    kinds = {key for hand in hands for table, key, _ in hand if table == "a minus b"}
    assert "all" in kinds and "discard vs discard" not in kinds
    assert kinds & {"discard vs knock", "knock vs discard"}


def test_a_branch_is_the_hand_played_out_the_same_way_every_time() -> None:
    match = MatchState.start(RuleSet.preset("default"), first_dealer=0, seed=deal_seed(4, 0, 0))
    first = botbranches.hand_value(match, 0, "easy", "tag")
    assert botbranches.hand_value(match, 0, "easy", "tag") == first
    assert botbranches.hand_value(match, 1, "easy", "tag") == -first


def test_two_levels_differ_and_the_report_says_by_how_much(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert botbranches.main(["--a", "medium", "--b", "easy", "--cont", "easy", "--pairs", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 matches" in out and "a minus b" in out and "discard vs discard" in out
