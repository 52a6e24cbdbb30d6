"""Leaderboard pages."""

app_name = "leaderboards"
urlpatterns: list = []
