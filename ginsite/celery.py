"""The one Celery app of the site; configuration comes from Django settings (CELERY_*).

Also how its processes hold their database connection. Celery's Django fix-up closes
it before and after every task, so each computer move and each one-second clock tick
opened a new PostgreSQL backend. ``CELERY_DB_REUSE_MAX`` (settings) turns that off, and
the worker closes a connection around a task the way Django does around a request:
when it is broken or older than ``CONN_MAX_AGE``. The worker's and beat's connections
are named in ``pg_stat_activity`` (``gin-worker``, ``gin-beat``).

``CELERY_DB_REUSE_MAX`` is an undocumented setting of Celery's Django fix-up
(``celery.fixups.django.DjangoWorkerFixup.db_reuse_max``: it closes the connection
only every that many tasks); tests/test_internals.py fails on an upgrade where the
fix-up no longer reads it (Celery is pinned exactly in pyproject.toml).
"""

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")

app = Celery("ginsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def name_database_connections(name: str) -> None:
    """Name this process's PostgreSQL connections in ``pg_stat_activity``."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" in database["ENGINE"]:
        database.setdefault("OPTIONS", {})["application_name"] = name


@signals.worker_init.connect
def _name_worker(**kwargs: Any) -> None:
    name_database_connections("gin-worker")


@signals.beat_init.connect
def _name_beat(**kwargs: Any) -> None:
    name_database_connections("gin-beat")


@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(sender: Any = None, **kwargs: Any) -> None:
    if not getattr(sender.request, "is_eager", False):  # eager: inside the caller's work
        from django.db import close_old_connections

        close_old_connections()
