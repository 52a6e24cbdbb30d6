"""What the leaderboards do when the games app publishes a finished match
(games/events.py ``MatchFinished``; subscribed in leaderboards/apps.py)."""

from functools import partial

from django.db import transaction

from games.events import MatchFinished
from games.models import Match
from leaderboards.tasks import apply_correspondence_rating, apply_match_rating


def on_match_finished(event: MatchFinished) -> None:
    """In the finishing transaction (subscribed ``in_transaction``): ``match_finished``
    of the match it holds."""
    match_finished(event.match)


def match_finished(match: Match) -> None:
    """Called inside the transaction that finishes ``match``: a rated match gets its
    rating update enqueued once that transaction commits (never if it rolls back).
    Boards pick the match up on their next scheduled refresh. An aborted match
    (ended before each player made two moves) is never rated."""
    if match.rated and not match.aborted:
        transaction.on_commit(partial(apply_match_rating.delay, match.pk))
    if match.days_per_move and not match.aborted:
        # A correspondence match: its own rating (CorrespondenceRating), never live play's.
        transaction.on_commit(partial(apply_correspondence_rating.delay, match.pk))
