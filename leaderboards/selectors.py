"""Leaderboard and rating reads for the pages and the profile's rating chart.

Every page costs a fixed number of queries whatever the number of players: the board
with the list of past boards (one query), then the top rows with the viewer's own row
and position (one query). Positions are counted among active players only, so a banned player
disappears from every board (including final ones, whose stored ranks never change)
without leaving a gap. The pages' queries are SQL: they run on every page view, and
the ORM's building of them cost more CPU than running them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext, pgettext

from accounts.models import User
from games.models import Match, Seat
from leaderboards.models import (
    Board,
    BoardEntry,
    BoardExclusion,
    ComputerBoardEntry,
    CorrespondenceRating,
    Rating,
    RatingChange,
    VoidedMatch,
)
from leaderboards.periods import Period, PeriodKind, period_containing

TOP_ROWS = 100
PAST_BOARDS_LISTED = 12
CHART_POINTS = 200

#: The computer levels that have a board (win rate against them); easy and medium have
#: none: nearly every regular wins there (templates/leaderboards/computer.html says so).
COMPUTER_BOARD_LEVELS = ("hard", "expert")


@dataclass(frozen=True, slots=True)
class ViewerStanding:
    """The signed-in player's own line: ``position`` is None until they qualify."""

    position: int | None
    row: dict
    matches_needed: int = 0


@dataclass(slots=True)
class BoardPage:
    period: Period
    board: Board | None
    rows: list[dict]
    viewer: ViewerStanding | None
    previous_url: str
    next_url: str | None
    past_boards: list[dict] = field(default_factory=list)
    #: Whether the period is the current week or month (the page's tense).
    is_current: bool = True
    #: The signed-in player's rated matches finished in the period, counted from the
    #: match records when the stored board has no line of theirs (None otherwise):
    #: the board may not have been computed since they played.
    viewer_matches: int | None = None
    #: How often boards are recomputed, in words ("every minute").
    refresh_every: str = ""
    #: How many matches of the same two players count in the period.
    pair_limit: int = 0


def refresh_every() -> str:
    """The period of the board refresh in the beat schedule, in words (in the
    request's language)."""
    entry = settings.CELERY_BEAT_SCHEDULE.get("leaderboards-refresh-boards", {})
    try:
        seconds = round(float(entry["schedule"]))
    except (KeyError, TypeError, ValueError):
        return gettext("regularly")
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("every minute", "every %(n)d minutes", minutes) % {"n": minutes}
    return ngettext("every second", "every %(n)d seconds", seconds) % {"n": seconds}


def period_label(period: Period) -> str:
    """A period as people read it, in the request's language: "Week 48, 2026 (Nov 23–29)"
    or "November 2026"."""
    if period.kind is PeriodKind.WEEK:
        year, week, _day = period.start.isocalendar()
        # A date format (Django's date filter), as each language writes "Nov 23".
        day = pgettext("date format: a day and its month, abbreviated", "M j")
        return gettext("Week %(week)s, %(year)s (%(first)s–%(last)s)") % {
            "week": week, "year": year,
            "first": date_format(period.start.date(), day),
            "last": date_format(period.last_day, day),
        }
    return date_format(period.start.date(), "YEAR_MONTH_FORMAT")


