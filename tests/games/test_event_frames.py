"""Event frames against full states: for every move of whole matches (people, the
computer, the clock playing a turn that ran out, hands ending and dealt) and every
audience (each seat, spectators), the browser's events.js applied to the last state
gives exactly the state the server would send for the new version (Zulip's
"snapshot + events = fresh snapshot"). Run under Node.js, as the browser runs it;
the Python twin the load generator and the test clients use
(``games.messages.apply_frame``) is checked the same way.

Also: an ordinary move's frame is small, and a frame never carries a card its
audience may not see (the drawn stock card goes to the mover alone).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser

from games import broadcast, selectors, services
from games.engine import RuleSet
from games.models import Match, Seat
from tests.factories import create_match, seated
from tests.games.frames import TableState
from tests.games.helpers import current_state, greedy_action

pytestmark = pytest.mark.django_db

RUNNER = Path(__file__).parent / "js" / "apply_frames.mjs"
NODE = shutil.which("node") or "node"  # Node.js 20 is on the machines (docs/operations.md)
MAX_EVENT_FRAME_BYTES = 300


def audience_of(group: str, match_id: int) -> int | str | None:
    if group == f"match-{match_id}-spectators":
        return None
    if group.startswith(f"match-{match_id}-seat-"):
        return int(group.rsplit("-", 1)[1])
    return "public"


def play_and_record(match: Match, users: dict, rng: random.Random, capture, sent, moves: int):
    """Play ``moves`` moves (a turn sometimes left to the clock); per audience the
    initial state and each (frame, fresh state) pair."""
    viewers = {seat: user for seat, user in users.items() if user is not None}
    viewers[None] = AnonymousUser()
    sequences = {
        audience: {"audience": audience, "steps": [],
                   "initial": selectors.match_state_message(match=match, user=user)}
        for audience, user in viewers.items()
    }
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        sent.clear()
        seat = Seat.objects.get(match=match, index=match.current_seat)
        clock = False
        with capture(execute=True):
            if seat.bot_level:
                services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            elif rng.random() < 0.1 and match.turn_deadline is not None and (
                seat.timeouts_in_row == 0  # a third in a row would end the match
            ):
                clock = True
                assert services.clock_expire(
                    match_id=match.pk, expected_version=match.version,
                    now=match.turn_deadline + timedelta(seconds=1),
                )
            else:
                services.move_submit(
                    match=match, user=seat.user, action=greedy_action(current_state(match), rng),
                    expected_version=match.version,
                )
        # (The players' bot-API account events, e.g. a match's end, are not table frames.)
        frames = {audience_of(group, match.pk): event["message"] for group, event in sent
                  if event["type"] != "api.event"}
        assert set(frames) == set(viewers), frames.keys()
        for audience, user in viewers.items():
            fresh = selectors.match_state_message(match=match, user=user)
            sequences[audience]["steps"].append(
                {"frame": frames[audience], "expected": fresh, "clock": clock}
            )
    return list(sequences.values())


@pytest.mark.parametrize("opponent", ["person", "computer"])
def test_events_applied_to_the_last_state_give_the_servers_state(
    alice, bob, django_capture_on_commit_callbacks, monkeypatch, opponent
):
    sent: list = []
    monkeypatch.setattr(broadcast, "group_send", lambda sends: sent.extend(sends))
    # To 150: no single hand reaches it, so hands end and are dealt along the way.
    rules = RuleSet.default().replace(target_score=150)
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(alice, bob if opponent == "person" else "easy", rules=rules)
    users = seated(match)
    for seat, user in users.items():  # at the table: the clock plays turns, never abandons
        if user is not None:
            services.seat_connect(match=match, user=user, channel_name=f"frames!{seat}")
    sequences = play_and_record(
        match, users, random.Random(7), django_capture_on_commit_callbacks, sent, moves=400
    )
    match.refresh_from_db()
    assert match.hands.count() >= 2, (match.end_reason, match.final_score)

    frames = [step["frame"] for seq in sequences for step in seq["steps"]]
    events = [f for f in frames if f["type"] == "event"]
    assert len(events) > 0.8 * len(frames)
    assert any(len(f["events"]) == 2 for f in events)  # the clock's draw and discard
    # The clock's moves say so (the table tells the player); no other move does.
    for step in (step for seq in sequences for step in seq["steps"]):
        if step["frame"]["type"] == "event":
            flags = {e.get("timeout", False) for e in step["frame"]["events"]}
            assert flags == {step["clock"]}, step
    moves = [f for f in events if len(f["events"]) == 1]  # one ordinary move each
    sizes = [len(json.dumps(f, separators=(",", ":"))) for f in moves]
    assert max(sizes) <= MAX_EVENT_FRAME_BYTES, moves[sizes.index(max(sizes))]

    run = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps({"sequences": sequences}), capture_output=True,
        text=True, timeout=120, check=True,
    )
    result = json.loads(run.stdout)
    assert result["checked"] == len(frames)
    assert result["mismatches"] == []

    # The Python twin of events.js (games.messages.apply_frame) agrees too.
    keys = ("version", "view")
    for sequence in sequences:
        table = TableState()
        table.take(sequence["initial"])
        for step in sequence["steps"]:
            got = table.take(step["frame"])
            assert got is not None and {k: got[k] for k in keys} == {
                k: step["expected"][k] for k in keys
            }


def test_a_stock_draw_shows_its_card_to_the_mover_alone(
    alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    sent: list = []
    monkeypatch.setattr(broadcast, "group_send", lambda sends: sent.extend(sends))
    match = create_match(alice, bob)
    users = {0: alice, 1: bob}
    for _ in range(2):  # both players pass the upcard
        match.refresh_from_db()
        services.move_submit(match=match, user=users[match.current_seat],
                             action={"type": "pass"}, expected_version=match.version)
    match.refresh_from_db()
    mover = match.current_seat
    card = current_state(match).stock[0]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result = services.move_submit(
            match=match, user=users[mover], action={"type": "draw", "source": "stock"},
            expected_version=match.version,
        )
    frames = {audience_of(group, match.pk): event["message"] for group, event in sent}
    assert result.message == frames[mover]
    assert frames[mover]["you"]["drew"] == str(card)
    for audience in (1 - mover, None):
        assert str(card) not in json.dumps(frames[audience])
        assert "you" not in frames[audience]
