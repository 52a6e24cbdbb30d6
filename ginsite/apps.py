"""The site's own application: what every request, socket and task shares."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created


class GinsiteConfig(AppConfig):
    name = "ginsite"

    def ready(self) -> None:
        connection_created.connect(_connection_created, dispatch_uid="ginsite.timestamps")


def _connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    from ginsite import timestamps

    timestamps.register(connection)
