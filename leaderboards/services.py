"""Leaderboard and rating writes.

Boards are computed in the database (one INSERT ... SELECT ... ON CONFLICT aggregating
the finished matches of the period, one DELETE of players no longer on it): no Python
loop over matches or players. Re-running changes no row; a finalised board is never
touched again, but by a moderator's fair-play decision (``board_exclude``,
``matches_void``). Ratings are applied once per rated match under row locks; voiding a
farmed match replays the ratings it affected under a lock of the rating table.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from ginsite.errors import AppError
from leaderboards import glicko2
from leaderboards.models import (
    Board,
    BoardEntry,
    BoardExclusion,
    ComputerBoardEntry,
    CorrespondenceRating,
    CorrespondenceRatingChange,
    Rating,
    RatingChange,
    VoidedMatch,
)
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
        "voided": VoidedMatch._meta.db_table,
        "excluded": BoardExclusion._meta.db_table,
    }


# Totals per registered, active player (not a BOT account: bots have their own rating
# board; nor one a moderator removed from the boards) over the matches that count in
# [start, end): rated, finished, not aborted nor voided, and at most
# LEADERBOARD_PAIR_LIMIT per pair of players (selectors.COUNTED_MATCHES_SQL).
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
      AND NOT EXISTS (SELECT 1 FROM {excluded} x WHERE x.user_id = s.user_id)
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
      AND NOT EXISTS (SELECT 1 FROM {excluded} x WHERE x.user_id = s.user_id)
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
    is never rated, nor one a moderator voided)."""
    with transaction.atomic():
        match = (
            Match.objects.filter(
                pk=match_id, status=Match.Status.FINISHED, rated=True, aborted=False
            )
            .exclude(Exists(VoidedMatch.objects.filter(match=OuterRef("pk"))))
            .first()
        )
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
        .exclude(Exists(VoidedMatch.objects.filter(match=OuterRef("pk"))))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(rating_apply_match(match_id=pk) for pk in list(pending))


# --- Fair play: what moderators take off the boards -------------------------------------

#: A player's replayed rating that moves less than this (rating or deviation) leaves the
#: player's stored history as it is: the effect of a voided match fades with each
#: opponent further from it.
REPLAY_EPSILON = 0.5


def _recompute_periods(periods: set[Period], now: datetime) -> None:
    for period in sorted(periods, key=lambda p: (p.kind.value, p.start)):
        if period.start <= now:
            board_recompute(period=period, now=now, refinalise=True)


def board_exclude(*, user_ids: list[int], reason: str, now: datetime) -> int:
    """Remove players from every board (fair play's moderators): the weekly and monthly
    boards they are on, final ones included, are recomputed without them, and they
    appear on no board, computer or rating board included, from now on. Returns how
    many boards were recomputed."""
    with transaction.atomic():
        BoardExclusion.objects.bulk_create(
            [BoardExclusion(user_id=pk, reason=reason[:300], created_at=now) for pk in user_ids],
            ignore_conflicts=True,
        )
        boards = Board.objects.filter(entries__user_id__in=user_ids).distinct()
        periods = {board.period for board in boards}
        _recompute_periods(periods, now)
        computer_boards_recompute()
    return len(periods)


class Replayed(NamedTuple):
    """What voiding matches did to ratings: each affected player's change (new rating
    minus the old one) of live play's rating and of the correspondence rating."""

    live: dict[int, float]
    correspondence: dict[int, float]


#: The two ratings and their histories, replayed alike.
_RATINGS: tuple[tuple[type[Any], type[Any]], ...] = (
    (Rating, RatingChange), (CorrespondenceRating, CorrespondenceRatingChange),
)


