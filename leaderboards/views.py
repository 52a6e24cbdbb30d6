"""Leaderboard pages: parse the URL, call one selector, render."""

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from ginsite.http import signed_in_user
from leaderboards import selectors
from leaderboards.periods import Period, PeriodKind, month_period, period_containing, week_period


def _period_board(
    request: HttpRequest,
    kind: PeriodKind,
    args: tuple[int, int] | None,
    build: Callable[[int, int], Period],
) -> HttpResponse:
    now = timezone.now()
    if args is None:
        period = period_containing(kind, now)
    else:
        try:
            period = build(*args)
        except ValueError as error:
            raise Http404(_("No such period")) from error
        if period.start > now:
            raise Http404(_("This period has not started yet"))
    page = selectors.board_page(period=period, viewer=signed_in_user(request), now=now)
    return render(request, "leaderboards/board.html", {"page": page, "tab": kind.value})


def week_board(
    request: HttpRequest, year: int | None = None, week: int | None = None
) -> HttpResponse:
    args = None if year is None or week is None else (year, week)
    return _period_board(request, PeriodKind.WEEK, args, week_period)


def month_board(
    request: HttpRequest, year: int | None = None, month: int | None = None
) -> HttpResponse:
    args = None if year is None or month is None else (year, month)
    return _period_board(request, PeriodKind.MONTH, args, month_period)


def rating_board(request: HttpRequest) -> HttpResponse:
    page = selectors.rating_page(viewer=signed_in_user(request))
    return render(request, "leaderboards/rating.html", {"page": page, "tab": "rating"})


def bot_rating_board(request: HttpRequest) -> HttpResponse:
    """The rating board of BOT accounts (docs/bot-api.md)."""
    page = selectors.rating_page(viewer=signed_in_user(request), bots=True)
    return render(request, "leaderboards/rating.html", {"page": page, "tab": "bots"})


def computer_board(request: HttpRequest, level: str = "hard") -> HttpResponse:
    try:
        page = selectors.computer_page(
            level=level,
            viewer=signed_in_user(request),
            min_matches=settings.LEADERBOARD_MIN_COMPUTER_MATCHES,
        )
    except ValueError as error:
        raise Http404(str(error)) from error
    return render(request, "leaderboards/computer.html", {"page": page, "tab": "computer"})


def correspondence_board(request: HttpRequest) -> HttpResponse:
    """The correspondence rating board (its own rating, apart from live play's)."""
    return render(request, "leaderboards/correspondence.html", {
        "rows": selectors.correspondence_board(), "tab": "correspondence",
    })
