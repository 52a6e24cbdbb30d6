from django.apps import AppConfig

from games import events


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from . import hooks

        events.subscribe(events.MatchFinished, hooks.on_match_finished, events.IN_TRANSACTION)
