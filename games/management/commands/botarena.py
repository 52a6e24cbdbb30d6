"""``python manage.py botarena``: the bot arena of ``games/bots/arena.py``, same options as
``python -m bench.botarena``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bots import arena


class Command(BaseCommand):
    help = "Play seat-swapped matches between two computer levels and print the figures."

    def add_arguments(self, parser: CommandParser) -> None:
        arena.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self.stdout.write(arena.execute(options))
        except ValueError as error:
            raise CommandError(str(error)) from error
