"""``manage.py rebuild_leaderboard --period week|month --date YYYY-MM-DD [--force]``:
rebuild the board of the week or month (UTC) containing that date from the match
records. An ended period is finalised; a final board is rebuilt only with --force."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import ngettext

from leaderboards.models import Board
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import BoardError, board_recompute


class Command(BaseCommand):
    help = "Rebuild the weekly or monthly leaderboard of the period containing a date."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--period", required=True, choices=[k.value for k in PeriodKind])
        parser.add_argument("--date", required=True, help="any day of the period, YYYY-MM-DD")
        parser.add_argument(
            "--force", action="store_true", help="rebuild the board even if it is final"
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            day = date.fromisoformat(str(options["date"]))
        except ValueError as error:
            raise CommandError(f"--date must be YYYY-MM-DD, got {options['date']!r}") from error
        period = period_containing(PeriodKind(str(options["period"])), day)
        final = Board.objects.filter(
            kind=period.kind.value, period_start=period.start, finalised_at__isnull=False
        ).first()
        if final is not None and not options["force"]:
            raise CommandError(
                f"The board of {period.label} is final (since {final.finalised_at:%Y-%m-%d %H:%M} "
                "UTC); pass --force to rebuild it."
            )
        try:
            board = board_recompute(
                period=period, now=timezone.now(), refinalise=bool(options["force"])
            )
        except BoardError as error:
            raise CommandError(str(error)) from error
        ranked = board.entries.filter(rank__isnull=False).count()
        state = "final" if board.is_final else "open"
        players = ngettext("%(n)d player", "%(n)d players", board.entries.count()) % {
            "n": board.entries.count()
        }
        self.stdout.write(f"{period.label}: {ranked} ranked of {players} ({state}).")
