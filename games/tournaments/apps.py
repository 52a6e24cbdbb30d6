from django.apps import AppConfig

from games import events, pages
from games.chat import rooms


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from . import hooks

        events.subscribe(events.MatchFinished, hooks.on_match_finished, events.IN_TRANSACTION)
        rooms.register("tournament", may_read=hooks.chat_may_read, may_write=hooks.chat_may_write)
        pages.add_table_part("tournament", hooks.table_tournament)