# The matches that count on the board of [start, end): finished, rated, not aborted,
# and for each pair of players only their first LEADERBOARD_PAIR_LIMIT of the period
# (3 by default; the others still count for ratings), leaving out the matches a
# moderator voided as farmed (VoidedMatch). Three lets an evening's best of
# three between friends count in full, while five matches are needed to be ranked:
# nobody reaches a board by playing one accomplice, and a week's farming between
# two accounts is worth three matches at most. The pair is
# its two user ids in order (0 for a seat whose account was deleted). Used by the
# boards' computation (leaderboards/services.py) and the viewer's count below.
COUNTED_MATCHES_SQL = """
    SELECT id FROM (
        SELECT m.id AS id, ROW_NUMBER() OVER (
                   PARTITION BY
                       CASE WHEN COALESCE(a.user_id, 0) < COALESCE(b.user_id, 0)
                            THEN COALESCE(a.user_id, 0) ELSE COALESCE(b.user_id, 0) END,
                       CASE WHEN COALESCE(a.user_id, 0) < COALESCE(b.user_id, 0)
                            THEN COALESCE(b.user_id, 0) ELSE COALESCE(a.user_id, 0) END
                   ORDER BY m.finished_at, m.id
               ) AS nth
        FROM {match} m
        JOIN {seat} a ON a.match_id = m.id AND a."index" = 0
        JOIN {seat} b ON b.match_id = m.id AND b."index" = 1
        WHERE m.status = %(finished)s AND m.rated AND NOT m.aborted
          AND m.finished_at >= %(start)s AND m.finished_at < %(end)s
          AND NOT EXISTS (SELECT 1 FROM {voided} v WHERE v.match_id = m.id)
    ) AS paired
    WHERE nth <= %(pair_limit)s
"""


def counted_params(period: Period) -> dict[str, Any]:
    """The parameters of ``COUNTED_MATCHES_SQL`` for ``period``."""
    return {
        "finished": Match.Status.FINISHED.value,
        "start": connection.ops.adapt_datetimefield_value(period.start),
        "end": connection.ops.adapt_datetimefield_value(period.end),
        "pair_limit": settings.LEADERBOARD_PAIR_LIMIT,
    }


_VIEWER_COUNTED_SQL = """
    SELECT COUNT(*) FROM ({counted}) AS counted
    JOIN {seat} s ON s.match_id = counted.id
    WHERE s.user_id = %(user)s
"""


def _rated_matches_in(period: Period, user_id: int) -> int:
    """The player's matches finished in ``period`` that count on its board, from the
    match records."""
    tables = {
        "match": Match._meta.db_table, "seat": Seat._meta.db_table,
        "voided": VoidedMatch._meta.db_table,
    }
    sql = _VIEWER_COUNTED_SQL.format(counted=COUNTED_MATCHES_SQL, seat="{seat}")
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**tables), {**counted_params(period), "user": user_id})
        return int(cursor.fetchone()[0])


def profile_url(username: str) -> str:
    """The player's profile page (accounts:profile), without a reverse() per row."""
    prefix, suffix = _profile_url_parts()
    return f"{prefix}{quote(username, safe='@+')}{suffix}"


@functools.cache
def _profile_url_parts() -> tuple[str, str]:
    prefix, suffix = reverse("accounts:profile", args=["-"]).rsplit("-", 1)
    return prefix, suffix


@functools.lru_cache(maxsize=512)
def period_url(period: Period) -> str:
    """The board page of ``period`` (cached: a board page links up to 14 periods)."""
    return reverse(f"leaderboards:{period.kind.value}", args=period.url_args)


def _tables() -> dict[str, str]:
    return {
        "rating": Rating._meta.db_table,
        "user": User._meta.db_table,
        "excluded": BoardExclusion._meta.db_table,
    }


def _rows(sql: str, params: dict, **parts: str) -> list[dict]:
    """Run ``sql`` with the table names and ``parts`` filled in; one dict per row."""
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**_tables(), **parts), params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]


# A player is on the pages while registered and active: a ban hides them at once, even
# on a final board. Boards store ``rank`` counted among the players active when they
# were computed (dense from 1), so a position is the stored rank minus the players
# hidden since then who are ranked ahead: few, found through the partial index of
# hidden accounts (migration 0002), so the own line costs the same whatever the
# player's rank. The top rows count positions with a window over the visible rows,
# which the LIMIT stops after the first hundred.
#
# The top rows look each player up by id as the ranked rows come, in scalar subqueries:
# a join let PostgreSQL's planner hash every account when a board has few ranked rows,
# a cost growing with the number of accounts instead of the rows shown.
_RANKED_TOP_SQL = """
    SELECT 0 AS is_own, ROW_NUMBER() OVER (ORDER BY e.rank) AS position, e.user_id,
           (SELECT username FROM {user} WHERE id = e.user_id) AS user__username, {fields}
    FROM {table} e
    WHERE {where} AND e.rank IS NOT NULL
      AND (SELECT is_active AND NOT is_guest FROM {user} WHERE id = e.user_id)
    ORDER BY e.rank
    LIMIT %(limit)s
"""

