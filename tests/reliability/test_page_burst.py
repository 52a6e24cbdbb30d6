"""A burst of page loads against two production-like ASGI processes (daphne, DEBUG off,
PostgreSQL): every load is answered (a page, or at worst the site's 503 with
Retry-After; never a 500), and the processes together never hold more PostgreSQL
connections than their pools allow (``DATABASE_POOL_SIZE`` each, docs/operations.md).

Before the pool, every thread that served a sync view kept a connection of its own
(``CONN_MAX_AGE``): 40 concurrent clients made the two processes hold dozens, and the
site answered 500 ("sorry, too many clients already") once PostgreSQL's
``max_connections`` was reached.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.api.streams import StreamReader
from tests.factories import create_api_token, create_users
from tests.workers import ROOT, AsgiServer, process_env, started

pytestmark = pytest.mark.django_db(transaction=True)

POOL_SIZE = 4  # connections per process
PROCESSES = 2
CLIENTS = 40
ROUNDS = 2
# The six common pages: home, boards, rating, tournaments, Watch, sign-in.
PAGES = [
    "/",
    "/leaderboards/",
    "/leaderboards/rating/",
    "/tournaments/",
    "/watch/",
    "/accounts/login/",
]
APP_NAME = f"gin-burst-{os.getpid()}"  # names the servers' connections (libpq's PGAPPNAME)
# Only so that a hung server cannot hang the suite; no assertion depends on time.
REQUEST_TIMEOUT = 300


def production_env(static_root: Path) -> dict[str, str]:
    return {
        "DEBUG": "0",
        "SECRET_KEY": "burst-test-only-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_ROOT": str(static_root),
        "DATABASE_POOL_SIZE": str(POOL_SIZE),
        "PGAPPNAME": APP_NAME,
        "REQUEST_LOG_LEVEL": "WARNING",
    }


class ProductionAsgiServer(AsgiServer):
    """A daphne process of the test database with DEBUG off, as in production."""

    def __init__(self, overrides: dict[str, str]) -> None:
        self.env_overrides = overrides
        super().__init__()


@pytest.fixture(scope="module")
def production_pair(django_db_setup: None) -> Iterator[list[ProductionAsgiServer]]:
    with tempfile.TemporaryDirectory(prefix="burst-static-") as static_root:
        overrides = production_env(Path(static_root))
        # DEBUG off serves the static files collectstatic wrote (WhiteNoise's manifest).
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env={**process_env(), **overrides},
            check=True,
        )
        with started([ProductionAsgiServer(overrides) for _ in range(PROCESSES)]) as servers:
            yield servers


def load(url: str) -> tuple[int, str, str]:
    """The status, the Retry-After header and the body of one page load."""
    try:
        with urllib.request.urlopen(url, timeout=REQUEST_TIMEOUT) as response:
            return (
                response.status,
                response.headers.get("Retry-After", ""),
                response.read().decode(),
            )
    except urllib.error.HTTPError as error:
        return (
            error.code,
            error.headers.get("Retry-After", ""),
            error.read().decode(errors="replace"),
        )


class ConnectionCounter:
    """Counts, until stopped, the test database's connections opened by the servers
    (their ``application_name``), and keeps the highest count seen."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.highest = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def count(self, db: psycopg.Connection) -> int:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [APP_NAME],
        ).fetchone()
        return int(row[0]) if row else 0

    def run(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as db:
            while not self.stop.is_set():
                self.highest = max(self.highest, self.count(db))
                self.stop.wait(0.02)
            self.highest = max(self.highest, self.count(db))


def test_a_burst_of_page_loads_gets_pages_and_bounded_connections(
    production_pair: list[ProductionAsgiServer],
) -> None:
    s = connection.settings_dict
    counter = ConnectionCounter(
        f"host={s['HOST'] or '127.0.0.1'} port={s['PORT'] or 5432} "
        f"user={s['USER']} dbname={s['NAME']}"
    )
    start = threading.Barrier(CLIENTS)

    def client(index: int) -> list[tuple[str, int, str, str]]:
        base = production_pair[index % PROCESSES].url
        start.wait()  # every client starts at once
        results = []
        for round_ in range(ROUNDS):
            for k in range(len(PAGES)):
                page = PAGES[(index + round_ + k) % len(PAGES)]
                results.append((page, *load(base + page)))
        return results

    counter.thread.start()
    try:
        with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
            results = [r for done in pool.map(client, range(CLIENTS)) for r in done]
    finally:
        counter.stop.set()
        counter.thread.join()

    assert len(results) == CLIENTS * ROUNDS * len(PAGES)
    errors = [(page, status) for page, status, _, _ in results if status >= 500 and status != 503]
    assert not errors, (
        f"{len(errors)} of {len(results)} loads answered a server error: {errors[:10]}\n"
        + "\n".join(server.log() for server in production_pair)
    )
    unexpected = [(page, status) for page, status, _, _ in results if status not in (200, 503)]
    assert not unexpected, unexpected
    for page in PAGES:
        assert any(p == page and status == 200 for p, status, _, _ in results), (
            f"{page} never answered"
        )
    for _, status, retry_after, body in results:
        if status == 503:  # overload: the site's own page, with when to come back
            assert retry_after.isdigit(), retry_after
            assert "busy" in body, body[:500]
    assert counter.highest > 0, "no connection of the servers was seen"
    assert counter.highest <= PROCESSES * POOL_SIZE, (
        f"the {PROCESSES} processes held {counter.highest} PostgreSQL connections at once;"
        f" their pools allow {PROCESSES * POOL_SIZE}"
    )


def test_open_bot_streams_leave_the_pool_to_the_pages(
    production_pair: list[ProductionAsgiServer],
) -> None:
    """A bot's NDJSON stream stays open for hours: it holds no connection meanwhile,
    or a few bots would take a process's whole pool and every page would wait."""
    server = production_pair[0]
    tokens = [
        create_api_token(user, "burst")[0] for user in create_users(POOL_SIZE + 2, "streamer")
    ]
    streams: list[StreamReader] = []
    try:
        # Opened together: each answers with its first line (a keep-alive, after
        # API_KEEPALIVE_SECONDS, for an account with nothing going on).
        with ThreadPoolExecutor(max_workers=len(tokens)) as pool:
            opening = [
                pool.submit(StreamReader, server.url, "/api/stream/event", raw) for raw in tokens
            ]
            for future in opening:
                streams.append(future.result())
        assert [stream.status for stream in streams] == [200] * len(streams)
        for page in PAGES:
            status, _, body = load(server.url + page)
            assert status == 200, (page, status, body[:300])
    finally:
        for stream in streams:
            stream.close()
