"""Correspondence matches through the services (games/services/correspondence.py): a
challenge with days per move starts a match with no turn clock and a turn deadline
days away; each turn that passes tells the player whose turn it is; beat's job takes a
match whose turn ran out from the player to move, unless their vacation stopped the
clock; twenty at once at most; a player away from a correspondence table never loses
by abandonment; the lobby lists the matches waiting for the player's move first."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import selectors
from games.api import services as api_services
from games.errors import CorrespondenceError
from games.models import Match, Seat, Vacation
from games.services import correspondence, play
from social.models import Notification
from tests.factories import create_challenge, create_user, play_to_turn_of, seated

pytestmark = pytest.mark.django_db
DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def no_background(monkeypatch: pytest.MonkeyPatch) -> None:
    class Quiet:
        def run_in_background(self, task: str, kwargs: dict) -> None:
            pass

    monkeypatch.setattr("social.services.runtime.scheduler", lambda: Quiet())


def correspondence_match(a: Any, b: Any, days: int = 3) -> Match:
    challenge = create_challenge(a, b, variant="default", target=100, days=days)
    return api_services.challenge_accept(user=b, challenge_id=challenge.pk)


def to_move(match: Match) -> Any:
    match.refresh_from_db()
    return seated(match)[match.current_seat]


def test_a_correspondence_match_has_days_per_turn_and_tells_each_player_their_turn(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob = create_user("alice"), create_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        match = correspondence_match(alice, bob, days=3)
    match.refresh_from_db()
    assert match.days_per_move == 3 and match.turn_deadline is None
    assert match.clock_due_at is None  # the live clock never looks at it
    assert match.rules["turn_seconds"] is None and not match.rated
    first = to_move(match)
    assert match.move_deadline - match.turn_started_at == 3 * DAY
    turns = Notification.objects.filter(kind="turn")
    assert [(n.user, n.params["match_id"]) for n in turns] == [(first, match.pk)]
    # A whole turn (draw and discard) passes the turn; the other player is told.
    other = alice if first == bob else bob
    with django_capture_on_commit_callbacks(execute=True):
        play_to_turn_of(match, other)
    assert Notification.objects.filter(kind="turn", user=other).count() == 1
    assert Notification.objects.filter(kind="turn").count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        play_to_turn_of(match, first)
    assert Notification.objects.filter(kind="turn", user=first).count() == 2
    match.refresh_from_db()
    assert match.move_deadline - match.turn_started_at == 3 * DAY


def test_the_table_is_told_the_days_per_move_and_each_turns_deadline() -> None:
    """The state's match says a correspondence match's days per move and the current
    turn's deadline (the table's side panel shows them, not "Clock: none"); the event of
    the move that passes the turn carries the new turn's deadline."""
    from games.services import moves
    from games.wire import EventFrame, StateFrame
    from tests.games.helpers import current_state

    alice, bob = create_user("alice"), create_user("bob")
    match = correspondence_match(alice, bob, days=3)
    mover = to_move(match)
    state = selectors.match_state_message(match=match, user=mover)
    StateFrame.model_validate(state)
    assert state["match"]["clock"] is None
    iso = match.move_deadline.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert state["match"]["correspondence"] == {"days_per_move": 3, "deadline": iso}
    # A whole turn: the draw keeps the turn (no deadline sent), the discard passes it.
    later = timezone.now() + DAY
    sent = []
    while match.current_seat is not None and to_move(match) == mover:
        action = next(a for a in current_state(match).legal_actions()
                      if a["type"] in ("draw", "discard", "pass"))
        result = moves.move_submit(match=match, user=mover, action=action,
                                   expected_version=match.version, now=later)
        sent.append(result.message)
    match.refresh_from_db()
    assert match.move_deadline == later + 3 * DAY
    last = EventFrame.model_validate(sent[-1])
    assert last.move_deadline == (later + 3 * DAY).isoformat(
        timespec="milliseconds").replace("+00:00", "Z")
    assert all("move_deadline" not in frame for frame in sent[:-1])
    live = selectors.match_state_message(match=create_challenge_match(alice, bob), user=alice)
    assert live["match"]["correspondence"] is None


def create_challenge_match(a: Any, b: Any) -> Match:
    challenge = create_challenge(a, b, variant="default", target=100)
    return api_services.challenge_accept(user=b, challenge_id=challenge.pk)


def test_a_player_who_runs_out_of_time_loses_and_others_wait() -> None:
    alice, bob, carol = create_user("alice"), create_user("bob"), create_user("carol")
    late = correspondence_match(alice, bob, days=1)
    on_time = correspondence_match(alice, carol, days=7)
    loser = to_move(late)
    now = timezone.now() + DAY + timedelta(minutes=1)
    assert correspondence.correspondence_clock_run(now=now) == {"timed_out": 1, "moved": 0}
    late.refresh_from_db()
    on_time.refresh_from_db()
    assert late.status == Match.Status.FINISHED and late.end_reason == Match.EndReason.TIMEOUT
    assert seated(late)[late.winner_seat] != loser
    assert on_time.status == Match.Status.ACTIVE
    # Run again: nothing more to do.
    assert correspondence.correspondence_clock_run(now=now) == {"timed_out": 0, "moved": 0}


