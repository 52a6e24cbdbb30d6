"""The quick-match queue: registered players asking for an opponent now.

Two players whose settings are equal (variant and every rule) are paired at
once into a rated match, unless either blocked the other; a player alone waits
in the queue. Entries older than
QUICKMATCH_WAIT are dropped, so nobody is paired with a player long gone.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.utils import timezone

from games.chat.selectors import block_partner_ids
from games.engine import RuleSet
from games.models import Match, QuickMatchEntry

from . import fairplay
from .matches import create_started_match, require_registered, rules_for

if TYPE_CHECKING:
    from accounts.models import User

QUICKMATCH_WAIT = timedelta(minutes=10)
# Key of the PostgreSQL advisory lock that makes pairing one-at-a-time.
_QUEUE_LOCK_KEY = 0x6769_6E51  # "ginQ"


def rules_key(*, variant: str, rules: RuleSet) -> str:
    """Digest of the settings two players must share to be paired."""
    text = json.dumps({"variant": variant, "rules": rules.to_dict()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def quickmatch_enqueue(
    *, user: User, rules: RuleSet | Mapping[str, Any] | None = None, variant: str = "default"
) -> Match | None:
    """Pair ``user`` with the longest-waiting compatible player and return the new,
    started match; or put them in the queue (replacing an earlier entry of
    theirs) and return None."""
    require_registered(user)
    now = timezone.now()
    fairplay.require_rated_play_allowed(user, now)
    ruleset = rules_for(variant=variant, rules=rules)
    key = rules_key(variant=variant, rules=ruleset)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_QUEUE_LOCK_KEY])
        QuickMatchEntry.objects.filter(user=user).delete()
        QuickMatchEntry.objects.filter(
            match__isnull=True, created_at__lt=now - QUICKMATCH_WAIT
        ).delete()
        other = (
            QuickMatchEntry.objects.filter(
                match__isnull=True, rules_key=key, variant=variant, user__is_active=True
            )
            .exclude(user_id__in=block_partner_ids(user=user))
            # A player banned from rated play since they queued waits it out.
            .exclude(user_id__in=fairplay.banned_user_ids(now=now))
            .select_related("user")
            .order_by("created_at")
            .first()
        )
        if other is None:
            QuickMatchEntry.objects.create(
                user=user, variant=variant, rules=ruleset.to_dict(), rules_key=key
            )
            return None
        players = [other.user, user] if secrets.randbelow(2) else [user, other.user]
        match = create_started_match(
            kind=Match.Kind.QUICK, variant=variant, rules=ruleset, rated=True, players=players
        )
        other.match = match
        other.save(update_fields=["match"])
    return match


def quickmatch_cancel(*, user: User) -> bool:
    """Leave the queue; True if the user was waiting."""
    if not getattr(user, "is_authenticated", False):
        return False
    deleted, _ = QuickMatchEntry.objects.filter(user=user, match__isnull=True).delete()
    return deleted > 0