_RANKED_OWN_SQL = """
    SELECT 1 AS is_own, e.rank - (
               SELECT COUNT(*) FROM {table} h JOIN {user} hu ON hu.id = h.user_id
               WHERE {hidden_where} AND h.rank < e.rank
                 AND (NOT hu.is_active OR hu.is_guest)
           ) AS position,
           e.user_id, u.username AS user__username, {fields}
    FROM {table} e JOIN {user} u ON u.id = e.user_id
    WHERE {where} AND e.user_id = %(viewer)s AND u.is_active AND NOT u.is_guest
"""


# The top rows and the viewer's own row come in one statement: under load, each round
# trip to the database waits for a core twice.
_TOP_AND_OWN_SQL = """
    SELECT * FROM ({top}) AS top
    UNION ALL
    SELECT * FROM ({own}) AS own
    ORDER BY is_own, position
"""


def _top_and_own(
    top: str, own: str, params: dict, viewer_id: int | None, **parts: str
) -> tuple[list[dict], dict | None]:
    """The rows of ``top`` (``is_own`` 0) and the viewer's row of ``own`` (1), if any."""
    sql = _TOP_AND_OWN_SQL.format(top=top, own=own)
    rows = _rows(sql, {**params, "limit": TOP_ROWS, "viewer": viewer_id}, **parts)
    viewer_row = rows.pop() if rows and rows[-1]["is_own"] else None
    return rows, viewer_row


def _ranked_rows(
    *, table: str, where: str, hidden_where: str, fields: list[str], params: dict, viewer_id
) -> tuple[list[dict], dict | None]:
    """The top rows of a board stored with ranks, and the viewer's own row (None when
    they have none), each with its ``position`` among the visible players."""
    parts = {
        "table": table,
        "where": where,
        "hidden_where": hidden_where,
        "fields": ", ".join(f"e.{name}" for name in fields),
    }
    return _top_and_own(_RANKED_TOP_SQL, _RANKED_OWN_SQL, params, viewer_id, **parts)


def _viewer_id(viewer: User | None) -> int | None:
    return viewer.pk if viewer is not None and viewer.is_authenticated else None


# The board shown and the list of past boards, in one query.
_BOARDS_SQL = """
    SELECT * FROM {board}
    WHERE kind = %(kind)s AND (
        period_start = %(start)s OR id IN (
            SELECT id FROM {board} WHERE kind = %(kind)s AND period_start < %(current)s
            ORDER BY period_start DESC LIMIT %(listed)s
        )
    )
    ORDER BY period_start DESC
"""

BOARD_FIELDS = ["points", "matches_played", "matches_won", "hands_won", "gins", "rank"]


