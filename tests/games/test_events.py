"""The domain events (games/events.py): the bus on the real database (its two phases,
their order, a failure inside the transaction rolls the change back, nothing after
commit runs for a change rolled back, a failure after commit is logged), the wiring
its docstring tells, and what play, tournaments and moderation publish."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import Ban, User
from accounts.services import user_ban
from games import events, services
from games.engine import DISCONNECT_SECONDS
from games.models import Hand, Match, RatedPlayBan, Seat
from games.tournaments import services as tournament_services
from tests.factories import (
    create_match,
    create_moderator,
    create_tournament,
    create_user,
    create_users,
    play_to_turn_of,
)
from tests.games.helpers import play_until_hand


@dataclass(frozen=True, kw_only=True)
class Probe(events.Event):
    n: int


Listen = Callable[..., list[Any]]


@pytest.fixture
def listen() -> Iterator[Listen]:
    """``listen(event type, phase, handler=None)``: the events heard in that phase (a
    list), or what ``handler`` records; every subscription ends with the test."""
    subscribed: list[tuple[type[events.Event], Callable[[Any], object]]] = []

    def subscribe(
        event_type: type[events.Event], phase: events.Phase,
        handler: Callable[[Any], object] | None = None, into: list[Any] | None = None,
    ) -> list[Any]:
        heard: list[Any] = [] if into is None else into
        chosen = handler if handler is not None else heard.append
        events.subscribe(event_type, chosen, phase)
        subscribed.append((event_type, chosen))
        return heard

    yield subscribe
    for event_type, handler in subscribed:
        events.unsubscribe(event_type, handler)


def say(heard: list[Any], word: str) -> Callable[[Any], None]:
    def handler(event: Any) -> None:
        heard.append(word)

    handler.__qualname__ = f"say_{word}"
    return handler


# --- the bus -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_handlers_in_the_transaction_run_at_publish_and_the_others_once_it_commits(listen):
    heard: list[str] = []
    for word, phase in (("a", "in_transaction"), ("b", "after_commit"),
                        ("c", "in_transaction"), ("d", "after_commit")):
        listen(Probe, phase, say(heard, word))
    with transaction.atomic():
        transaction.on_commit(lambda: heard.append("registered before"))
        events.publish(Probe(n=1))
        assert heard == ["a", "c"]
        transaction.on_commit(lambda: heard.append("registered after"))
    assert heard == ["a", "c", "registered before", "b", "d", "registered after"]


@pytest.mark.django_db(transaction=True)
def test_a_failure_inside_the_transaction_rolls_the_whole_change_back(listen):
    def writes(event: Probe) -> None:
        create_user("written-by-the-handler")

    def refuses(event: Probe) -> None:
        raise ValueError("refused")

    listen(Probe, "in_transaction", writes)
    listen(Probe, "in_transaction", refuses)
    told = listen(Probe, "after_commit")
    with pytest.raises(ValueError, match="refused"), transaction.atomic():
        create_user("publisher")
        events.publish(Probe(n=1))
    assert not User.objects.exists()
    assert told == []


@pytest.mark.django_db(transaction=True)
def test_nothing_after_commit_runs_for_a_change_rolled_back_later(listen):
    def writes(event: Probe) -> None:
        create_user("written-by-the-handler")

    listen(Probe, "in_transaction", writes)
    told = listen(Probe, "after_commit")
    with pytest.raises(RuntimeError, match="later"), transaction.atomic():
        events.publish(Probe(n=1))
        raise RuntimeError("the change fails later")
    assert told == []
    assert not User.objects.exists()
    with transaction.atomic():
        events.publish(Probe(n=2))
    assert told == [Probe(n=2)]


@pytest.mark.django_db(transaction=True)
def test_a_failure_after_commit_is_logged_and_the_others_still_run(listen, caplog):
    def breaks(event: Probe) -> None:
        raise ValueError("the queue is down")

    listen(Probe, "after_commit", breaks)
    told = listen(Probe, "after_commit")
    with caplog.at_level(logging.ERROR, logger="games.events"), transaction.atomic():
        create_user("publisher")
        events.publish(Probe(n=7))
    assert told == [Probe(n=7)]
    assert User.objects.filter(username="publisher").exists()  # the change stands
    (record,) = [r for r in caplog.records if r.name == "games.events"]
    assert "breaks failed on Probe(n=7)" in record.getMessage()
    assert record.exc_info is not None and "the queue is down" in str(record.exc_info[1])


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_every_handler_runs_at_once_in_transaction_ones_first(listen):
    heard: list[str] = []
    listen(Probe, "after_commit", say(heard, "after"))
    listen(Probe, "in_transaction", say(heard, "inside"))
    events.publish(Probe(n=1))
    assert heard == ["inside", "after"]


def test_a_subscription_names_an_event_and_a_phase_and_counts_once(listen):
    with pytest.raises(TypeError, match="not an event"):
        events.subscribe(dict, print, "after_commit")  # type: ignore[type-var]
    with pytest.raises(ValueError, match="phase must be one of"):
        events.subscribe(Probe, print, "later")  # type: ignore[arg-type]
    heard: list[str] = []
    handler = say(heard, "once")
    listen(Probe, "in_transaction", handler)
    listen(Probe, "in_transaction", handler)  # a ready() run twice
    assert [s.name for s in events.subscribers(Probe)] == [f"{__name__}.say_once"]


def documented() -> dict[str, list[tuple[str, str]]]:
    """games/events.py's table: each event's subscribers (``module.handler``, phase), in
    the order the docstring says they run."""
    table: dict[str, list[tuple[str, str]]] = {}
    event = ""
    for line in (events.__doc__ or "").splitlines():
        if heading := re.match(r"``(\w+)``: ", line):
            event = heading[1]
            table[event] = []
        elif item := re.match(r"  - (\S+)\.py ``(\w+)``, (in_transaction|after_commit):", line):
            table[event].append((f"{item[1].replace('/', '.')}.{item[2]}", item[3]))
    return table


def test_the_subscribers_are_those_the_docstring_lists_in_the_order_they_run():
    def running(event_type: type[events.Event]) -> list[tuple[str, str]]:
        subscriptions = events.subscribers(event_type)
        return [(s.name, s.phase) for phase in events.PHASES
                for s in subscriptions if s.phase == phase]

    published = [e for e in events.Event.__subclasses__() if e is not Probe]
    assert documented() == {e.__name__: running(e) for e in published}
    assert documented()["MatchFinished"][:2] == [
        ("leaderboards.hooks.on_match_finished", "in_transaction"),
        ("games.tournaments.hooks.on_match_finished", "in_transaction"),
    ]
    assert documented()["PlayerBanned"] == [("games.hooks.on_player_banned", "in_transaction")]


# --- what play publishes ----------------------------------------------------------------


@pytest.mark.django_db
def test_a_match_publishes_its_start_and_its_finish_with_players_and_result(
    listen, django_capture_on_commit_callbacks
):
    ann, bob = create_user("ann"), create_user("bob")
    started = listen(events.MatchStarted, "after_commit")
    finished = listen(events.MatchFinished, "in_transaction")
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(ann, bob)
    (start,) = started
    assert (start.match_id, start.kind, start.rated, start.user_ids, start.to_move) == (
        match.pk, "friend", True, (ann.pk, bob.pk), match.current_seat)
    assert start.tournament_id is None and start.started_at == match.started_at

    services.match_resign(match=match, user=ann)
    match.refresh_from_db()
    (end,) = finished
    assert end.match is not None and end.match.pk == match.pk
    assert (end.match_id, end.reason, end.winner_seat, end.user_ids) == (
        match.pk, "resign", 1, (ann.pk, bob.pk))
    assert (end.rated, end.aborted, end.tournament_id) == (True, True, None)  # no move made
    assert end.scores == tuple(match.final_score["totals"])
    assert end.finished_at == match.finished_at


@pytest.mark.django_db
def test_moves_and_finished_hands_are_published_with_whose_turn_it_is(
    listen, django_capture_on_commit_callbacks
):
    alice = create_user("alice")
    moves = listen(events.MovePlayed, "after_commit")
    hands = listen(events.HandFinished, "after_commit")
    match = create_match(alice, "easy")
    with django_capture_on_commit_callbacks(execute=True):
        play_until_hand(match, 2, random.Random(5))
    match.refresh_from_db()
    first = Hand.objects.get(match=match, number=1)
    (hand,) = hands
    assert (hand.match_id, hand.hand_id, hand.number, hand.kind, hand.winner_seat) == (
        match.pk, first.pk, 1, first.result_kind, first.winner_seat)
    assert (hand.points, hand.match_over) == (first.points, False)
    versions = [m.version for m in moves]
    assert versions == sorted(versions) and versions[-1] == match.version
    last = moves[-1]
    assert last.hand_finished and (last.to_move, last.turn_deadline) == (
        match.current_seat, match.turn_deadline)
    to_move = Seat.objects.get(match=match, index=match.current_seat)
    assert last.to_move_user_id == to_move.user_id
    assert [m.hand_finished for m in moves].count(True) == 1


@pytest.mark.django_db
def test_a_tournament_round_is_one_event_and_its_matches_carry_the_tournament(listen):
    users = create_users(4)
    t = create_tournament("arena", users, duration_minutes=30)
    rounds = listen(events.MatchesStarted, "in_transaction")
    finished = listen(events.MatchFinished, "in_transaction")
    tournament_services.tournament_progress(tournament_id=t.pk)
    (round_,) = rounds
    assert len(round_.matches) == 2
    assert {m.tournament_id for m in round_.matches} == {t.pk}
    assert sorted(u for m in round_.matches for u in m.user_ids) == sorted(u.pk for u in users)
    match = Match.objects.get(pk=round_.matches[0].match_id)
    assert match.tournament_id == t.pk
    services.match_resign(match=match, user=Seat.objects.get(match=match, index=0).user)
    (end,) = finished
    assert (end.match_id, end.tournament_id) == (match.pk, t.pk)


@pytest.mark.django_db
def test_the_third_abandonment_publishes_the_restriction_of_rated_play(listen):
    ann, bob = create_user("ann"), create_user("bob")
    restricted = listen(events.PlayerRestricted, "in_transaction")
    now = timezone.now()

    def abandon(at: Any) -> Match:
        """Ann, never at the table, loses a rated match to Bob by abandonment at ``at``."""
        match = create_match(bob, ann)
        services.seat_connect(match=match, user=bob, channel_name=f"bob-{match.pk}")
        match = play_to_turn_of(match, ann)
        Match.objects.filter(pk=match.pk).update(
            started_at=at - timedelta(seconds=DISCONNECT_SECONDS))
        assert services.clock_expire(match_id=match.pk, expected_version=match.version, now=at)
        return match

    abandon(now - timedelta(minutes=20))
    abandon(now - timedelta(minutes=10))
    assert restricted == []
    match = abandon(now)
    ban = RatedPlayBan.objects.get(user=ann)
    assert restricted == [events.PlayerRestricted(
        user_id=ann.pk, until=ban.until, match_id=match.pk, offence=1)]


# --- what moderation publishes -----------------------------------------------------------


@pytest.mark.django_db
def test_a_ban_is_made_with_its_forfeits_or_not_at_all(listen, monkeypatch):
    ann, bob = create_user("ann"), create_user("bob")
    moderator = create_moderator()
    match = create_match(ann, bob)
    banned = listen(events.PlayerBanned, "in_transaction")

    def games_fail(**kwargs: Any) -> list[int]:
        raise RuntimeError("the games app failed")

    with monkeypatch.context() as patch:
        patch.setattr(services, "player_leave_play", games_fail)
        with pytest.raises(RuntimeError, match="games app failed"):
            user_ban(staff=moderator, user=bob, reason="cheating")
    bob.refresh_from_db()
    assert bob.is_active and not Ban.objects.exists()
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    assert banned == []  # the games app hears it first, and refused

    user_ban(staff=moderator, user=bob, reason="cheating")
    assert banned == [events.PlayerBanned(
        user_id=bob.pk, reason="cheating", banned_by_id=moderator.pk)]
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner_seat) == ("finished", "suspended", 0)
