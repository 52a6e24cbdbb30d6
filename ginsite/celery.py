"""The one Celery app of the site; configuration comes from Django settings (CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")

app = Celery("ginsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
