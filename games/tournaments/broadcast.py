"""The only tournaments module that sends to channel-layer groups, after commit.

Groups (games/tournaments/consumers.py joins them; docs/protocol.md, "Tournament socket"):
- ``tournament-<id>``: every socket of the tournament page; the ``standings``
  message (ranks, points, streaks, live matches: nothing about anyone's cards).
- ``tournament-<id>-user-<user id>``: one player's sockets there; ``match_ready``.

Each message is serialised once, here (the standings of each version once for
every reader: games/tournaments/selectors.py): the event carries its JSON text
(``{"type": "tournament.message", "text": ...}``) and every socket sends that text
as it is (a standings message of 100 rows is ~10 KB; 500 sockets would otherwise
serialise it 500 times, and the channel layer pack it 500 times).

Standings are published after the commit of each change (a result, a pairing, a
join); several changes committed before one publish is claimed go out as one
message: exactly one process publishes each version (a conditional UPDATE claims
it), and beat's tick (``publish_pending``) sends a version whose publish was lost
(a process killed between commit and send).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import broadcast as games_broadcast


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def user_group(tournament_id: int, user_id: int) -> str:
    return f"tournament-{tournament_id}-user-{user_id}"


def event(message: dict[str, Any]) -> dict[str, str]:
    """The channel-layer event of a socket message, serialised once."""
    return text_event(json.dumps(message))


def text_event(text: str) -> dict[str, str]:
    """The channel-layer event of a socket message already serialised."""
    return {"type": "tournament.message", "text": text}


def standings_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: publish(tournament_id), robust=True)


def publish(tournament_id: int, *, now: datetime | None = None) -> bool:
    """Send the current standings if this version was not sent yet."""
    from . import selectors
    from .models import Tournament

    now = now or timezone.now()
    claim = Tournament.objects.filter(pk=tournament_id,
                                      published_version__lt=F("standings_version"))
    if not claim.update(published_version=F("standings_version"), published_at=now):
        return False
    tournament = Tournament.objects.get(pk=tournament_id)
    text = selectors.standings_text(tournament)  # ranked once per version
    games_broadcast.group_send([(group(tournament_id), text_event(text))])
    return True


def publish_pending(*, now: datetime | None = None) -> int:
    """Publish every tournament whose standings changed since they were last sent."""
    from .models import Tournament

    pending = Tournament.objects.filter(published_version__lt=F("standings_version"))
    return sum(publish(pk, now=now)
               for pk in list(pending.values_list("pk", flat=True)))


def match_ready(match_id: int) -> dict[str, Any]:
    """The ``match_ready`` message of a player's match (docs/protocol.md)."""
    return {"type": "match_ready", "match_id": match_id, "url": f"/match/{match_id}/"}


def matches_ready_on_commit(tournament_id: int, ready: list[tuple[list[int], int]]) -> None:
    """Tell the players of each new match (``(user ids, match id)``) that it is ready
    (the page plays a sound and takes them to the table), all in one trip after commit."""
    sends = [
        (user_group(tournament_id, uid), event(match_ready(match_id)))
        for user_ids, match_id in ready for uid in user_ids
    ]
    transaction.on_commit(lambda: games_broadcast.group_send(sends), robust=True)
