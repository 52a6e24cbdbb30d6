from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_migrate

from games import events


class FairplayConfig(AppConfig):
    name = "games.fairplay"
    label = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        # Once the models are loaded: the handlers' module imports them.
        from allauth.account.signals import user_signed_up

        from . import hooks

        events.subscribe(events.MatchFinished, hooks.on_match_finished, events.AFTER_COMMIT)
        user_logged_in.connect(hooks.on_signed_in, dispatch_uid="fairplay.session")
        user_signed_up.connect(hooks.on_signed_up, dispatch_uid="fairplay.signup")
        post_migrate.connect(hooks.moderators_may_read_cases, dispatch_uid="fairplay.perms")
