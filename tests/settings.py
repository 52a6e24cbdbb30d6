"""Settings of the test suite: the site's own, with each parallel test worker on its
own Redis database.

pytest-xdist runs the suite in several worker processes (``-n`` in pyproject.toml).
pytest-django gives each its own test database (``test_ginsite_gw0``, ...); this
module does the same for Redis, so one worker's channel layer, cache and Celery
queue never meet another's: worker ``gwN`` uses database ``base + N`` of
``REDIS_URL`` (with ``-n 3`` and the default ``/0``: databases 0, 1 and 2), and channel
prefix ``asgi-gwN`` (pub/sub ignores the database number). A base too
high for that stops the run with a clear error instead of sharing a database with
another run. It rewrites the environment variable itself, before the site's
settings read it, so the daphne and Celery processes the tests start (tests/workers.py)
inherit the same database.
"""

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default number of databases


def redis_url_for_worker(url: str, worker: str) -> str:
    """``url`` moved to the Redis database of xdist worker ``worker`` ("gw3")."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + int(worker.removeprefix("gw"))
    if database >= REDIS_DATABASES:
        raise RuntimeError(
            f"REDIS_URL database {base} leaves no database for test worker {worker} "
            f"(Redis has {REDIS_DATABASES}): use a lower database, or fewer workers (-n)."
        )
    return urlunsplit(parts._replace(path=f"/{database}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"], _worker)
    os.environ.pop("CHANNEL_REDIS_URLS", None)  # follows REDIS_URL
    # Pub/sub channels belong to the whole Redis server, whatever the database: each
    # worker's channel layer gets its own prefix, or workers would hear each other's
    # groups (match and user ids repeat across the workers' databases).
    os.environ["CHANNEL_PREFIX"] = f"{os.environ.get('CHANNEL_PREFIX', 'asgi')}-{_worker}"

from ginsite.settings import *  # noqa: E402,F403

# The pytest process itself keeps a connection per thread, without the pool: its tests
# open connections from threads of their own that never return them, which a bounded
# pool would make wait. The server and worker processes the tests start read the site's
# settings (tests/workers.py), pool included; tests/test_overload.py turns the pool on
# here for its own test.
if "pool" in DATABASES["default"].get("OPTIONS", {}):  # noqa: F405
    del DATABASES["default"]["OPTIONS"]["pool"]  # noqa: F405
    DATABASES["default"]["CONN_MAX_AGE"] = 60  # noqa: F405
