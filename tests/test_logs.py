"""Structured logs: one JSON line per request, with the fields operators filter on."""

import json
import logging

import pytest
from django.test import Client

from ginsite.logs import JsonFormatter


@pytest.mark.django_db
def test_each_request_is_logged_as_one_json_line(client: Client, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="ginsite.request"):
        client.get("/healthz")
    records = [r for r in caplog.records if r.name == "ginsite.request"]
    assert len(records) == 1
    line = JsonFormatter().format(records[0])
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["method"] == "GET"
    assert entry["path"] == "/healthz"
    assert entry["status"] == 200
    assert entry["duration_ms"] >= 0
    assert entry["user_id"] is None
