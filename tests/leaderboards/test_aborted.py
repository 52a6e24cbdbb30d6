"""Boards that cannot be farmed: a match that ends before each player has made two
moves is aborted (not rated, counted on no board, shown as "Aborted"), and only the
first few matches of the same two players in a period count on its board."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games import services
from games.engine import HandState
from games.models import Hand, Match, Seat
from games.tournaments.models import Entrant, Pairing
from leaderboards import hooks
from leaderboards.models import BoardEntry, ComputerBoardEntry, Rating, RatingChange
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import (
    board_recompute,
    computer_boards_recompute,
    rating_apply_match,
    ratings_apply_pending,
)
from tests.factories import (
    create_finished_match,
    create_match,
    create_tournament,
    create_user,
    create_users,
)

pytestmark = pytest.mark.django_db


def play_moves(match, count):
    """``count`` actions by whoever is to move (the first legal action that keeps the
    hand going: a pass, a draw, a discard)."""
    for _ in range(count):
        match.refresh_from_db()
        seat = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
        hand = Hand.objects.filter(match=match).order_by("-number").first()
        legal = HandState.from_dict(hand.state).legal_actions()
        action = next(a for a in legal if a["type"] in ("pass", "draw", "discard"))
        services.move_submit(
            match=match, user=seat.user, action=action, expected_version=match.version
        )
    match.refresh_from_db()


def moves_of(match, seat):
    return match.moves.filter(seat=seat, auto=False).count()


def now_boards():
    now = timezone.now()
    return [board_recompute(period=period_containing(kind, now), now=now) for kind in PeriodKind]


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_a_resignation_at_the_first_move_aborts_the_match_and_leaves_boards_and_ratings(
    monkeypatch,
):
    enqueued = []
    monkeypatch.setattr("leaderboards.hooks.apply_match_rating.delay", enqueued.append)
    ann, bob = create_user("ann"), create_user("bob")
    match = create_match(ann, bob)
    play_moves(match, 1)
    mover = match.current_seat
    quitter = Seat.objects.select_related("user").get(match=match, index=mover).user
    services.match_resign(match=match, user=quitter)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.aborted is True
    hooks.match_finished(match)  # what the finish called: no rating task for it
    assert enqueued == []
    assert rating_apply_match(match_id=match.pk) is False
    assert ratings_apply_pending() == 0
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    for board in now_boards():
        assert not BoardEntry.objects.filter(board=board).exists()


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_an_abandonment_before_the_second_move_of_each_is_aborted_too():
    ann, bob = create_user("ann"), create_user("bob")
    match = create_match(ann, bob)
    play_moves(match, 3)  # one player has made two moves, the other one
    match.refresh_from_db()
    loser = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
    services.match_forfeit(match=match, user=loser.user, reason=Match.EndReason.ABANDON)
    match.refresh_from_db()
    assert match.aborted is True
    assert ratings_apply_pending() == 0


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_a_resignation_after_two_moves_each_is_rated_and_counted():
    ann, bob = create_user("ann"), create_user("bob")
    match = create_match(ann, bob)
    while min(moves_of(match, 0), moves_of(match, 1)) < 2:
        play_moves(match, 1)
    services.match_resign(match=match, user=ann)
    match.refresh_from_db()
    assert match.aborted is False
    assert rating_apply_match(match_id=match.pk) is True
    week, month = now_boards()
    assert BoardEntry.objects.filter(board=week).count() == 2
    assert BoardEntry.objects.get(board=month, user=bob).matches_won == 1


def test_an_aborted_match_counts_on_no_computer_board():
    ann = create_user("ann")
    at = datetime(2026, 11, 20, 12, tzinfo=UTC)
    match = create_finished_match((ann, None), finished_at=at, rated=False, bot_level="expert")
    Match.objects.filter(pk=match.pk).update(aborted=True)
    computer_boards_recompute()
    assert not ComputerBoardEntry.objects.filter(user=ann).exists()


def test_an_aborted_tournament_match_is_still_a_loss_for_the_one_who_left():
    t = create_tournament("arena", create_users(2), duration_minutes=30, start=True)
    (pairing,) = Pairing.objects.filter(tournament=t, finished=False, match__isnull=False)
    leaver = Entrant.objects.select_related("user").get(pk=pairing.seat1_id)
    services.match_resign(match=pairing.match, user=leaver.user)
    pairing.refresh_from_db()
    assert pairing.match.aborted is True
    assert pairing.finished and pairing.winner_id == pairing.seat0_id
    leaver.refresh_from_db()
    assert leaver.losses == 1
    assert ratings_apply_pending() == 0


WEEK_DAY = datetime(2026, 11, 25, 12, tzinfo=UTC)  # a Wednesday


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_the_fourth_match_of_the_same_two_players_in_a_week_does_not_count(settings):
    assert settings.LEADERBOARD_PAIR_LIMIT == 3
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    for n in range(4):  # ann beats bob four times; the last one (the fourth) is not counted
        create_finished_match(
            (ann, bob), finished_at=WEEK_DAY + timedelta(hours=n), scores=(100 + n, 10),
        )
    create_finished_match((ann, cid), finished_at=WEEK_DAY + timedelta(hours=5), scores=(50, 5))
    for kind in PeriodKind:
        period = period_containing(kind, WEEK_DAY)
        board = board_recompute(period=period, now=period.end - timedelta(seconds=1))
        rows = {
            e.user.username: (e.points, e.matches_played, e.matches_won)
            for e in BoardEntry.objects.filter(board=board).select_related("user")
        }
        assert rows == {
            "ann": (100 + 101 + 102 + 50, 4, 4),
            "bob": (30, 3, 0),
            "cid": (5, 1, 0),
        }


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_the_limit_starts_again_in_the_next_week():
    ann, bob = create_user("ann"), create_user("bob")
    for n in range(4):
        create_finished_match((ann, bob), finished_at=WEEK_DAY + timedelta(hours=n))
    next_week = WEEK_DAY + timedelta(days=7)
    create_finished_match((ann, bob), finished_at=next_week)
    period = period_containing(PeriodKind.WEEK, next_week)
    board = board_recompute(period=period, now=period.end - timedelta(seconds=1))
    assert BoardEntry.objects.get(board=board, user=ann).matches_played == 1


def test_a_farmed_pair_cannot_reach_the_board_alone():
    # Five wins over the same friend: only three count, two short of the five needed.
    ann, bob = create_user("ann"), create_user("bob")
    for n in range(5):
        create_finished_match((ann, bob), finished_at=WEEK_DAY + timedelta(minutes=n))
    period = period_containing(PeriodKind.WEEK, WEEK_DAY)
    board = board_recompute(period=period, now=period.end - timedelta(seconds=1))
    entry = BoardEntry.objects.get(board=board, user=ann)
    assert (entry.rank, entry.matches_played) == (None, 3)


def test_the_profile_and_the_score_sheet_say_aborted(client):
    ann, bob = create_user("ann"), create_user("bob")
    match = create_match(ann, bob)
    services.match_resign(match=match, user=ann)
    client.force_login(bob)
    profile = client.get("/players/bob/").content.decode()
    row = profile.split('aria-label="Recent matches"', 1)[1].split("</li>", 1)[0]
    assert ">Aborted<" in row
    sheet = client.get(f"/match/{match.pk}/sheet/").content.decode()
    assert "<strong>Aborted:</strong> it ended before each player had made two moves" in sheet
