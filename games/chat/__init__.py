"""Chat: table and lobby messages, reports, the word filter, and user blocks."""