def board_page(*, period: Period, viewer: User | None, now: datetime) -> BoardPage:
    """The weekly or monthly board of ``period`` (a past one stays browsable)."""
    kind = period.kind.value
    current = period_containing(period.kind, now)
    params = {
        "kind": kind,
        "start": connection.ops.adapt_datetimefield_value(period.start),
        "current": connection.ops.adapt_datetimefield_value(current.start),
        "listed": PAST_BOARDS_LISTED,
    }
    boards = list(Board.objects.raw(_BOARDS_SQL.format(board=Board._meta.db_table), params))
    board = next((b for b in boards if b.period_start == period.start), None)
    past = [b for b in boards if b.period_start < current.start][:PAST_BOARDS_LISTED]
    page = BoardPage(
        period=period,
        board=board,
        rows=[],
        viewer=None,
        previous_url=period_url(period.previous()),
        next_url=period_url(period.next()) if period.start < current.start else None,
        past_boards=[{"label": period_label(b.period), "url": period_url(b.period)} for b in past],
        is_current=period.start >= current.start,
        refresh_every=refresh_every(),
        pair_limit=settings.LEADERBOARD_PAIR_LIMIT,
    )
    viewer_id = _viewer_id(viewer)
    # A registered viewer's id (a guest has no board standing).
    registered = viewer_id if viewer is not None and not viewer.is_guest else None
    if board is None:
        if registered is not None:
            page.viewer_matches = _rated_matches_in(period, registered)
        return page
    page.rows, own = _ranked_rows(
        table=BoardEntry._meta.db_table,
        where="e.board_id = %(board)s",
        hidden_where="h.board_id = e.board_id",
        fields=BOARD_FIELDS,
        params={"board": board.pk},
        viewer_id=viewer_id,
    )
    if own is None and registered is not None:
        page.viewer_matches = _rated_matches_in(period, registered)
    if own is not None:
        qualified = own["rank"] is not None
        page.viewer = ViewerStanding(
            position=own["position"] if qualified else None,
            row=own,
            matches_needed=0 if qualified else board.min_matches - own["matches_played"],
        )
    return page


@dataclass(slots=True)
class RatingPage:
    rows: list[dict]
    viewer: ViewerStanding | None


RATING_FIELDS = ["rating", "deviation", "rated_matches"]

_RATING_TOP_SQL = """
    SELECT 0 AS is_own, ROW_NUMBER() OVER (ORDER BY r.rating DESC, r.user_id) AS position,
           r.user_id,
           (SELECT username FROM {user} WHERE id = r.user_id) AS user__username,
           r.rating, r.deviation, r.rated_matches
    FROM {rating} r
    WHERE r.rated_matches > 0
      AND (SELECT is_active AND NOT is_guest AND is_bot = %(bots)s
           FROM {user} WHERE id = r.user_id)
      AND NOT EXISTS (SELECT 1 FROM {excluded} x WHERE x.user_id = r.user_id)
    ORDER BY r.rating DESC, r.user_id
    LIMIT %(limit)s
"""

# The players ahead (the player included) are counted on the rated players' index
# alone, without a join; then the hidden ones among them are taken off.
_RATING_OWN_SQL = """
    SELECT 1 AS is_own, (SELECT COUNT(*) FROM {rating} a
            WHERE a.rated_matches > 0 AND a.rating >= r.rating
              AND (a.rating > r.rating OR a.user_id <= r.user_id))
         - (SELECT COUNT(*) FROM {rating} a JOIN {user} hu ON hu.id = a.user_id
            WHERE a.rated_matches > 0 AND a.rating >= r.rating
              AND (a.rating > r.rating OR a.user_id < r.user_id)
              AND (NOT hu.is_active OR hu.is_guest OR hu.is_bot <> %(bots)s
                   OR EXISTS (SELECT 1 FROM {excluded} x WHERE x.user_id = a.user_id)))
           AS position,
           r.user_id, u.username AS user__username, r.rating, r.deviation, r.rated_matches
    FROM {rating} r JOIN {user} u ON u.id = r.user_id
    WHERE r.user_id = %(viewer)s AND r.rated_matches > 0 AND u.is_active AND NOT u.is_guest
      AND u.is_bot = %(bots)s
      AND NOT EXISTS (SELECT 1 FROM {excluded} x WHERE x.user_id = r.user_id)
"""