def test_vacation_stops_the_clock_of_the_player_to_move() -> None:
    alice, bob = create_user("alice"), create_user("bob")
    match = correspondence_match(alice, bob, days=1)
    player = to_move(match)
    deadline = match.move_deadline
    vacation = correspondence.vacation_take(user=player, days=5)
    match.refresh_from_db()
    assert match.move_deadline - deadline == vacation.ends_at - vacation.starts_at
    # A day and more later: on vacation, still in play.
    assert correspondence.correspondence_clock_run(now=deadline + timedelta(hours=2)) == {
        "timed_out": 0, "moved": 0}
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    # The vacation ends early: the day left runs from then.
    back = vacation.starts_at + 2 * DAY
    correspondence.vacation_end(user=player, now=back)
    match.refresh_from_db()
    assert match.move_deadline == deadline + 2 * DAY
    assert correspondence.correspondence_clock_run(now=match.move_deadline)["timed_out"] == 1


def test_a_turn_that_reaches_a_player_on_vacation_counts_the_vacation() -> None:
    """The turn passes to a player already on vacation: its deadline, set then and
    shown on the table, runs from the vacation's end, not from the move."""
    alice, bob = create_user("alice"), create_user("bob")
    match = correspondence_match(alice, bob, days=3)
    mover = to_move(match)
    waiting = alice if mover == bob else bob
    vacation = correspondence.vacation_take(user=waiting, days=5)
    match = play_to_turn_of(match, waiting)
    assert match.current_seat == Seat.objects.get(match=match, user=waiting).index
    assert match.move_deadline == vacation.ends_at + 3 * DAY
    # Beat's job has nothing to move: the deadline was right from the start.
    assert correspondence.correspondence_clock_run(now=vacation.ends_at)["moved"] == 0


def test_vacation_is_14_days_a_year_one_at_a_time() -> None:
    bob = create_user("bob")
    now = timezone.now().replace(month=6, day=1)
    correspondence.vacation_take(user=bob, days=10, now=now)
    with pytest.raises(CorrespondenceError):
        correspondence.vacation_take(user=bob, days=1, now=now + DAY)
    with pytest.raises(CorrespondenceError):
        correspondence.vacation_take(user=bob, days=5, now=now + 20 * DAY)
    correspondence.vacation_take(user=bob, days=4, now=now + 20 * DAY)
    assert selectors.vacation_days_left(user=bob, now=now + 30 * DAY) == 0
    assert Vacation.objects.filter(user=bob).count() == 2


def test_twenty_correspondence_matches_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = create_user("alice"), create_user("bob")
    monkeypatch.setattr(correspondence, "MAX_CORRESPONDENCE_MATCHES", 2)
    correspondence_match(alice, bob)
    challenge = create_challenge(alice, bob, days=3)
    correspondence_match(alice, bob)
    with pytest.raises(CorrespondenceError) as refused:
        create_challenge(alice, create_user("carol"), days=3)
    assert refused.value.code == "too_many_correspondence"
    with pytest.raises(CorrespondenceError):  # the one offered before: refused too
        api_services.challenge_accept(user=bob, challenge_id=challenge.pk)
    create_challenge(alice, bob)  # a live match is another matter


def test_a_correspondence_player_away_never_loses_by_abandonment() -> None:
    alice, bob = create_user("alice"), create_user("bob")
    match = correspondence_match(alice, bob)
    seat = Seat.objects.get(match=match, index=match.current_seat)
    seat.disconnected_at = timezone.now() - 30 * DAY
    assert play.disconnect_limit_at(match, seat) is None


def test_the_lobby_lists_the_matches_waiting_for_my_move_first() -> None:
    alice = create_user("alice")
    matches = [correspondence_match(alice, create_user(f"p{i}")) for i in range(4)]
    for match in matches[:2]:
        play_to_turn_of(match, next(u for u in seated(match).values() if u != alice))
    for match in matches[2:]:
        play_to_turn_of(match, alice)
    rows = selectors.correspondence_rows(user=alice)
    assert [row["my_move"] for row in rows] == [True, True, False, False]
    assert {row["match"].pk for row in rows[:2]} == {m.pk for m in matches[2:]}


def test_a_finished_correspondence_match_moves_its_own_rating_not_live_plays(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.test import Client

    from leaderboards import services as boards
    from leaderboards.models import CorrespondenceRating, Rating

    alice, bob = create_user("alice"), create_user("bob")
    match = correspondence_match(alice, bob, days=1)
    for _ in range(3):  # each makes moves of their own: the match counts
        play_to_turn_of(match, alice)
        play_to_turn_of(match, bob)
    loser = to_move(match)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        correspondence.correspondence_clock_run(now=timezone.now() + 2 * DAY)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.aborted and not match.rated
    assert callbacks  # the rating task, registered for the commit
    assert boards.correspondence_rating_apply(match_id=match.pk)
    assert not boards.correspondence_rating_apply(match_id=match.pk)  # once
    ratings = {r.user: r for r in CorrespondenceRating.objects.all()}
    winner = alice if loser == bob else bob
    assert ratings[winner].rating > 1500 > ratings[loser].rating
    assert not Rating.objects.exists()  # live play's rating is not touched
    page = Client().get("/leaderboards/rating/correspondence/").content.decode()
    assert page.index(winner.username) < page.index(loser.username)
