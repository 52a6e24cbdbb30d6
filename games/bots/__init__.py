"""Computer players: pure functions of a player view and a random generator."""
