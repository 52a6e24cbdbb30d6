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
    assert type(layer).__name__ == "RedisPubSubChannelLayer"

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
