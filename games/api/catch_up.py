"""What an account's event stream has told it, and the events it missed.

After a restart of the channel layer's Redis, whatever was published while Redis was
down reached nobody (ginsite/channel_layer.py). The event stream (games/api/streams.py)
then asks ``Told.missed`` for the events the database says it should have sent: a
challenge offered or withdrawn, a challenge of the account's declined, a match started
or finished. ``Told`` remembers what the stream sent, so that nothing is told twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games import selectors

from . import events
from . import selectors as api_selectors
from .models import Challenge


@dataclass
class Told:
    """What one event stream has sent its account so far."""

    matches: set[int] = field(default_factory=set)
    """Matches announced by ``matchStart`` and not yet by ``matchFinish``."""
    challenges: set[int] = field(default_factory=set)
    """Challenges to the account announced and not withdrawn since."""
    outgoing: set[int] = field(default_factory=set)
    """The account's own challenges open at the last look (``looked``)."""
    declined: set[int] = field(default_factory=set)
    """The account's own challenges whose ``challengeDeclined`` was sent."""
    looked: datetime = field(default_factory=timezone.now)

    def sent(self, event: dict[str, Any]) -> bool:
        """Record ``event`` as sent; False if it was sent before (then skip it)."""
        kind = event["type"]
        if kind == "matchStart":
            new = event["match"]["id"] not in self.matches
            self.matches.add(event["match"]["id"])
            return new
        if kind == "challenge":
            new = event["challenge"]["id"] not in self.challenges
            self.challenges.add(event["challenge"]["id"])
            return new
        if kind == "matchFinish":
            self.matches.discard(event["match"]["id"])
        elif kind == "challengeCanceled":
            self.challenges.discard(event["challenge"]["id"])
        elif kind == "challengeDeclined":
            self.declined.add(event["challenge"]["id"])
        return True

    def opening(self, user: Any) -> list[dict[str, Any]]:
        """The stream's first lines: every match in play and every open challenge."""
        self._look(user, timezone.now())
        return [
            *(_match("matchStart", pk) for pk in selectors.active_match_ids(user=user)),
            *(_offered(c) for c in api_selectors.challenges_to(user=user)),
        ]

    def missed(self, user: Any) -> list[dict[str, Any]]:
        """The events that the database says happened and the stream has not sent."""
        now = timezone.now()
        active = selectors.active_match_ids(user=user)
        offered = api_selectors.challenges_to(user=user)
        open_ids = {c.pk for c in offered}
        withdrawn = Challenge.objects.filter(
            pk__in=self.challenges - open_ids, status=Challenge.Status.CANCELED
        ).values_list("pk", flat=True)
        declined = (
            Challenge.objects.filter(challenger=user, status=Challenge.Status.DECLINED)
            .filter(Q(pk__in=self.outgoing) | Q(created_at__gte=self.looked))
            .exclude(pk__in=self.declined)
            .values_list("pk", flat=True)
        )
        missed: list[dict[str, Any]] = [
            *({"type": "challengeCanceled", "challenge": {"id": pk}} for pk in withdrawn),
            *({"type": "challengeDeclined", "challenge": {"id": pk}} for pk in declined),
            *(_offered(c) for c in offered if c.pk not in self.challenges),
            *(_match("matchFinish", pk) for pk in sorted(self.matches - set(active))),
            *(_match("matchStart", pk) for pk in active if pk not in self.matches),
        ]
        self._look(user, now)
        return missed

    def _look(self, user: Any, now: datetime) -> None:
        self.looked = now
        self.outgoing = set(
            api_selectors.open_challenges().filter(challenger=user).values_list("pk", flat=True)
        )


def _match(kind: str, match_id: int) -> dict[str, Any]:
    return {"type": kind, "match": {"id": match_id}}


def _offered(challenge: Challenge) -> dict[str, Any]:
    return {"type": "challenge", "challenge": events.challenge_json(challenge)}
