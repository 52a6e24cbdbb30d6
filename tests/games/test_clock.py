"""The turn clock of docs/rules.md section 9, driven by a controllable "now": auto-play
on timeout, loss by abandonment, Time Freedom, the showdown grace, the sweep."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import services
from games.engine import RuleSet
from games.models import Match, Move, Seat
from games.services import scheduling
from tests.factories import create_match, play_to_turn_of
from tests.games.helpers import current_state, play_until_hand

pytestmark = pytest.mark.django_db

SECOND = timedelta(seconds=1)


def connected_computer_match(user, **kwargs) -> Match:
    """A match against the easy computer, ``user`` at the table and to move."""
    match = create_match(user, "easy", **kwargs)
    services.seat_connect(match=match, user=user, channel_name="tab!1")
    return play_to_turn_of(match, user)


def test_nothing_happens_before_the_deadline(alice):
    match = connected_computer_match(alice)
    version = match.version
    assert not services.clock_expire(
        match_id=match.pk, expected_version=version, now=match.turn_deadline - SECOND
    )
    assert not services.clock_expire(
        match_id=match.pk, expected_version=version - 1, now=match.turn_deadline + SECOND
    )
    match.refresh_from_db()
    assert match.version == version


def test_a_timed_out_turn_is_played_by_the_server(alice):
    match = connected_computer_match(alice)
    seat = Seat.objects.get(match=match, user=alice).index
    state = current_state(match)
    version = match.version
    when = match.turn_deadline
    assert services.clock_expire(match_id=match.pk, expected_version=version, now=when)
    match.refresh_from_db()
    auto = list(Move.objects.filter(match=match, seq__gt=version).order_by("seq"))
    assert all(m.auto and m.seat == seat for m in auto)
    if state.phase == "first_turn":
        assert [m.action for m in auto] == [{"type": "pass"}]
    else:
        assert [m.action["type"] for m in auto] == ["draw", "discard"]
        assert auto[0].action == {"type": "draw", "source": "stock"}
    assert match.current_seat == 1 - seat
    assert match.turn_started_at == when
    assert Seat.objects.get(match=match, index=seat).timeouts_in_row == 1
    # The hand's history (every view of it, and the frames) marks those moves as the
    # server's, and only those.
    mine = [e for e in current_state(match).history if e.get("seat") == seat]
    assert [e.get("timeout", False) for e in mine] == [False] * (len(mine) - len(auto)) + [
        True
    ] * len(auto)


def test_three_timeouts_in_a_row_lose_by_abandonment(alice):
    match = connected_computer_match(alice)
    seat = Seat.objects.get(match=match, user=alice).index
    for _ in range(2):
        assert services.clock_expire(
            match_id=match.pk, expected_version=match.version, now=match.turn_deadline
        )
        match = play_to_turn_of(match, alice)
    version = match.version
    assert services.clock_expire(
        match_id=match.pk, expected_version=version, now=match.turn_deadline
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.end_reason == Match.EndReason.ABANDON
    assert match.winner_seat == 1 - seat
    assert match.final_score["forfeit"] == seat
    assert not Move.objects.filter(match=match, seq__gt=version).exists()


def test_a_move_of_ones_own_resets_the_timeouts(alice):
    match = connected_computer_match(alice)
    for _ in range(2):
        services.clock_expire(
            match_id=match.pk, expected_version=match.version, now=match.turn_deadline
        )
        match = play_to_turn_of(match, alice)
    services.move_submit(
        match=match, user=alice, action=current_state(match).legal_actions()[0],
        expected_version=match.version,
    )
    assert Seat.objects.get(match=match, user=alice).timeouts_in_row == 0


def test_disconnected_two_minutes_on_ones_turn_loses(alice):
    rules = RuleSet.default().replace(turn_seconds=120)
    match = connected_computer_match(alice, rules=rules)
    seat = Seat.objects.get(match=match, user=alice).index
    gone = match.turn_started_at
    services.seat_disconnect(match=match, user=alice, channel_name="tab!1", now=gone)
    limit = gone + timedelta(minutes=2)
    assert not services.clock_expire(
        match_id=match.pk, expected_version=match.version, now=limit - SECOND
    )
    assert services.clock_expire(match_id=match.pk, expected_version=match.version, now=limit)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert (match.end_reason, match.winner_seat) == (Match.EndReason.ABANDON, 1 - seat)


def test_coming_back_in_time_keeps_the_match(alice):
    match = connected_computer_match(alice, variant="time_freedom")
    services.seat_disconnect(
        match=match, user=alice, channel_name="tab!1", now=match.turn_started_at
    )
    services.seat_connect(match=match, user=alice, channel_name="tab!2")
    assert not services.clock_expire(
        match_id=match.pk, expected_version=match.version,
        now=match.turn_started_at + timedelta(days=2),
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_time_freedom_has_no_clock_but_24_hours_away_loses(alice):
    match = connected_computer_match(alice, variant="time_freedom")
    assert match.turn_deadline is None
    gone = match.turn_started_at
    services.seat_disconnect(match=match, user=alice, channel_name="tab!1", now=gone)
    assert not services.clock_expire(
        match_id=match.pk, expected_version=match.version, now=gone + timedelta(hours=23)
    )
    assert services.clock_expire(
        match_id=match.pk, expected_version=match.version, now=gone + timedelta(hours=24)
    )
    match.refresh_from_db()
    assert match.end_reason == Match.EndReason.ABANDON


def test_the_first_turn_after_a_showdown_has_fifteen_seconds_more(alice):
    match = create_match(alice, "easy", rules=RuleSet.default().replace(target_score=250))
    play_until_hand(match, 2, random.Random(4))
    match.refresh_from_db()
    assert match.hands.count() == 2
    assert match.turn_deadline - match.turn_started_at == timedelta(seconds=15 + 30)


def test_a_turn_that_starts_within_the_showdown_grace_waits_for_it_too(alice):
    """The player to move first may act at once after a showdown (here the computer,
    or Alice passing): the other player is still reading the result, so their clock
    starts only when the grace is over, as the first player's would have."""
    match = create_match(alice, "easy", rules=RuleSet.default().replace(target_score=250))
    play_until_hand(match, 2, random.Random(4))
    match.refresh_from_db()
    dealt = match.turn_started_at
    seat = Seat.objects.get(match=match, index=match.current_seat)
    while match.current_seat == seat.index:  # the computer may take the upcard first
        if seat.bot_level:
            assert services.bot_turn_play(
                match_id=match.pk, expected_version=match.version, now=dealt + SECOND
            )
        else:
            services.move_submit(
                match=match, user=alice, action={"type": "pass"},
                expected_version=match.version, now=dealt + SECOND,
            )
        match.refresh_from_db()
    assert match.hands.count() == 2
    assert match.turn_deadline == dealt + timedelta(seconds=15 + 30)


