"""Real processes for tests: a Celery worker and a daphne ASGI server.

Both run as subprocesses on the pytest test database and the suite's Redis
(``REDIS_URL``), so tests that use them must be ``django_db(transaction=True)``
(the processes only see committed rows, and writes made through ``sync_to_async``
commit for real). They are
session fixtures that start after ``django_db_setup`` and stop before the test
database is dropped.

- ``live_celery_worker``: ``celery -A ginsite worker -P solo``; the broker queue is
  purged first so tasks left by earlier tests never run.
- ``CeleryBeat``: ``celery -A ginsite beat`` with the settings' scheduler
  (django-celery-beat's ``DatabaseScheduler``: ``settings.CELERY_BEAT_SCHEDULE`` synced
  into the admin's PeriodicTask table), started by the tests that need beat (it sends
  the whole schedule to the worker while it runs).
- ``live_asgi_server``: ``daphne ginsite.asgi:application`` on a free port;
  ``.url`` (``http://127.0.0.1:PORT``), ``.ws_url``, ``.restart()`` (same port:
  clients reconnect as after a real restart).

The computer's think time in these processes is ``TEST_BOT_THINK_SECONDS``
(default 0.05 s) so tests stay fast.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def database_url_for_tests() -> str:
    """``DATABASE_URL`` of the test database pytest-django created."""
    from django.db import connection

    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or "5432"
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


#: Where the server and worker processes write the e-mails they send, a file each
#: (settings.py: EMAIL_FILE_PATH): the tests read this outbox.
OUTBOX = Path(tempfile.gettempdir()) / f"gin-test-outbox-{os.getpid()}"


def outbox() -> list[str]:
    """The e-mails the test processes sent so far, as sent (headers, body), oldest first."""
    if not OUTBOX.exists():
        return []
    files = sorted(OUTBOX.iterdir(), key=lambda f: f.stat().st_mtime)
    return [f.read_text(errors="replace") for f in files]


def process_env() -> dict[str, str]:
    """Environment of a server or worker process pointed at the test services."""
    env = dict(os.environ)
    env["EMAIL_FILE_PATH"] = str(OUTBOX)
    env["DATABASE_URL"] = database_url_for_tests()
    env["DJANGO_SETTINGS_MODULE"] = "ginsite.settings"
    env["BOT_THINK_SECONDS"] = os.environ.get("TEST_BOT_THINK_SECONDS", "0.05")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Process:
    """A subprocess with its output in a log file, stopped gently then firmly; it runs
    in the test environment with ``env_overrides`` on top."""

    env_overrides: dict[str, str] = {}

    def __init__(self, name: str, command: list[str]) -> None:
        self.name = name
        self.command = command
        handle, path = tempfile.mkstemp(prefix=f"{name}-", suffix=".log")
        os.close(handle)
        self.log_path = Path(path)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env={**process_env(), **self.env_overrides}, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )

    def remove_log(self) -> None:
        self.log_path.unlink(missing_ok=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT)
        self.process = None

    def kill(self) -> None:
        """Kill -9 (a crash, for fault tests); ``start()`` brings it back."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(STOP_TIMEOUT)
            self.process = None

    def fail(self, why: str) -> None:
        self.stop()
        raise RuntimeError(f"{self.name}: {why}\n--- log ---\n{self.log()}")


class CeleryWorker(_Process):
    def __init__(self) -> None:
        super().__init__(
            "celery-worker",
            [sys.executable, "-m", "celery", "-A", "ginsite", "worker", "-P", "solo",
             "--loglevel=WARNING", "--without-gossip", "--without-mingle",
             "--hostname", f"test-worker-{os.getpid()}@%h"],
        )

    def start(self) -> None:
        from ginsite.celery import app

        app.control.purge()
        super().start()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if not self.alive():
                self.fail("exited while starting")
            if app.control.ping(timeout=0.5):
                return
        self.fail("did not answer a ping")

    def restart(self) -> None:
        self.stop()
        self.start()


class CeleryBeat(_Process):
    def __init__(self) -> None:
        super().__init__(
            "celery-beat",
            [sys.executable, "-m", "celery", "-A", "ginsite", "beat", "--loglevel=INFO",
             "--pidfile="],
        )

    def __enter__(self) -> CeleryBeat:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self.remove_log()


class AsgiServer(_Process):
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        super().__init__(
            "daphne",
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "ginsite.asgi:application"],
        )

    def start(self) -> None:
        super().start()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if not self.alive():
                self.fail("exited while starting")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    response.read()
                return
            except urllib.error.HTTPError:
                return  # it answers: an error page is still an answer
            except OSError:
                pass
            time.sleep(0.2)
        self.fail("did not answer HTTP")

    def restart(self) -> None:
        self.stop()
        self.start()


P = TypeVar("P", bound=_Process)


@contextmanager
def started(processes: list[P]) -> Iterator[list[P]]:
    """``processes`` started in order, then stopped and their logs removed."""
    try:
        for process in processes:
            process.start()
        yield processes
    finally:
        for process in processes:
            process.stop()
            process.remove_log()


@pytest.fixture(scope="session")
def live_celery_worker(django_db_setup: None) -> Iterator[CeleryWorker]:
    """A real Celery worker on the test database and the test Redis broker."""
    with started([CeleryWorker()]) as (worker,):
        yield worker


@pytest.fixture(scope="session")
def live_asgi_server(django_db_setup: None) -> Iterator[AsgiServer]:
    """A real daphne server (HTTP and WebSockets) on the test database and Redis."""
    with started([AsgiServer()]) as (server,):
        yield server


__all__ = ["AsgiServer", "CeleryBeat", "CeleryWorker", "live_asgi_server", "live_celery_worker"]
