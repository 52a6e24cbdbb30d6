"""``python manage.py api_token USERNAME [--name NAME]``: print a new API token for
the account, alone on one line of standard output (for scripts)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.api.tokens import TokenError, api_token_create


class Command(BaseCommand):
    help = "Create a personal API token for USERNAME and print it (shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="a name to tell it apart")

    def handle(self, *args: Any, username: str, name: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account named {username!r}.")
        try:
            _token, raw = api_token_create(user=user, name=name)
        except TokenError as error:
            raise CommandError(error.message) from error
        self.stdout.write(raw)
