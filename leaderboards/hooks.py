"""What the games app tells the leaderboards app when a match finishes."""

from games.models import Match


def match_finished(match: Match) -> None:
    """Called inside the transaction that finishes ``match``."""
