"""``python manage.py wire_schemas``: write the JSON Schemas of docs/schemas/ and the
browser's typedefs (games/static/games/wire.js) from games/wire.py's models;
``--check`` only says which are out of date (exit status 1)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import wire_files


class Command(BaseCommand):
    help = "Write the wire's JSON Schemas and JSDoc typedefs generated from games/wire.py."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="write nothing; fail if a file is out of date"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            stale = wire_files.stale()
            if stale:
                raise CommandError(
                    f"out of date: {', '.join(stale)}; run `{wire_files.COMMAND}`"
                )
            self.stdout.write("The wire's generated files are up to date.")
            return
        changed = wire_files.write()
        self.stdout.write(
            "\n".join(f"wrote {path}" for path in changed) or "Nothing to write: up to date."
        )
