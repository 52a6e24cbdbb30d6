"""The suite runs on the real services: PostgreSQL and the Redis channel layer and broker.

The README's test command points DATABASE_URL and REDIS_URL at them; CI (.ci/run)
never falls back to SQLite or the in-memory layer, and these tests prove it.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_channel_layer_is_redis_and_delivers() -> None:
    layer = get_channel_layer()
    assert type(layer).__name__ == "ReconnectingRedisPubSubChannelLayer"

    async def roundtrip() -> dict:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "probe", "n": 7})
        return await layer.receive(channel)

    assert async_to_sync(roundtrip)() == {"type": "probe", "n": 7}


def test_redis_replies_are_parsed_by_hiredis() -> None:
    # Every relayed move is a pub/sub message parsed by the Redis client: in C with
    # hiredis (installed with redis[hiredis]), in Python without it.
    from redis.utils import HIREDIS_AVAILABLE

    assert HIREDIS_AVAILABLE


def test_celery_broker_is_redis_and_not_eager() -> None:
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


def test_engine_imports_without_django() -> None:
    code = "import sys, games.engine; assert 'django' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _channel_layer_config_of_worker(worker: str) -> dict:
    """The channel layer settings that tests/settings.py gives xdist worker ``worker``."""
    import json
    import os

    code = ("import json; from django.conf import settings; "
            "print(json.dumps(settings.CHANNEL_LAYERS['default']))")
    env = {**os.environ, "PYTEST_XDIST_WORKER": worker, "DJANGO_SETTINGS_MODULE": "tests.settings",
           "REDIS_URL": settings.REDIS_URL.rsplit("/", 1)[0] + "/0"}
    env.pop("CHANNEL_PREFIX", None)  # as .ci/run starts the suite
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def test_parallel_test_workers_channel_layers_never_hear_each_other() -> None:
    # Redis's pub/sub ignores the database number: two workers whose layers differ only
    # in REDIS_URL's database would deliver each other's moves and challenges (match
    # and user ids repeat across the workers' databases).
    from ginsite.channel_layer import ReconnectingRedisPubSubChannelLayer as Layer

    first, second = (_channel_layer_config_of_worker(w) for w in ("gw0", "gw1"))
    assert first["BACKEND"] == second["BACKEND"] == (
        "ginsite.channel_layer.ReconnectingRedisPubSubChannelLayer"
    )

    async def first_heard_by_second() -> dict:
        a = Layer(**first["CONFIG"])
        b = Layer(**second["CONFIG"])
        try:
            channel = await b.new_channel()
            await b.group_add("match-1", channel)
            await a.group_send("match-1", {"type": "probe", "from": "gw0"})
            await b.group_send("match-1", {"type": "probe", "from": "gw1"})
            # Redis delivers in the order it ran the two PUBLISHes: a crossed message
            # would arrive first.
            return await b.receive(channel)
        finally:
            await a.flush()
            await b.flush()

    assert async_to_sync(first_heard_by_second)() == {"type": "probe", "from": "gw1"}


@pytest.mark.django_db(transaction=True)
def test_content_types_keep_their_ids_through_a_tests_flush() -> None:
    """A live server or worker caches content types by id for the whole session (the
    admin's log of a change names one); the flush that ends each transactional test
    empties the table and makes them again, and they must come back with the same ids,
    or the next admin save on that server fails on a foreign key (it did, as a 500 after
    "Save" that left the page waiting)."""
    from django.contrib.contenttypes.models import ContentType
    from django.core.management import call_command

    def ids() -> dict[tuple[str, str], int]:
        return {(ct.app_label, ct.model): ct.pk for ct in ContentType.objects.all()}

    before = ids()
    assert before
    # As TransactionTestCase's teardown flushes.
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
    assert ids() == before
