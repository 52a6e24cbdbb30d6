"""Writes of the games app (HackSoft style: ``<entity>_<action>(*, ...)``).

Everything a view, consumer or task may change goes through these functions;
each raises a ``games.errors.ServiceError`` (with a protocol ``code``)
and changes nothing when it refuses.
"""

from games.errors import ServiceError

from .guests import guest_user_create
from .leaving import player_leave_play
from .matches import (
    invites_expire,
    match_cancel_invite,
    match_create_computer,
    match_create_invite,
    match_forfeit,
    match_join_invite,
    match_rematch,
    match_resign,
)
from .moves import MoveResult, bot_turn_play, clock_expire, clock_sweep, clock_tick, move_submit
from .offline import offline_match_import
from .presence import (
    seat_connect,
    seat_disconnect,
    seat_socket_renew,
    seat_sockets_expire,
    seat_sockets_renew,
)
from .quickmatch import quickmatch_cancel, quickmatch_enqueue

__all__ = [
    "MoveResult",
    "ServiceError",
    "bot_turn_play",
    "clock_expire",
    "clock_sweep",
    "clock_tick",
    "guest_user_create",
    "invites_expire",
    "match_cancel_invite",
    "match_create_computer",
    "match_create_invite",
    "match_forfeit",
    "match_join_invite",
    "match_rematch",
    "match_resign",
    "move_submit",
    "offline_match_import",
    "player_leave_play",
    "quickmatch_cancel",
    "quickmatch_enqueue",
    "seat_connect",
    "seat_disconnect",
    "seat_socket_renew",
    "seat_sockets_expire",
    "seat_sockets_renew",
]
