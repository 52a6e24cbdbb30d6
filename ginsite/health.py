"""The health endpoint: answers 200 only when the database, Redis and the Celery broker answer."""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from ginsite.celery import app as celery_app


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _check_redis() -> None:
    if not settings.REDIS_URL:
        return  # embedded default: the in-memory channel layer
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()


def _check_broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


CHECKS = {"database": _check_database, "redis": _check_redis, "broker": _check_broker}


@never_cache
def health(request: HttpRequest) -> JsonResponse:
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as exc:  # any failure makes the site unhealthy; say which
            results[name] = f"error: {type(exc).__name__}"
        else:
            results[name] = "ok"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse({"status": "ok" if healthy else "error", **results},
                        status=200 if healthy else 503)
