"""Leaderboard and rating writes.

Boards are computed in the database (one INSERT ... SELECT ... ON CONFLICT aggregating
the finished matches of the period, one DELETE of players no longer on it): no Python
loop over matches or players. Re-running changes no row; a finalised board is never
touched again. Ratings are applied once per rated match under row locks.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from ginsite.errors import AppError
from leaderboards import glicko2
from leaderboards.models import Board, BoardEntry, ComputerBoardEntry, Rating, RatingChange
from leaderboards.periods import Period, PeriodKind, period_containing
from leaderboards.selectors import COMPUTER_BOARD_LEVELS, COUNTED_MATCHES_SQL, counted_params

#: A period is finalised this long after it ends, so a match whose transaction set
#: ``finished_at`` just before midnight and committed just after still counts.
FINALISE_GRACE = timedelta(minutes=2)


class BoardError(AppError):
    """A board cannot be computed as asked (future period, final board)."""

    status = 400
    code = "board_refused"


def _tables() -> dict[str, str]:
    return {
        "entry": BoardEntry._meta.db_table,
        "computer_entry": ComputerBoardEntry._meta.db_table,
        "seat": Seat._meta.db_table,
        "match": Match._meta.db_table,
        "user": User._meta.db_table,
    }


# Totals per registered, active player (not a BOT account: bots have their own rating
# board) over the matches that count in [start, end): rated, finished, not aborted, and
# at most LEADERBOARD_PAIR_LIMIT per pair of players (selectors.COUNTED_MATCHES_SQL).
_PERIOD_TOTALS_SQL = """
    SELECT s.user_id AS user_id,
           SUM(s.score) AS points,
           COUNT(*) AS matches_played,
           SUM(CASE WHEN m.winner_seat = s."index" THEN 1 ELSE 0 END) AS matches_won,
           SUM(s.hands_won) AS hands_won,
           SUM(s.gins + s.big_gins) AS gins
    FROM ({counted}) counted
    JOIN {seat} s ON s.match_id = counted.id
    JOIN {match} m ON m.id = s.match_id
    JOIN {user} u ON u.id = s.user_id
    WHERE u.is_active AND NOT u.is_guest AND NOT u.is_bot
    GROUP BY s.user_id
""".replace("{counted}", COUNTED_MATCHES_SQL)

_BOARD_UPSERT_SQL = """
    INSERT INTO {entry}
        (board_id, user_id, rank, points, matches_played, matches_won, hands_won, gins)
    SELECT %(board)s, user_id,
           CASE WHEN matches_played >= %(min_matches)s THEN ROW_NUMBER() OVER (
               PARTITION BY matches_played >= %(min_matches)s
               ORDER BY points DESC, matches_won DESC, hands_won DESC, gins DESC, user_id
           ) END,
           points, matches_played, matches_won, hands_won, gins
    FROM ({totals}) AS totals
    WHERE TRUE
    ON CONFLICT (board_id, user_id) DO UPDATE SET
        rank = excluded.rank, points = excluded.points,
        matches_played = excluded.matches_played, matches_won = excluded.matches_won,
        hands_won = excluded.hands_won, gins = excluded.gins
    WHERE {entry}.rank IS DISTINCT FROM excluded.rank
       OR {entry}.points <> excluded.points
       OR {entry}.matches_played <> excluded.matches_played
       OR {entry}.matches_won <> excluded.matches_won
       OR {entry}.hands_won <> excluded.hands_won
       OR {entry}.gins <> excluded.gins
"""

_BOARD_PRUNE_SQL = """
    DELETE FROM {entry}
    WHERE board_id = %(board)s
      AND user_id NOT IN (SELECT user_id FROM ({totals}) AS totals)
"""

# Record per registered, active player against one computer level, all time.
_COMPUTER_TOTALS_SQL = """
    SELECT s.user_id AS user_id,
           COUNT(*) AS matches_played,
           SUM(CASE WHEN m.winner_seat = s."index" THEN 1 ELSE 0 END) AS matches_won
    FROM {seat} s
    JOIN {match} m ON m.id = s.match_id
    JOIN {seat} bot ON bot.match_id = m.id AND bot."index" <> s."index"
    JOIN {user} u ON u.id = s.user_id
    WHERE m.status = %(finished)s AND bot.bot_level = %(level)s AND m.kind <> %(offline)s
      AND NOT m.aborted
      AND u.is_active AND NOT u.is_guest AND NOT u.is_bot
    GROUP BY s.user_id
"""

_COMPUTER_UPSERT_SQL = """
    INSERT INTO {computer_entry} (level, user_id, rank, matches_played, matches_won)
    SELECT %(level)s, user_id,
           CASE WHEN matches_played >= %(min_matches)s THEN ROW_NUMBER() OVER (
               PARTITION BY matches_played >= %(min_matches)s
               ORDER BY matches_won * 1.0 / matches_played DESC, matches_won DESC, user_id
           ) END,
           matches_played, matches_won
    FROM ({totals}) AS totals
    WHERE TRUE
    ON CONFLICT (level, user_id) DO UPDATE SET
        rank = excluded.rank, matches_played = excluded.matches_played,
        matches_won = excluded.matches_won
    WHERE {computer_entry}.rank IS DISTINCT FROM excluded.rank
       OR {computer_entry}.matches_played <> excluded.matches_played
       OR {computer_entry}.matches_won <> excluded.matches_won
"""

_COMPUTER_PRUNE_SQL = """
    DELETE FROM {computer_entry}
    WHERE level = %(level)s
      AND user_id NOT IN (SELECT user_id FROM ({totals}) AS totals)
