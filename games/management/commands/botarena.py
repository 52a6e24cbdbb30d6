"""``python manage.py botarena``: the bot arena of ``bench/botarena.py``, same options."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench import botarena


class Command(BaseCommand):
    help = "Play seat-swapped matches between two computer levels and print the figures."

    def add_arguments(self, parser: CommandParser) -> None:
        botarena.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            self.stdout.write(botarena.execute(options))
        except ValueError as error:
            raise CommandError(str(error)) from error
