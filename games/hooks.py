"""What the games app does when accounts publishes (games/events.py ``PlayerBanned``,
``AccountClosed``; subscribed in games/apps.py): the player leaves play, inside the
transaction of the ban or the deletion."""

from __future__ import annotations

from games.events import AccountClosed, PlayerBanned
from games.models import Match

from . import services


def on_player_banned(event: PlayerBanned) -> None:
    """Subscribed ``in_transaction``: with the ban or not at all, every match in play
    forfeited (the opponent wins) and the queue left."""
    services.player_leave_play(user_id=event.user_id, reason=Match.EndReason.SUSPENDED)


def on_account_closed(event: AccountClosed) -> None:
    """Subscribed ``in_transaction``: with the deletion or not at all, every match in
    play resigned and the queue left."""
    services.player_leave_play(user_id=event.user_id, reason=Match.EndReason.RESIGN)
