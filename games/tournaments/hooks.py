"""What the games app tells the tournaments app: a finished match's result. (Who reads
and writes a tournament's chat room, games/chat/selectors.py asks
games/tournaments/selectors.py.)"""

from __future__ import annotations

from games.models import Match, Seat


def match_finished(match: Match, seats: list[Seat]) -> None:
    """Inside the transaction that finishes ``match`` (under its lock): a tournament
    match's result is recorded and the next pairing enqueued after commit."""
    from . import services

    services.match_finished(match, seats)