def matches_void(*, match_ids: list[int], reason: str, now: datetime) -> Replayed:
    """Void farmed matches: they count on no board and for no rating, live play's or
    correspondence play's. Their rating changes are deleted and the ratings of everyone
    they affected are replayed without them, each rating on its own history, match by
    match from the first of them: its two players, and each later opponent of an
    affected player whose rating then moves by at least ``REPLAY_EPSILON`` (their
    history rows are rewritten, their current rating set to the replayed one). The
    boards of the periods the voided matches fall in are recomputed (final ones too).
    Returns each affected player's change of each rating."""
    ids = sorted(set(match_ids))
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # No rating is applied meanwhile (rating_apply_match and
            # correspondence_rating_apply wait on their row locks); pages still read them.
            with connection.cursor() as cursor:
                for rating_model, _ in _RATINGS:
                    cursor.execute(
                        f'LOCK TABLE "{rating_model._meta.db_table}" IN EXCLUSIVE MODE'
                    )
        VoidedMatch.objects.bulk_create(
            [VoidedMatch(match_id=pk, reason=reason[:300], created_at=now) for pk in ids],
            ignore_conflicts=True,
        )
        replayed = []
        for rating_model, change_model in _RATINGS:
            rows = list(change_model.objects.filter(match_id__in=ids))
            replayed.append(_replay_without(rows, rating_model, change_model) if rows else {})
        live, correspondence = replayed
        finished = Match.objects.filter(pk__in=ids, finished_at__isnull=False).values_list(
            "finished_at", flat=True
        )
        periods = {
            period_containing(kind, at) for at in finished if at is not None for kind in PeriodKind
        }
        _recompute_periods(periods, now)
    return Replayed(live=live, correspondence=correspondence)


Change = Any  # a RatingChange or a CorrespondenceRatingChange: the same fields


def _stored_before(row: Change, last: dict[int, Change]) -> glicko2.Glicko2Rating:
    """A player's stored rating before ``row``'s match: the rating it records, with the
    deviation and volatility of the player's change before it (a first rated match from
    the default rating: the defaults; a rating set without a history: the row's own)."""
    previous = last.get(row.user_id)
    if previous is None:
        previous = (
            type(row).objects.filter(user_id=row.user_id)
            .filter(Q(at__lt=row.at) | Q(at=row.at, match_id__lt=row.match_id))
            .order_by("-at", "-match_id")
            .first()
        )
    if previous is not None:
        return glicko2.Glicko2Rating(row.rating_before, previous.deviation, previous.volatility)
    if row.rating_before == glicko2.DEFAULT_RATING:
        return glicko2.Glicko2Rating()
    return glicko2.Glicko2Rating(row.rating_before, row.deviation, row.volatility)


