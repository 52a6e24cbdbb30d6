"""Weekly and monthly boards computed in the database from the match records."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from leaderboards.models import Board, BoardEntry
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import FINALISE_GRACE, BoardError, board_recompute, boards_refresh
from tests.factories import create_finished_match, create_user

pytestmark = pytest.mark.django_db

SUNDAY_LAST_SECOND = datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC)
MONDAY_MIDNIGHT = datetime(2026, 11, 30, 0, 0, 0, tzinfo=UTC)
WEEK_48 = period_containing(PeriodKind.WEEK, SUNDAY_LAST_SECOND)
WEEK_49 = period_containing(PeriodKind.WEEK, MONDAY_MIDNIGHT)
NOVEMBER = period_containing(PeriodKind.MONTH, SUNDAY_LAST_SECOND)
DECEMBER = period_containing(PeriodKind.MONTH, MONDAY_MIDNIGHT + timedelta(days=1))
DURING_WEEK_49 = MONDAY_MIDNIGHT + timedelta(days=2)


def standings(period, now=None) -> list[tuple]:
    """The ranked rows after computing ``period`` at ``now`` (default: its last second,
    so the board stays open)."""
    board = board_recompute(period=period, now=now or period.end - timedelta(seconds=1))
    return list(
        BoardEntry.objects.filter(board=board, rank__isnull=False)
        .order_by("rank")
        .values_list("rank", "user__username", "points", "matches_won", "hands_won", "gins")
    )


def play(winner_user, loser_user, times, *, at, winner_points=150, loser_points=40, **kwargs):
    for _ in range(times):
        scores = (winner_points, loser_points)
        create_finished_match((winner_user, loser_user), finished_at=at, scores=scores, **kwargs)


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_sunday_235959_counts_for_its_week_and_monday_midnight_for_the_next():
    ann, bob = create_user("ann"), create_user("bob")
    create_finished_match((ann, bob), finished_at=SUNDAY_LAST_SECOND, scores=(120, 30))
    create_finished_match((bob, ann), finished_at=MONDAY_MIDNIGHT, scores=(200, 10))
    assert standings(WEEK_48) == [(1, "ann", 120, 1, 3, 1), (2, "bob", 30, 0, 1, 0)]
    assert standings(WEEK_49) == [(1, "bob", 200, 1, 3, 1), (2, "ann", 10, 0, 1, 0)]


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_month_boundary_in_utc():
    ann, bob = create_user("ann"), create_user("bob")
    create_finished_match((ann, bob), finished_at=datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC))
    create_finished_match((bob, ann), finished_at=datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC))
    now = datetime(2026, 12, 2, tzinfo=UTC)
    assert [r[1] for r in standings(NOVEMBER, now)] == ["ann", "bob"]
    assert [r[1] for r in standings(DECEMBER, now)] == ["bob", "ann"]


def test_minimum_matches_to_be_ranked():
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    play(ann, bob, 3, at=SUNDAY_LAST_SECOND)
    play(cid, bob, 2, at=SUNDAY_LAST_SECOND, winner_points=500)
    with override_settings(LEADERBOARD_MIN_MATCHES=5):
        # bob 5 matches, ann 3, cid 2 (more points, but too few matches).
        assert [r[1] for r in standings(WEEK_48)] == ["bob"]
        board = Board.objects.get(kind="week", period_start=WEEK_48.start)
        assert board.min_matches == 5
        cid_entry = BoardEntry.objects.get(board=board, user=cid)
        assert (cid_entry.rank, cid_entry.points, cid_entry.matches_played) == (None, 1000, 2)
    with override_settings(LEADERBOARD_MIN_MATCHES=2):
        assert [r[1] for r in standings(WEEK_48)] == ["cid", "ann", "bob"]


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_ties_are_broken_by_matches_won_hands_won_gins_then_the_earlier_account():
    players = [create_user(name) for name in ("p1", "p2", "p3", "p4", "p5", "p6")]
    p1, p2, p3, p4, p5, p6 = players
    rival = create_user("rival")
    at = SUNDAY_LAST_SECOND
    # All on 100 points. p5 and p4 won a match; p4 more hands; p3/p2/p1 lost with more
    # gins for p3; p1 and p2 identical: the earlier account (p1) first.
    create_finished_match((p4, rival), finished_at=at, scores=(100, 0), hands_won=(4, 0))
    create_finished_match((p5, rival), finished_at=at, scores=(100, 0), hands_won=(2, 0))
    create_finished_match(
        (rival, p3), finished_at=at, scores=(300, 100), hands_won=(2, 2), gins=(0, 2),
    )
    create_finished_match(
        (rival, p2), finished_at=at, scores=(300, 100), hands_won=(2, 2), gins=(0, 1),
    )
    create_finished_match(
        (rival, p1), finished_at=at, scores=(300, 100), hands_won=(2, 2), gins=(0, 1),
    )
    create_finished_match(
        (rival, p6), finished_at=at, scores=(300, 100), hands_won=(2, 2), gins=(0, 1),
    )
    expected = ["rival", "p4", "p5", "p3", "p1", "p2", "p6"]
    assert [r[1] for r in standings(WEEK_48)] == expected
    assert [r[0] for r in standings(WEEK_48)] == [1, 2, 3, 4, 5, 6, 7]


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_recomputing_changes_no_row_and_picks_up_new_matches():
    ann, bob, cid = create_user("ann"), create_user("bob"), create_user("cid")
    play(ann, bob, 2, at=SUNDAY_LAST_SECOND - timedelta(days=1))
    first = standings(WEEK_48)
    rows = list(BoardEntry.objects.order_by("pk").values())
    assert standings(WEEK_48) == first
    assert list(BoardEntry.objects.order_by("pk").values()) == rows  # same rows, same ids
    # A new match changes the board on the next run; a player who drops out is removed.
    play(cid, ann, 1, at=SUNDAY_LAST_SECOND, winner_points=400)
    assert [r[1] for r in standings(WEEK_48)] == ["cid", "ann", "bob"]
    bob.is_active = False
    bob.save()
    assert [r[1] for r in standings(WEEK_48)] == ["cid", "ann"]
    assert not BoardEntry.objects.filter(user=bob).exists()


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_guests_unrated_and_computer_matches_are_not_on_the_period_boards():
    ann, bob = create_user("ann"), create_user("bob")
    guest = create_user("guest-1a2b3c", guest=True)
    create_finished_match((ann, bob), finished_at=SUNDAY_LAST_SECOND, scores=(90, 10))
    create_finished_match((ann, bob), finished_at=SUNDAY_LAST_SECOND, rated=False, scores=(900, 0))
    create_finished_match((guest, ann), finished_at=SUNDAY_LAST_SECOND, rated=True, scores=(900, 0))
    create_finished_match(
        (bob, None), finished_at=SUNDAY_LAST_SECOND, bot_level="hard", rated=False,
    )
    # Unrated and computer matches never count. A guest never appears, even in a match
    # wrongly flagged rated (ann's own line of it still counts: 1 more hand won).
    assert standings(WEEK_48) == [(1, "ann", 90, 1, 4, 1), (2, "bob", 10, 0, 1, 0)]


def test_a_period_is_finalised_after_its_end_and_never_changes_afterwards():
    ann, bob = create_user("ann"), create_user("bob")
    with override_settings(LEADERBOARD_MIN_MATCHES=1):
        create_finished_match((ann, bob), finished_at=SUNDAY_LAST_SECOND)
        # Just after the end, within the grace for late commits: still open.
        board = board_recompute(period=WEEK_48, now=WEEK_48.end + timedelta(seconds=30))
        assert not board.is_final
        board = board_recompute(period=WEEK_48, now=WEEK_48.end + FINALISE_GRACE)
        assert board.is_final
        final_rows = list(BoardEntry.objects.filter(board=board).order_by("rank").values())
        # A late record and a changed setting do not alter a final board.
        create_finished_match((bob, ann), finished_at=SUNDAY_LAST_SECOND, scores=(999, 0))
    with override_settings(LEADERBOARD_MIN_MATCHES=3):
        again = board_recompute(period=WEEK_48, now=DURING_WEEK_49)
    assert again.finalised_at == board.finalised_at
    assert again.min_matches == 1
    assert list(BoardEntry.objects.filter(board=board).order_by("rank").values()) == final_rows


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_the_beat_refresh_computes_current_periods_and_finalises_ended_ones():
    ann, bob = create_user("ann"), create_user("bob")
    create_finished_match((ann, bob), finished_at=SUNDAY_LAST_SECOND)
    create_finished_match((bob, ann), finished_at=MONDAY_MIDNIGHT + timedelta(hours=1))

    def final_boards() -> set[str]:
        return {str(b) for b in Board.objects.filter(finalised_at__isnull=False)}

    # Week 48 and November are current; the periods before them get their final board.
    boards_refresh(now=SUNDAY_LAST_SECOND)
    assert final_boards() == {"Week 47, 2026 (Nov 16–Nov 22)", "October 2026"}
    boards = boards_refresh(now=MONDAY_MIDNIGHT + timedelta(hours=2))
    assert final_boards() == {
        "Week 47, 2026 (Nov 16–Nov 22)",
        "October 2026",
        "Week 48, 2026 (Nov 23–Nov 29)",
    }
    by_period = {(b.kind, b.period_start): b for b in boards}
    assert by_period[("week", WEEK_48.start)].is_final
    assert not by_period[("week", WEEK_49.start)].is_final
    assert not by_period[("month", NOVEMBER.start)].is_final  # November runs to the 30th
    assert BoardEntry.objects.get(board=by_period[("week", WEEK_49.start)], rank=1).user == bob


def test_a_future_period_cannot_be_computed():
    with pytest.raises(BoardError, match="not started"):
        board_recompute(period=WEEK_49, now=SUNDAY_LAST_SECOND)
    assert not Board.objects.exists()


@override_settings(LEADERBOARD_MIN_MATCHES=1)
def test_rebuild_command_rebuilds_any_period_from_the_records(capsys):
    ann, bob = create_user("ann"), create_user("bob")
    create_finished_match((ann, bob), finished_at=datetime(2025, 3, 5, 12, tzinfo=UTC))
    call_command("rebuild_leaderboard", "--period", "month", "--date", "2025-03-20")
    board = Board.objects.get(kind="month", period_start=datetime(2025, 3, 1, tzinfo=UTC))
    assert board.is_final
    assert "March 2025: 2 ranked of 2 players (final)" in capsys.readouterr().out
    assert BoardEntry.objects.get(board=board, rank=1).user == ann

    BoardEntry.objects.filter(board=board).delete()  # e.g. a botched manual edit
    with pytest.raises(CommandError, match="final"):
        call_command("rebuild_leaderboard", "--period", "month", "--date", "2025-03-20")
    assert not BoardEntry.objects.filter(board=board).exists()
    call_command("rebuild_leaderboard", "--period", "month", "--date", "2025-03-20", "--force")
    assert BoardEntry.objects.get(board=board, rank=1).user == ann

    call_command("rebuild_leaderboard", "--period", "week", "--date", "2025-03-05")
    week = Board.objects.get(kind="week")
    assert week.period_start == datetime(2025, 3, 3, tzinfo=UTC)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--period", "week", "--date", "2025-02-30"], "YYYY-MM-DD"),
        (["--period", "week", "--date", "2999-01-01"], "not started"),
    ],
)
def test_rebuild_command_refuses_bad_input(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("rebuild_leaderboard", *args)
    assert not Board.objects.exists()


def test_rebuild_command_refuses_an_unknown_period_kind():
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("rebuild_leaderboard", "--period", "year", "--date", "2025-01-01")
