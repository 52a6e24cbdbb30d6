"""The only chat module that sends channel-layer events; every send happens after the
surrounding transaction commits, so sockets never see a rolled-back write.

Groups: ``chat.lobby`` (lobby readers), ``chat.match.<id>`` (a table's readers),
``chat.tournament.<id>`` (a tournament's readers) and ``user.<id>`` (every socket of
one user: match, lobby and tournament chat consumers join it on connect).
Event types and the consumer method that handles each (see games/chat/sockets.py):
``chat.message``, ``chat.hidden``, ``chat.notice``, ``chat.blocks``, ``user.logout``,
and ``chat.challenge`` / ``chat.challenge_closed`` (a challenge to the user opened or
closed: the lobby socket shows it under "Challenges to you", the others ignore it).
"""

from django.db import transaction

from ginsite import runtime

LOBBY_GROUP = "chat.lobby"


def room_group(match_id: int | None, tournament_id: int | None = None) -> str:
    if match_id is not None:
        return f"chat.match.{match_id}"
    return LOBBY_GROUP if tournament_id is None else f"chat.tournament.{tournament_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def _send_on_commit(group: str, event: dict) -> None:
    # Through the site's one publisher (ginsite/runtime.py), as match events are: from
    # any thread, in either mode.
    transaction.on_commit(lambda: runtime.publisher().send([(group, event)]), robust=True)


def chat_message_sent(
    *, match_id: int | None, author_id: int, message: dict, tournament_id: int | None = None
) -> None:
    _send_on_commit(
        room_group(match_id, tournament_id),
        {"type": "chat.message", "author_id": author_id, "message": message},
    )


def chat_message_hidden(
    *, match_id: int | None, message_id: int, tournament_id: int | None = None
) -> None:
    _send_on_commit(
        room_group(match_id, tournament_id), {"type": "chat.hidden", "id": message_id}
    )


def user_notice(*, user_id: int, code: str, text: str) -> None:
    """A moderation notice (warning, mute) shown in every chat panel the user has open."""
    _send_on_commit(user_group(user_id), {"type": "chat.notice", "code": code, "text": text})


def user_blocks_changed(*, user_id: int, blocked_ids: list[int]) -> None:
    _send_on_commit(user_group(user_id), {"type": "chat.blocks", "blocked_ids": blocked_ids})


def user_logout(*, user_id: int, reason: str) -> None:
    """Close every open socket of the user (ban, account deletion)."""
    _send_on_commit(user_group(user_id), {"type": "user.logout", "reason": reason})


def lobby_challenge(*, user_id: int, challenge: dict) -> None:
    """A challenge to ``user_id`` (from a bot, or anyone on the API): their open lobby
    lists it at once (``challenge``: games/api/events.py ``lobby_challenge_json``)."""
    _send_on_commit(user_group(user_id), {"type": "chat.challenge", "challenge": challenge})


def lobby_challenge_closed(*, user_id: int, challenge_id: int) -> None:
    """A challenge to ``user_id`` was accepted, declined or withdrawn: their open lobby
    drops it."""
    _send_on_commit(user_group(user_id), {"type": "chat.challenge_closed", "id": challenge_id})
