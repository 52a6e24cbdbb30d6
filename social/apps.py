from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends and notifications"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from games import events

        from . import hooks

        events.subscribe(events.ChallengeOffered, hooks.on_challenge_offered, events.AFTER_COMMIT)
        events.subscribe(events.PlayerModerated, hooks.on_player_moderated, events.AFTER_COMMIT)
        events.subscribe(events.FairPlayDecided, hooks.on_fair_play_decided, events.AFTER_COMMIT)
        events.subscribe(events.MatchStarted, hooks.on_match_started, events.AFTER_COMMIT)
        events.subscribe(events.MovePlayed, hooks.on_move_played, events.AFTER_COMMIT)
