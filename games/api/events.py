"""The account events of ``GET /api/stream/event``: who is told what, through the
channel layer, always after the transaction commits.

Group ``api-events-<user id>``: the event streams an account has open. Events are
``{"type": "api.event", "event": {...}}`` where ``event`` is the NDJSON line itself:
``challenge``, ``challengeDeclined``, ``challengeCanceled``, ``matchStart``,
``matchFinish`` (docs/bot-api.md). The match events come from the games app's
``MatchStarted``, ``MatchesStarted`` and ``MatchFinished`` (games/events.py), which
the ``on_...`` handlers below hear after commit (subscribed in games/api/apps.py); the
challenge events are this app's own (games/api/services.py calls them).

Group ``api-token-<token id>``: every stream open with that token; ``token_revoked``
ends them all (the ``user.logout`` message a ban sends to the account's streams).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import broadcast
from games.chat import broadcast as chat_broadcast
from games.events import MatchesStarted, MatchFinished, MatchStarted


def events_group(user_id: int) -> str:
    return f"api-events-{user_id}"


def token_group(token_id: int) -> str:
    """Group ``api-token-<token id>``: the streams open with that token."""
    return f"api-token-{token_id}"


def token_revoked(token_id: int) -> None:
    """End every stream open with the token (after commit), as a ban ends an account's:
    the same ``user.logout`` message, with the code the match stream answers."""
    message = {
        "type": "user.logout",
        "code": "token_revoked",
        "reason": "This API token has been revoked.",
    }
    transaction.on_commit(
        lambda: broadcast.group_send([(token_group(token_id), message)]), robust=True
    )


def send_on_commit(user_ids: list[int], event: dict[str, Any]) -> None:
    _send_all_on_commit([(user_ids, event)])


def _send_all_on_commit(events: list[tuple[list[int], dict[str, Any]]]) -> None:
    """After commit, each ``(user ids, event)``, all in one trip to the process's
    publishing loop (games.broadcast.group_send, which keeps a bounded number of sends
    in flight: a round of a tournament starts hundreds of matches, and sends all in
    flight at once took more Redis connections than the layer's pool has)."""
    sends = [
        (events_group(user_id), {"type": "api.event", "event": event})
        for user_ids, event in events
        for user_id in user_ids
    ]
    if sends:
        transaction.on_commit(lambda: broadcast.group_send(sends), robust=True)


def challenge_json(challenge: Any) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "from": challenge.challenger.username,
        "variant": challenge.variant,
        "target": challenge.rules["target_score"],
        "rated": challenge.rated,
        "days": challenge.days_per_move,
    }


def lobby_challenge_json(challenge: Any) -> dict[str, Any]:
    """A challenge as a person's lobby lists it (templates/api/_incoming_challenges.html):
    the stream's fields but the days per move (the lobby's frame, games/wire.py, has
    none: the challenge's page says them), the challenger by display name."""
    offer = {**challenge_json(challenge), "from": challenge.challenger.display_name}
    offer.pop("days")
    return offer


def challenge_offered(challenge: Any) -> None:
    """After commit: the challenged account's event streams get ``challenge``, and a
    person's open lobby lists it (games/chat/broadcast.py, the lobby socket)."""
    send_on_commit(
        [challenge.dest_id], {"type": "challenge", "challenge": challenge_json(challenge)}
    )
    if not challenge.dest.is_bot:
        chat_broadcast.lobby_challenge(
            user_id=challenge.dest_id, challenge=lobby_challenge_json(challenge)
        )


def challenge_closed(challenge: Any) -> None:
    """After commit: a person's open lobby drops a challenge that was answered or
    withdrawn."""
    if not challenge.dest.is_bot:
        chat_broadcast.lobby_challenge_closed(user_id=challenge.dest_id, challenge_id=challenge.pk)


def _players(user_ids: tuple[int | None, ...]) -> list[int]:
    return [user_id for user_id in user_ids if user_id is not None]


def on_match_started(event: MatchStarted) -> None:
    """After commit: tell the players' event streams that the match started."""
    started = {"type": "matchStart", "match": {"id": event.match_id}}
    send_on_commit(_players(event.user_ids), started)


def on_matches_started(event: MatchesStarted) -> None:
    """After commit: ``matchStart`` of every match of the event, in one trip."""
    matches_started({m.match_id: _players(m.user_ids) for m in event.matches})


def matches_started(players: dict[int, list[int]]) -> None:
    """``matchStart`` of many new matches (match id -> its players' user ids), sent
    after commit (at once outside a transaction) in one trip."""
    _send_all_on_commit(
        [
            (user_ids, {"type": "matchStart", "match": {"id": match_id}})
            for match_id, user_ids in players.items()
        ]
    )


def on_match_finished(event: MatchFinished) -> None:
    """After commit: tell the players' event streams that the match is over."""
    finished = {"type": "matchFinish", "match": {"id": event.match_id}}
    send_on_commit(_players(event.user_ids), finished)
