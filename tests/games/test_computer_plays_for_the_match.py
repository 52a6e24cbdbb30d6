"""The live computer and the hints are given the match score: expert one point from
winning the match knocks where, at the start of a match, it waits for a better hand
(games/bots/equity.py), and suggests that knock to a person in the same place.
"""

from __future__ import annotations

import pytest

from games import services
from games.analysis.services import hint_request
from games.engine import HandState, RuleSet
from games.models import Move
from tests.bots.helpers import play_hand, seed_bytes
from tests.factories import create_match_at, create_user

pytestmark = pytest.mark.django_db


def waited_knock() -> tuple[HandState, dict]:
    """A position of seat 0 where a knock is legal and the default player discards,
    and the result of a finished hand (to stand for the hands before it)."""
    found: list[HandState] = []

    def keep(state, view, legal, action) -> None:  # type: ignore[no-untyped-def]
        if view["seat"] == 0 and any(a["type"] == "knock" for a in legal) and (
            action["type"] == "discard"
        ):
            found.append(state)

    for n in range(20):
        finished = play_hand(RuleSet.default(), ("medium", "easy"), seed_bytes("endknock", n),
                             on_decision=keep)
        if found:
            assert finished.result is not None
            return found[0], finished.result.to_dict()
    raise AssertionError("no such position in 20 hands")


def computer_move(state: HandState, before: list[dict]) -> dict:
    """What expert (in seat 0) plays in ``state`` after the hands ``before``."""
    match = create_match_at(state, ["expert", create_user(f"p{len(before)}c")], before=before)
    assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
    return Move.objects.filter(match=match).order_by("-seq").first().action  # type: ignore[union-attr]


def hint(state: HandState, before: list[dict]) -> dict:
    """The hint a person in seat 0 gets in ``state`` after the hands ``before``."""
    player = create_user(f"p{len(before)}h")
    match = create_match_at(state, [player, "expert"], before=before)
    return hint_request(match_id=match.pk, user=player, version=match.version)["action"]


def test_expert_one_point_from_the_match_knocks_where_it_waits_at_the_start() -> None:
    state, result = waited_knock()
    assert computer_move(state, [])["type"] == "discard"
    won_99 = {**result, "kind": "knock", "winner": 0, "points": 99}
    assert computer_move(state, [won_99])["type"] == "knock"


def test_a_hint_one_point_from_the_match_is_the_knock_that_wins_it() -> None:
    state, result = waited_knock()
    assert hint(state, [])["type"] == "discard"
    won_99 = {**result, "kind": "knock", "winner": 0, "points": 99}
    assert hint(state, [won_99])["type"] == "knock"
