from django.apps import AppConfig

from games import events


class ApiConfig(AppConfig):
    name = "games.api"
    label = "api"
    verbose_name = "Bot API and export"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from . import events as api_events

        events.subscribe(events.MatchStarted, api_events.on_match_started, events.AFTER_COMMIT)
        events.subscribe(
            events.MatchesStarted, api_events.on_matches_started, events.AFTER_COMMIT
        )
        events.subscribe(events.MatchFinished, api_events.on_match_finished, events.AFTER_COMMIT)