"""


def _sql(template: str, totals: str) -> str:
    tables = _tables()
    return template.format(totals=totals.format(**tables), **tables)


def board_recompute(*, period: Period, now: datetime, refinalise: bool = False) -> Board:
    """Compute the stored board of ``period`` from the match records, and finalise it
    when the period ended at least ``FINALISE_GRACE`` before ``now``.

    Idempotent: re-running with the same records changes no entry. A final board is
    returned as it is, unless ``refinalise`` (the rebuild command's ``--force``).
    """
    if period.start > now:
        raise BoardError(f"{period.label} has not started yet")
    with transaction.atomic():
        Board.objects.bulk_create(
            [
                Board(
                    kind=period.kind.value,
                    period_start=period.start,
                    period_end=period.end,
                    min_matches=settings.LEADERBOARD_MIN_MATCHES,
                    computed_at=now,
                )
            ],
            ignore_conflicts=True,
        )
        board = Board.objects.select_for_update().get(
            kind=period.kind.value, period_start=period.start
        )
        if board.is_final and not refinalise:
            return board
        params: dict[str, Any] = {
            "board": board.pk,
            "min_matches": settings.LEADERBOARD_MIN_MATCHES,
            **counted_params(period),
        }
        with connection.cursor() as cursor:
            cursor.execute(_sql(_BOARD_UPSERT_SQL, _PERIOD_TOTALS_SQL), params)
            cursor.execute(_sql(_BOARD_PRUNE_SQL, _PERIOD_TOTALS_SQL), params)
        board.min_matches = settings.LEADERBOARD_MIN_MATCHES
        board.computed_at = now
        board.finalised_at = now if now >= period.end + FINALISE_GRACE else None
        board.save(update_fields=["min_matches", "computed_at", "finalised_at"])
    return board


def boards_refresh(*, now: datetime) -> list[Board]:
    """The beat task's work: recompute the current week and month, and recompute (and
    so finalise, once the grace has passed) every ended period not yet final."""
    boards = []
    for kind in PeriodKind:
        current = period_containing(kind, now)
        periods = {current, current.previous()}
        periods.update(
            b.period for b in Board.objects.filter(kind=kind.value, finalised_at__isnull=True)
        )
        for period in sorted(periods, key=lambda p: p.start):
            boards.append(board_recompute(period=period, now=now))
    return boards


def computer_boards_recompute() -> None:
    """Recompute the all-time win-rate board against each computer level in
    ``COMPUTER_BOARD_LEVELS`` (idempotent like the period boards)."""
    for level in COMPUTER_BOARD_LEVELS:
        params: dict[str, Any] = {
            "level": level,
            "min_matches": settings.LEADERBOARD_MIN_COMPUTER_MATCHES,
            "finished": Match.Status.FINISHED.value,
            "offline": Match.Kind.OFFLINE.value,  # offline matches never count
        }
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_sql(_COMPUTER_UPSERT_SQL, _COMPUTER_TOTALS_SQL), params)
            cursor.execute(_sql(_COMPUTER_PRUNE_SQL, _COMPUTER_TOTALS_SQL), params)


def _match_score(match: Match, seat_index: int) -> float:
    if match.winner_seat is None:
        return 0.5
    return 1.0 if match.winner_seat == seat_index else 0.0


def rating_apply_match(*, match_id: int) -> bool:
    """Apply a finished rated match to both players' Glicko-2 ratings (the match is one
    rating period). Returns False, changing nothing, when the match was already applied
    or is not a finished rated match between two registered players (an aborted match
    is never rated)."""
    with transaction.atomic():
        match = Match.objects.filter(
            pk=match_id, status=Match.Status.FINISHED, rated=True, aborted=False
        ).first()
        if match is None:
            return False
        seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
        users = [seat.user for seat in seats if seat.user is not None]
        if len(seats) != 2 or len(users) != 2 or any(u.is_guest for u in users):
            return False
        user_ids = sorted(u.pk for u in users)
        if user_ids[0] == user_ids[1]:
            return False
        Rating.objects.bulk_create([Rating(user_id=pk) for pk in user_ids], ignore_conflicts=True)
        # Locks in user id order: concurrent matches of the same player serialise here.
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update()
            .filter(user_id__in=user_ids)
            .order_by("user_id")
        }
        if RatingChange.objects.filter(match=match).exists():
            return False
        user_of = {seat.index: user.pk for seat, user in zip(seats, users, strict=True)}
        before = {seat.index: ratings[user_of[seat.index]].as_glicko() for seat in seats}
        when = match.finished_at or timezone.now()
        changes = []
        for seat in seats:
            opponent = before[1 - seat.index]
            result = glicko2.GameResult(opponent, _match_score(match, seat.index))
            new = glicko2.rate(before[seat.index], [result])
            rating = ratings[user_of[seat.index]]
            changes.append(
                RatingChange(
                    user_id=user_of[seat.index],
                    match=match,
                    rating_before=rating.rating,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    at=when,
                )
            )
            rating.rating, rating.deviation, rating.volatility = (
                new.rating,
                new.deviation,
                new.volatility,
            )
            rating.rated_matches += 1
            rating.updated_at = when
        RatingChange.objects.bulk_create(changes)
        Rating.objects.bulk_update(
            ratings.values(),
            ["rating", "deviation", "volatility", "rated_matches", "updated_at"],
        )
    return True


def ratings_apply_pending(*, limit: int = 500) -> int:
    """Apply, oldest first, rated matches whose on-commit task never ran (a worker was
    down); returns how many were applied. Safe to run next to the per-match tasks."""
    registered = Q(seats__user__isnull=False, seats__user__is_guest=False)
    pending = (
        Match.objects.filter(status=Match.Status.FINISHED, rated=True, aborted=False)
        .annotate(players=Count("seats", filter=registered))
        .filter(players=2)
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(rating_apply_match(match_id=pk) for pk in list(pending))