def rating_page(*, viewer: User | None, bots: bool = False) -> RatingPage:
    """The all-time rating board: every active registered player with a rated match
    (but those removed from the boards);
    ``bots``: the board of BOT accounts instead (they play rated only each other)."""
    rows, own = _top_and_own(
        _RATING_TOP_SQL, _RATING_OWN_SQL, {"bots": bots}, _viewer_id(viewer)
    )
    page = RatingPage(rows=rows, viewer=None)
    if own is not None:
        page.viewer = ViewerStanding(position=own["position"], row=own)
    for row in [*page.rows, *([page.viewer.row] if page.viewer else [])]:
        row["rating"], row["deviation"] = round(row["rating"]), round(row["deviation"])
    return page


@dataclass(slots=True)
class ComputerPage:
    level: str
    levels: tuple[str, ...]
    rows: list[dict]
    viewer: ViewerStanding | None
    min_matches: int


COMPUTER_FIELDS = ["matches_played", "matches_won", "rank"]


def computer_page(*, level: str, viewer: User | None, min_matches: int) -> ComputerPage:
    """The all-time board of win rate against the computer at ``level``."""
    if level not in COMPUTER_BOARD_LEVELS:
        raise ValueError(f"no board for computer level {level!r}")
    rows, own = _ranked_rows(
        table=ComputerBoardEntry._meta.db_table,
        where="e.level = %(level)s",
        hidden_where="h.level = e.level",
        fields=COMPUTER_FIELDS,
        params={"level": level},
        viewer_id=_viewer_id(viewer),
    )
    page = ComputerPage(
        level=level, levels=COMPUTER_BOARD_LEVELS, rows=rows, viewer=None, min_matches=min_matches
    )
    if own is not None:
        qualified = own["rank"] is not None
        page.viewer = ViewerStanding(
            position=own["position"] if qualified else None,
            row=own,
            matches_needed=0 if qualified else max(min_matches - own["matches_played"], 0),
        )
    for row in [*page.rows, *([page.viewer.row] if page.viewer else [])]:
        row["win_percent"] = round(100 * row["matches_won"] / row["matches_played"])
    return page


@dataclass(frozen=True, slots=True)
class RatingChart:
    """What ``leaderboards/_rating_chart.html`` draws: an SVG polyline in a
    ``width`` x ``height`` box, with the rating range and the current rating."""

    width: int
    height: int
    points: str
    low: int
    high: int
    current: int | None
    deviation: int | None
    matches: int
    first_at: datetime | None
    last_at: datetime | None


def rating_chart(*, user: User, width: int = 640, height: int = 160) -> RatingChart:
    """The player's rating history (the last ``CHART_POINTS`` rated matches), starting
    from the rating before the first of them. One query."""
    changes = list(
        RatingChange.objects.filter(user=user)
        .order_by("-at", "-pk")
        .values("rating_before", "rating", "deviation", "at")[:CHART_POINTS]
    )[::-1]
    if not changes:
        return RatingChart(width, height, "", 0, 0, None, None, 0, None, None)
    values = [changes[0]["rating_before"], *(c["rating"] for c in changes)]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    pad = 4
    step = (width - 2 * pad) / (len(values) - 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}"
        for i, v in enumerate(values)
    )
    return RatingChart(
        width=width,
        height=height,
        points=points,
        low=round(low),
        high=round(high),
        current=round(changes[-1]["rating"]),
        deviation=round(changes[-1]["deviation"]),
        matches=len(changes),
        first_at=changes[0]["at"],
        last_at=changes[-1]["at"],
    )


def correspondence_board(*, limit: int = 100) -> list[dict[str, Any]]:
    """The correspondence rating board: players by their correspondence rating (their
    own, apart from live play's), active registered people only."""
    rows = (
        CorrespondenceRating.objects.filter(
            rated_matches__gt=0, user__is_active=True, user__is_guest=False
        )
        .select_related("user")
        .order_by("-rating", "user_id")[:limit]
    )
    return [
        {"position": index, "username": r.user.username, "name": r.user.display_name,
         "rating": round(r.rating), "deviation": round(r.deviation),
         "rated_matches": r.rated_matches}
        for index, r in enumerate(rows, start=1)
    ]
