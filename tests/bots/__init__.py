"""Tests of the computer players (games.bots) and the bot arena."""
