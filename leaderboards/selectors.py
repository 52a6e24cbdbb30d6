"""Leaderboard and rating reads for the pages and the profile's rating chart.

Every page costs a fixed number of queries whatever the number of players: the top
rows, the viewer's own row with its position, and the list of past boards. Positions
are counted among active players only, so a banned player disappears from every board
(including final ones, whose stored ranks never change) without leaving a gap.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import quote

from django.db.models import F, IntegerField, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.urls import reverse

from accounts.models import User
from leaderboards.models import Board, BoardEntry, ComputerBoardEntry, Rating, RatingChange
from leaderboards.periods import Period, period_containing
from leaderboards.services import COMPUTER_BOARD_LEVELS

TOP_ROWS = 100
PAST_BOARDS_LISTED = 12
CHART_POINTS = 200


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


def profile_url(username: str) -> str:
    """The player's profile page (accounts:profile), without a reverse() per row."""
    prefix, suffix = _profile_url_parts()
    return f"{prefix}{quote(username, safe='@+')}{suffix}"


@functools.cache
def _profile_url_parts() -> tuple[str, str]:
    prefix, suffix = reverse("accounts:profile", args=["-"]).rsplit("-", 1)
    return prefix, suffix


def period_url(period: Period) -> str:
    return reverse(f"leaderboards:{period.kind.value}", args=period.url_args)


def _visible(prefix: str = "user__") -> Q:
    return Q(**{f"{prefix}is_active": True, f"{prefix}is_guest": False})


def _top(queryset: QuerySet, order: list, fields: list[str], limit: int) -> list[dict]:
    """The first ``limit`` rows of ``queryset`` in ``order``, each with its 1-based
    ``position`` counted over the same (filtered) rows."""
    return list(
        queryset.annotate(position=Window(RowNumber(), order_by=order))
        .order_by(*order)
        .values("position", "user_id", "user__username", *fields)[:limit]
    )


class _SubqueryCount(Subquery):
    template = "(SELECT COUNT(*) FROM (%(subquery)s) AS counted)"
    output_field = IntegerField()


def _position_among(queryset: QuerySet, ahead: Q) -> Subquery:
    """A subquery counting the rows of ``queryset`` matching ``ahead`` (which refers to
    the outer row and includes it): the outer row's position."""
    return _SubqueryCount(queryset.filter(ahead).order_by().values("pk"))


BOARD_FIELDS = ["points", "matches_played", "matches_won", "hands_won", "gins", "rank"]


def board_page(*, period: Period, viewer: User | None, now: datetime) -> BoardPage:
    """The weekly or monthly board of ``period`` (a past one stays browsable)."""
    board = Board.objects.filter(kind=period.kind.value, period_start=period.start).first()
    current = period_containing(period.kind, now)
    past_boards = [
        {"label": past.period.label, "url": period_url(past.period)}
        for past in Board.objects.filter(
            kind=period.kind.value, period_start__lt=current.start
        ).order_by("-period_start")[:PAST_BOARDS_LISTED]
    ]
    page = BoardPage(
        period=period,
        board=board,
        rows=[],
        viewer=None,
        previous_url=period_url(period.previous()),
        next_url=period_url(period.next()) if period.start < current.start else None,
        past_boards=past_boards,
    )
    if board is None:
        return page
    ranked = BoardEntry.objects.filter(_visible(), board=board, rank__isnull=False)
    page.rows = _top(ranked, [F("rank").asc()], BOARD_FIELDS, TOP_ROWS)
    if viewer is not None and viewer.is_authenticated:
        own = (
            BoardEntry.objects.filter(board=board, user=viewer)
            .annotate(position=_position_among(ranked, Q(rank__lte=OuterRef("rank"))))
            .values("position", "user_id", "user__username", *BOARD_FIELDS)
            .first()
        )
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


def rating_page(*, viewer: User | None) -> RatingPage:
    """The all-time rating board: every active registered player with a rated match."""
    rated = Rating.objects.filter(_visible(), rated_matches__gt=0)
    order = [F("rating").desc(), F("user_id").asc()]
    page = RatingPage(rows=_top(rated, order, RATING_FIELDS, TOP_ROWS), viewer=None)
    if viewer is not None and viewer.is_authenticated:
        ahead = Q(rating__gt=OuterRef("rating")) | Q(
            rating=OuterRef("rating"), user_id__lte=OuterRef("user_id")
        )
        own = (
            rated.filter(user=viewer)
            .annotate(position=_position_among(rated, ahead))
            .values("position", "user_id", "user__username", *RATING_FIELDS)
            .first()
        )
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
    ranked = ComputerBoardEntry.objects.filter(_visible(), level=level, rank__isnull=False)
    page = ComputerPage(
        level=level,
        levels=COMPUTER_BOARD_LEVELS,
        rows=_top(ranked, [F("rank").asc()], COMPUTER_FIELDS, TOP_ROWS),
        viewer=None,
        min_matches=min_matches,
    )
    if viewer is not None and viewer.is_authenticated:
        own = (
            ComputerBoardEntry.objects.filter(level=level, user=viewer)
            .annotate(position=_position_among(ranked, Q(rank__lte=OuterRef("rank"))))
            .values("position", "user_id", "user__username", *COMPUTER_FIELDS)
            .first()
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
