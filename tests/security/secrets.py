"""The hidden-information check of one state frame, fast enough for hundreds of
matches (a regular expression over the frame's JSON instead of a tree walk)."""

from __future__ import annotations

import json
import re
from typing import Any

from games.engine import HandState

CARD_STRING = re.compile(r'"([A2-9TJQK][CDHS])"')


def visible_cards(value: Any) -> set[str]:
    """Every JSON string in ``value`` that is a card text."""
    return set(CARD_STRING.findall(json.dumps(value)))


def assert_hides_secrets(
    frame: dict[str, Any], seat: int | None, state: HandState, seeds: dict[int, str]
) -> None:
    """``frame`` (a ``state`` message for ``seat``, None for spectators) shows no
    concealed card of the other seat, no stock card, and no seed of a hand still
    in play; a player sees exactly their own hand. ``state`` is the true state of
    the hand on the table, ``seeds`` the hex seed of every hand by number."""
    match = frame["match"]
    number = match["hand_number"]
    over = match["status"] == "finished"
    shown = {**frame, "match": {k: v for k, v in match.items() if k != "hands"}}
    text = json.dumps(shown) + json.dumps(match["hands"])
    for hand_number, seed in seeds.items():
        if hand_number >= number and not over:
            assert seed not in text, f"the seed of hand {hand_number} leaked to {seat}"
    assert all(h["number"] < number or over for h in match["hands"])
    if state.phase == "over":
        return  # the match ended on this hand: the showdown shows both hands
    leaked = visible_cards(shown) & concealed_from(state, seat)
    assert not leaked, f"concealed cards {sorted(leaked)} sent to {seat}"
    if seat is not None:
        assert frame["view"]["hand"] == [str(c) for c in state.hands[seat]]


def concealed_from(state: HandState, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see: the stock, and the other
    hand but for the cards it took from the discard pile."""
    concealed = {str(c) for c in state.stock}
    for other in (0, 1):
        if other != seat:
            concealed |= {str(c) for c in state.hands[other]} - {
                str(c) for c in state.known[other]
            }
    return concealed


def assert_event_hides_secrets(
    frame: dict[str, Any], seat: int | None, state: HandState, seeds: dict[int, str]
) -> None:
    """``frame`` (an ``event`` frame for ``seat``) shows no concealed card and no seed;
    only the mover's own frame says which card they drew from the stock."""
    text = json.dumps(frame)
    assert not any(seed in text for seed in seeds.values()), f"a seed leaked to {seat}"
    leaked = visible_cards(frame) & concealed_from(state, seat)
    assert not leaked, f"concealed cards {sorted(leaked)} sent to {seat}"
    movers = {event["seat"] for event in frame["events"]}
    assert "you" not in frame or seat in movers, f"private part sent to {seat}"