def _replay_without(
    voided_rows: list[Change],
    rating_model: type[Any],
    change_model: type[Any],
) -> dict[int, float]:
    """Replay ``rating_model``'s ratings from ``change_model``'s history without the
    matches of ``voided_rows`` (``matches_void``); returns each player's change."""
    voided = {row.match_id for row in voided_rows}
    start = min(row.at for row in voided_rows)
    rows = list(change_model.objects.filter(at__gte=start).order_by("at", "match_id", "user_id"))
    match_ids = {row.match_id for row in rows}
    winners = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "winner_seat"))
    seat_of = {
        (match_id, user_id): index
        for match_id, user_id, index in Seat.objects.filter(
            match_id__in=match_ids, user__isnull=False
        ).values_list("match_id", "user_id", "index")
    }
    by_match: dict[int, list[Change]] = {}
    for row in rows:
        by_match.setdefault(row.match_id, []).append(row)
    state: dict[int, glicko2.Glicko2Rating] = {}
    voided_count: dict[int, int] = {}
    last: dict[int, Change] = {}
    rewritten: list[Change] = []
    for match_id, pair in by_match.items():  # in the order of the rows: time, then match
        if match_id in voided:
            for row in pair:
                state.setdefault(row.user_id, _stored_before(row, last))
                voided_count[row.user_id] = voided_count.get(row.user_id, 0) + 1
                last[row.user_id] = row
            continue
        if len(pair) != 2 or not any(row.user_id in state for row in pair):
            for row in pair:
                last[row.user_id] = row
            continue
        before = {row.user_id: state.get(row.user_id) or _stored_before(row, last) for row in pair}
        for row, other in ((pair[0], pair[1]), (pair[1], pair[0])):
            winner = winners.get(match_id)
            index = seat_of.get((match_id, row.user_id))
            score = 0.5 if winner is None else 1.0 if winner == index else 0.0
            new = glicko2.rate(before[row.user_id],
                               [glicko2.GameResult(before[other.user_id], score)])
            moved = (abs(new.rating - row.rating) >= REPLAY_EPSILON
                     or abs(new.deviation - row.deviation) >= REPLAY_EPSILON)
            last[row.user_id] = row
            if row.user_id in state or moved:
                state[row.user_id] = new
                row.rating_before = before[row.user_id].rating
                row.rating, row.deviation, row.volatility = (
                    new.rating, new.deviation, new.volatility
                )
                rewritten.append(row)
    change_model.objects.filter(match_id__in=voided).delete()
    change_model.objects.bulk_update(
        rewritten, ["rating_before", "rating", "deviation", "volatility"], batch_size=500
    )
    changed: dict[int, float] = {}
    ratings = list(rating_model.objects.filter(user_id__in=state))
    for rating in ratings:
        new = state[rating.user_id]
        changed[rating.user_id] = new.rating - rating.rating
        rating.rating, rating.deviation, rating.volatility = (
            new.rating, new.deviation, new.volatility
        )
        rating.rated_matches = max(0, rating.rated_matches - voided_count.get(rating.user_id, 0))
    rating_model.objects.bulk_update(
        ratings, ["rating", "deviation", "volatility", "rated_matches"]
    )
    return changed


def correspondence_rating_apply(*, match_id: int) -> bool:
    """Apply a finished correspondence match (games/services/correspondence.py) to both
    players' correspondence ratings, apart from live play's: once, between two
    registered people, never an aborted or voided one. Returns whether it did."""
    with transaction.atomic():
        match = (
            Match.objects.filter(
                pk=match_id, status=Match.Status.FINISHED, aborted=False,
                days_per_move__isnull=False,
            )
            .exclude(Exists(VoidedMatch.objects.filter(match=OuterRef("pk"))))
            .first()
        )
        if match is None:
            return False
        seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
        users = [seat.user for seat in seats if seat.user is not None]
        if len(users) != 2 or any(u.is_guest or u.is_bot for u in users):
            return False
        user_ids = sorted(u.pk for u in users)
        if user_ids[0] == user_ids[1]:
            return False
        CorrespondenceRating.objects.bulk_create(
            [CorrespondenceRating(user_id=pk) for pk in user_ids], ignore_conflicts=True
        )
        ratings = {
            r.user_id: r
            for r in CorrespondenceRating.objects.select_for_update()
            .filter(user_id__in=user_ids)
            .order_by("user_id")
        }
        if CorrespondenceRatingChange.objects.filter(match=match).exists():
            return False
        user_of = {seat.index: user.pk for seat, user in zip(seats, users, strict=True)}
        before = {seat.index: ratings[user_of[seat.index]].as_glicko() for seat in seats}
        when = match.finished_at or timezone.now()
        for seat in seats:
            result = glicko2.GameResult(before[1 - seat.index], _match_score(match, seat.index))
            new = glicko2.rate(before[seat.index], [result])
            rating = ratings[user_of[seat.index]]
            CorrespondenceRatingChange.objects.create(
                user_id=rating.user_id, match=match, rating_before=rating.rating,
                rating=new.rating, deviation=new.deviation, volatility=new.volatility, at=when,
            )
            rating.rating, rating.deviation, rating.volatility = (
                new.rating, new.deviation, new.volatility,
            )
            rating.rated_matches += 1
            rating.updated_at = when
            rating.save()
    return True
