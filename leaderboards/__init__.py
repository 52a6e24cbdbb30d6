"""Leaderboards: weekly and monthly boards, Glicko-2 ratings, computed by Celery."""
