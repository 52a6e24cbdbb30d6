from django.apps import AppConfig

from games import events


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from . import hooks

        events.subscribe(events.PlayerBanned, hooks.on_player_banned, events.IN_TRANSACTION)
        events.subscribe(events.AccountClosed, hooks.on_account_closed, events.IN_TRANSACTION)
