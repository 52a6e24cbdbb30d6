"""What the games app asks of the tournaments app: a finished match's result, and who
reads and writes a tournament's chat room (games/chat/selectors.py)."""

from __future__ import annotations

from typing import Any

from games.models import Match, Seat


def match_finished(match: Match, seats: list[Seat]) -> None:
    """Inside the transaction that finishes ``match`` (under its lock): a tournament
    match's result is recorded and the next pairing enqueued after commit."""
    from . import services

    services.match_finished(match, seats)


def chat_may_read(*, user: Any, tournament_id: int) -> bool:
    """Signed-in users who may see the tournament read its chat."""
    from . import selectors

    return selectors.chat_may_read(user=user, tournament_id=tournament_id)


def chat_may_write(*, user: Any, tournament_id: int) -> bool:
    """Its players (not those staff removed), its creator and staff write in its chat."""
    from . import selectors

    return selectors.chat_may_write(user=user, tournament_id=tournament_id)
