"""What the games app tells the leaderboards app when a match finishes."""

from functools import partial

from django.db import transaction

from games.models import Match
from leaderboards.tasks import apply_match_rating


def match_finished(match: Match) -> None:
    """Called inside the transaction that finishes ``match``: a rated match gets its
    rating update enqueued once that transaction commits (never if it rolls back).
    Boards pick the match up on their next scheduled refresh. An aborted match
    (ended before each player made two moves) is never rated."""
    if match.rated and not match.aborted:
        transaction.on_commit(partial(apply_match_rating.delay, match.pk))
