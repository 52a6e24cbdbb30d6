"""What the tournaments app does when the games app publishes a finished match
(games/events.py ``MatchFinished``), and what it lends to the apps below it: the rule of
a tournament's chat room (games/chat/rooms.py) and the table page's tournament part
(games/pages.py). All registered in games/tournaments/apps.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.events import MatchFinished

from . import selectors, services

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Match


def on_match_finished(event: MatchFinished) -> None:
    """Inside the transaction that finishes the match (under its lock; subscribed
    ``in_transaction``): a tournament match's result is recorded, exactly once, and the
    next pairing enqueued after commit."""
    services.match_finished(event.match, list(event.seats))


def chat_may_read(user: User, tournament_id: int) -> bool:
    return selectors.chat_may_read(user=user, tournament_id=tournament_id)


def chat_may_write(user: User, tournament_id: int) -> bool:
    return selectors.chat_may_write(user=user, tournament_id=tournament_id)


def table_tournament(match: Match, user: Any, seat: int | None) -> dict[str, Any] | None:
    """The table's ``tournament`` part: for one of the match's players, the tournament
    that paired it (the table follows it once the match is over)."""
    if seat is None:
        return None
    return selectors.match_tournament(match_id=match.pk, user=user)
