"""The games app's management commands."""
