"""Accounts: the custom User (registered players and guests), profiles, moderation state."""
