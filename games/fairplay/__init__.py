"""Fair play: collusion, farming and assistance detection over rated play, and the
moderators' queue of cases (games/fairplay/services.py; docs/operations.md, "Fair play")."""
