"""Drivers shared by the games tests: users, and whole matches played through the
services (the computer by ``bot_turn_play``, the humans by a simple greedy policy)."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.engine import HandState, timeout_action
from games.models import Hand, Match, Seat


def make_user(django_user_model: Any, name: str, *, guest: bool = False) -> Any:
    return django_user_model.objects.create_user(
        username=name, email=f"{name}@example.com", password=None, is_guest=guest
    )


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
        assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
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