def test_the_sweep_plays_overdue_turns_and_restarts_lost_computer_turns(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    overdue = connected_computer_match(alice)
    waiting_bot = services.match_create_computer(user=alice, level="easy")
    services.seat_connect(match=waiting_bot, user=alice, channel_name="tab!3")
    waiting_bot.refresh_from_db()
    if waiting_bot.current_seat == Seat.objects.get(match=waiting_bot, user=alice).index:
        services.move_submit(
            match=waiting_bot, user=alice, action={"type": "pass"},
            expected_version=waiting_bot.version,
        )
        waiting_bot.refresh_from_db()
    enqueued = []
    monkeypatch.setattr(
        scheduling, "bot_turn", lambda **kwargs: enqueued.append(kwargs)
    )
    now = overdue.turn_deadline + timedelta(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.clock_sweep(now=now) == 2
    overdue.refresh_from_db()
    assert Move.objects.filter(match=overdue, auto=True).exists()
    assert {"match_id": waiting_bot.pk, "version": waiting_bot.version} in enqueued


def test_the_sweep_ends_time_freedom_matches_after_24_hours_away(alice):
    match = connected_computer_match(alice, variant="time_freedom")
    gone = match.turn_started_at
    services.seat_disconnect(match=match, user=alice, channel_name="tab!1", now=gone)
    assert services.clock_sweep(now=gone + timedelta(hours=23)) == 0
    assert services.clock_sweep(now=gone + timedelta(hours=24, seconds=1)) == 1
    match.refresh_from_db()
    assert (match.status, match.end_reason) == (Match.Status.FINISHED, Match.EndReason.ABANDON)


def test_a_clock_tick_with_nothing_due_costs_one_query(alice, django_assert_num_queries):
    """The tick runs every second: with no clock due it is one indexed read."""
    match = connected_computer_match(alice)
    Match.objects.exclude(pk=match.pk).update(clock_due_at=None)  # rows other tests left
    with django_assert_num_queries(1):
        assert services.clock_tick(now=match.turn_deadline - timedelta(seconds=1)) == 0


def test_the_clock_check_is_planned_per_turn_and_the_tick_plays_a_turn_that_ran_out(alice):
    """No task per move: the match row says when its clock is due (the turn's deadline),
    a draw within the turn leaves it as it was, and the tick plays the turn once due."""
    match = connected_computer_match(alice)
    Match.objects.exclude(pk=match.pk).update(clock_due_at=None)  # rows other tests left
    seat = match.current_seat
    deadline = match.turn_deadline
    assert match.clock_due_at == deadline
    services.move_submit(  # taking the upcard (or the discard) keeps the turn
        match=match, user=alice, action={"type": "draw", "source": "discard"},
        expected_version=match.version,
    )
    match.refresh_from_db()
    assert (match.current_seat, match.turn_deadline, match.clock_due_at) == (
        seat, deadline, deadline
    )
    assert services.clock_tick(now=deadline - SECOND) == 0
    assert services.clock_tick(now=deadline) == 1
    match.refresh_from_db()
    assert match.current_seat != seat
    assert Move.objects.filter(match=match, auto=True).count() == 1


def test_a_computer_turn_lost_with_the_broker_is_enqueued_again_by_the_tick(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    """A Redis restart loses the computer's queued move while the player's socket stays
    open: the every-second tick finds the turn ten seconds after it began (the player is
    not left waiting for the 30-second sweep) and enqueues it again, once every ten
    seconds until the computer has moved."""
    match = connected_computer_match(alice)
    Match.objects.exclude(pk=match.pk).update(clock_due_at=None)  # rows other tests left
    enqueued: list[dict] = []
    monkeypatch.setattr(scheduling, "bot_turn", lambda **kwargs: enqueued.append(kwargs))
    played = match.turn_deadline
    with django_capture_on_commit_callbacks(execute=True):
        assert services.clock_tick(now=played) == 1  # the player's turn ran out
    match.refresh_from_db()
    assert Seat.objects.get(match=match, index=match.current_seat).bot_level
    waiting = {"match_id": match.pk, "version": match.version}
    assert enqueued == [waiting]  # ... and this task is lost
    for seconds, checked in ((9, 0), (10, 1), (11, 0), (19, 0), (20, 1)):
        with django_capture_on_commit_callbacks(execute=True):
            assert services.clock_tick(now=played + seconds * SECOND) == checked
    assert enqueued == [waiting] * 3
    match = play_to_turn_of(match, alice)  # the computer draws and discards
    assert match.clock_due_at == match.turn_deadline
