"""The health endpoint reports the database, Redis and the Celery broker."""

import pytest
from django.test import Client


@pytest.mark.django_db
def test_health_is_ok_when_services_answer(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_health_is_503_and_names_the_broken_service(client: Client, settings) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["redis"].startswith("error")
    assert response.json()["database"] == "ok"
