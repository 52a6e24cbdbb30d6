"""Tournaments: scheduled arenas and Swiss events, live standings, the Watch page."""
