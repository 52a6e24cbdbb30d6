"""Drivers shared by the games tests: whole matches played through the
services (the computer by ``bot_turn_play``, the humans by a simple greedy policy)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from games import services
from games.engine import HandState, RuleSet, timeout_action
from games.models import Hand, Match, Move, Seat
from tests.security.secrets import concealed_from


def current_state(match: Match) -> HandState:
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    return HandState.from_dict(hand.state)


def greedy_action(state: HandState, rng: random.Random) -> dict:
    """Gin, big gin or knock as soon as legal; otherwise the clock's choice (draw
    from the stock, discard the card leaving the least deadwood), sometimes a
    random legal action so every kind of move shows up."""
    legal = state.legal_actions()
    for kind in ("big_gin", "knock"):
        ends = [a for a in legal if a["type"] == kind]
        if ends:
            return rng.choice(ends)
    if rng.random() < 0.05:
        return rng.choice(legal)
    return timeout_action(state)


def play_one(match: Match, rng: random.Random) -> None:
    """Whoever is to move plays one action through the services."""
    match.refresh_from_db()
    seat = Seat.objects.get(match=match, index=match.current_seat)
    if seat.bot_level:
        # False when the computer's turn was played already: a running worker (the
        # browser tests' site) may play it first; the caller reads the match again, and a
        # computer that never moves still ends in play_out's "did not end".
        services.bot_turn_play(match_id=match.pk, expected_version=match.version)
        return
    state = current_state(match)
    services.move_submit(
        match=match, user=seat.user, action=greedy_action(state, rng),
        expected_version=match.version,
    )


def play_out(match: Match, rng: random.Random, max_moves: int = 5000) -> Match:
    """Play the match to its end; returns it refreshed."""
    for _ in range(max_moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        play_one(match, rng)
    raise AssertionError("the match did not end")


def play_until_hand(match: Match, number: int, rng: random.Random) -> None:
    """Play until hand ``number`` is dealt (or the match ends)."""
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or match.hands.count() >= number:
            return
        play_one(match, rng)
    raise AssertionError("the hand was never reached")


# --- hidden information ------------------------------------------------------------------

CARD_TEXT = re.compile(r"^[A23456789TJQK][CDHS]$")


def cards_in(value: Any) -> set[str]:
    """Every card text anywhere in a JSON-like value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_TEXT.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= cards_in(item)
    return found


def states_by_version(match: Match) -> dict[int, HandState]:
    """The true state of the current hand at every version, rebuilt from the log
    (a version that ended a hand shows the next deal, as the table does)."""
    rules = RuleSet.from_dict(match.rules)
    truth: dict[int, HandState] = {}
    version = 1
    for hand in Hand.objects.filter(match=match).order_by("number"):
        state = HandState.deal(rules, hand.dealer, bytes(hand.seed))
        truth[version] = state
        for move in Move.objects.filter(hand=hand).order_by("seq"):
            state, _events = state.apply(move.action)
            version = move.seq
            truth[version] = state
    return truth


def assert_frame_hides_secrets(
    frame: dict, seat: int | None, truth: dict[int, HandState], seeds: dict[int, str]
) -> None:
    """A frame sent to ``seat`` (None: a spectator) shows no concealed card of
    anyone else, no stock card, and no seed of a hand still in play."""
    if frame.get("type") not in ("state", "event"):
        assert cards_in(frame) == set(), frame
        return
    state = truth[max(v for v in truth if v <= frame["version"])]
    if frame["type"] == "event":  # an ordinary move: no hand ended, no seed to show
        concealed = concealed_from(state, seat)
        assert not cards_in(frame) & concealed, f"concealed {cards_in(frame) & concealed}"
        return
    number = frame["match"]["hand_number"]
    over = frame["match"]["status"] == "finished"
    text = json.dumps(frame)
    for hand_number, seed in seeds.items():
        if hand_number >= number and not over:
            assert seed not in text, f"the seed of hand {hand_number} leaked"
    assert all(h["number"] < number or over for h in frame["match"]["hands"])
    if state.phase == "over":
        return  # the showdown reveals both hands
    concealed = concealed_from(state, seat)
    visible = cards_in({k: v for k, v in frame.items() if k != "match"})
    visible |= cards_in({k: v for k, v in frame["match"].items() if k != "hands"})
    assert not visible & concealed, f"concealed cards {visible & concealed} sent to {seat}"
    if seat is not None:
        assert frame["view"]["hand"] == [str(c) for c in state.hands[seat]]
