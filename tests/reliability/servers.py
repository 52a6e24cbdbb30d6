"""Processes the fault tests start, stop and kill: a private redis-server, the
daphne, Celery worker and beat processes of tests/workers.py pointed at it, and a supervisor
that restarts them when they exit.

The suite's Redis (``REDIS_URL``) is shared with other test runs, so the test that
restarts Redis starts its own ``redis-server`` on a free port (no persistence, as a
crash would leave it) and points its own ASGI and worker processes at it.
"""

from __future__ import annotations

import asyncio
import os
import time

import kombu.exceptions
import redis
from celery import Celery

from tests.workers import (
    AsgiServer,
    CeleryBeat,
    CeleryWorker,
    _Process,
    free_port,
)

START_TIMEOUT = 20.0


class RedisServer(_Process):
    """``redis-server`` on a free loopback port; ``restart()`` keeps the port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        super().__init__(
            "redis",
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--daemonize", "no"],
        )

    def start(self) -> None:
        super().start()
        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    client.close()
                    return
            except redis.RedisError:
                time.sleep(0.05)
        self.fail(f"did not answer a ping on port {self.port}")

    def restart(self) -> None:
        """A crash and a restart: every key (channel layer, broker queues) is lost."""
        self.kill()
        self.start()


class PrivateAsgiServer(AsgiServer):
    """A daphne process of the test database on another Redis."""

    def __init__(self, redis_url: str, **env: str) -> None:
        self.env_overrides = {"REDIS_URL": redis_url, **env}
        super().__init__()


class PrivateCeleryWorker(CeleryWorker):
    """A Celery worker of the test database whose broker is another Redis."""

    def __init__(self, redis_url: str) -> None:
        self.env_overrides = {"REDIS_URL": redis_url}
        super().__init__()
        self.command = [*self.command[:-2], "--hostname", f"fault-worker-{os.getpid()}@%h"]

    def start(self) -> None:
        _Process.start(self)  # not CeleryWorker's: its purge and ping use the suite's broker
        probe = Celery("probe", broker=self.env_overrides["REDIS_URL"], set_as_current=False)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while time.monotonic() < deadline:
                if not self.alive():
                    self.fail("exited while starting")
                try:
                    if probe.control.ping(timeout=0.5):
                        return
                except (OSError, redis.RedisError, kombu.exceptions.KombuError):
                    time.sleep(0.2)  # the broker itself is coming back
        finally:
            probe.close()
        self.fail("did not answer a ping")


class PrivateCeleryBeat(CeleryBeat):
    """Celery beat of the test database whose broker is another Redis."""

    def __init__(self, redis_url: str) -> None:
        self.env_overrides = {"REDIS_URL": redis_url}
        super().__init__()


class Supervisor:
    """Restarts a process of the site that exits, as systemd's ``Restart=always``
    does in the deployment (docs/deploy/*.service)."""

    def __init__(self, processes: list[_Process]) -> None:
        self.processes = processes
        self.restarts: dict[str, int] = {}

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            for process in self.processes:
                if not process.alive():
                    self.restarts[process.name] = self.restarts.get(process.name, 0) + 1
                    await asyncio.to_thread(process.start)
            await asyncio.sleep(0.5)
