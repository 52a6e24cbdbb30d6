"""What the analysis does when the games app publishes a finished hand
(games/events.py ``HandFinished``), and what it adds to the core's pages (games/pages.py:
the table's hint button, the score sheet's accuracy). Registered in
games/analysis/apps.py."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.events import HandFinished
from games.models import Match

from . import selectors, services


def on_hand_finished(event: HandFinished) -> None:
    """Once the move that ended the hand commits (subscribed ``after_commit``):
    ``hand_finished``."""
    hand_finished(event.hand_id)


def hand_finished(hand_id: int) -> None:
    """Have the finished hand analysed off the request path: a task on the
    "analysis" queue, or the embedded mode's background thread."""
    services.hand_finished(hand_id)


def table_hint_url(match: Match, user: Any, seat: int | None) -> str | None:
    """The table's ``hint_url`` part: for a player of a match in play that allows
    hints (selectors.hint_allowed)."""
    if seat is None or match.status == Match.Status.FINISHED or not selectors.hint_allowed(match):
        return None
    return reverse("analysis:hint", args=[match.pk])


def sheet_accuracy(match: Match) -> dict[str, Any]:
    """The score sheet's ``accuracy`` part (selectors.sheet_accuracy)."""
    return selectors.sheet_accuracy(match=match)
