from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_moderators_group(app_config: AppConfig, **kwargs: object) -> None:
    # The group's permissions belong to these two apps (chat migrates after accounts).
    if app_config.label in {"accounts", "chat"}:
        from .services import moderators_group_ensure

        moderators_group_ensure()


class AccountsConfig(AppConfig):
    name = "accounts"
    # allauth's own app (e-mail addresses) is "Accounts" in the admin already.
    verbose_name = "Players and moderation"

    def ready(self) -> None:
        # Permissions are created per app after its migrations: run after each app.
        post_migrate.connect(_ensure_moderators_group, dispatch_uid="accounts.moderators")
