"""Whole matches played through the services for the export and bot API tests:
people by a scripted policy (sometimes knocking without naming the card, sometimes
letting the clock run out, sometimes resigning), the computer by ``bot_turn_play``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta

from games import services
from games.engine import HandState, RuleSet, timeout_action
from games.models import Hand, Match, Seat
from tests.factories import create_match, create_user


@dataclass(frozen=True)
class Script:
    """How the scripted people play one match."""

    bare_knocks: float = 0.5  # share of knocks sent as {"type": "knock"} (server picks)
    timeout_every: int = 0  # every n-th turn of a person is left to the clock (0: none)
    resign_after: int | None = None  # moves after which seat 0's person resigns


def current_state(match: Match) -> HandState:
    return HandState.from_dict(Hand.objects.filter(match=match).order_by("-number").first().state)


def scripted_action(state: HandState, rng: random.Random, script: Script) -> dict:
    legal = state.legal_actions()
    for kind in ("big_gin", "knock"):
        ends = [a for a in legal if a["type"] == kind]
        if ends:
            if kind == "knock" and rng.random() < script.bare_knocks:
                return {"type": "knock"}
            return rng.choice(ends)
    if rng.random() < 0.03:
        return rng.choice([a for a in legal if a["type"] != "knock"] or legal)
    return timeout_action(state)


def play_match(match: Match, rng: random.Random, script: Script = Script(),
               max_moves: int = 4000) -> Match:
    """Play ``match`` to its end through the services; returns it refreshed."""
    person_turns = 0
    for count in range(max_moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        seat = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
        if seat.bot_level:
            assert services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            continue
        if script.resign_after is not None and count >= script.resign_after:
            person = Seat.objects.filter(match=match, bot_level="").order_by("index").first()
            services.match_resign(match=match, user=person.user)
            continue
        person_turns += 1
        if match.turn_deadline is not None and script.timeout_every and (
            person_turns % script.timeout_every == 0
        ):
            assert services.clock_expire(
                match_id=match.pk, expected_version=match.version,
                now=match.turn_deadline + timedelta(seconds=1),
            )
            continue
        services.move_submit(
            match=match, user=seat.user, action=scripted_action(current_state(match), rng, script),
            expected_version=match.version,
        )
    raise AssertionError("the match did not end")


def people_match(name: str, *, variant: str = "default", target: int = 50) -> Match:
    """A started friend match between two new players ``<name>-a`` and ``<name>-b``."""
    rules = RuleSet.preset(variant).replace(target_score=target)
    return create_match(create_user(f"{name}-a"), create_user(f"{name}-b"), rules=rules,
                        variant=variant)


def computer_match(name: str, *, level: str = "easy", variant: str = "default",
                   target: int = 50) -> Match:
    """A started match of the new player ``name`` against the computer at ``level``."""
    rules = RuleSet.preset(variant).replace(target_score=target)
    return create_match(create_user(name), level, rules=rules, variant=variant)
