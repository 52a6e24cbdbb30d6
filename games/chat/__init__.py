"""Chat: table, tournament and lobby messages, reports, the word filter, and user blocks."""
