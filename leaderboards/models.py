"""Leaderboard and rating models."""
