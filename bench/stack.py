"""Start the production-like stack on this machine: N ASGI processes (daphne) sharing the
Redis channel layer, a Celery worker and Celery beat, on PostgreSQL and Redis.

    .venv/bin/python -m bench.stack --asgi 2 --seconds 600

prints the ports and keeps running until interrupted (or ``--seconds`` pass). Harnesses
use ``Stack`` as a context manager. DEBUG is off, as in production; only HTTPS
redirects are disabled because the stack listens on plain loopback HTTP.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Stack:
    """The processes of one production-like deployment on loopback."""

    def __init__(
        self,
        *,
        asgi: int = 2,
        database: str = "gin_stack",
        redis_db: int = 9,
        worker: bool = True,
        beat: bool = True,
        extra_env: dict[str, str] | None = None,
        server: str = "daphne",
        fresh_database: bool = False,
    ) -> None:
        self.asgi_count = asgi
        self.fresh_database = fresh_database
        self.server = server
        self.env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": "stack-only-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
            "REDIS_URL": f"redis://127.0.0.1:6379/{redis_db}",
            "LOG_LEVEL": "WARNING",
            **(extra_env or {}),
        }
        self.database = database
        self.with_worker = worker
        self.with_beat = beat
        self.ports: list[int] = []
        self.asgi: list[subprocess.Popen] = []
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None

    # --- processes ------------------------------------------------------------------
    def _spawn(self, args: list[str], log_name: str) -> subprocess.Popen:
        log = open(ROOT / "build" / f"{log_name}.log", "ab")
        return subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=log,
                                start_new_session=True)

    def prepare(self) -> None:
        (ROOT / "build").mkdir(exist_ok=True)
        if self.fresh_database:
            # An earlier run's matches would still be in play, and their clocks would
            # fire (and cost CPU) during this run.
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc",
                            f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"],
                           check=True, capture_output=True)
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc",
                        f"CREATE DATABASE {self.database}"], capture_output=True)
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([PYTHON, "manage.py", *command, "-v", "0"], cwd=ROOT, env=self.env,
                           check=True)

    def start_asgi(self, index: int) -> None:
        port = self.ports[index]
        if self.server == "uvicorn":  # the asyncio loop: uvloop lost messages here
            args = [PYTHON, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port),
                    "--loop", "asyncio", "--no-access-log", "--log-level", "warning",
                    "ginsite.asgi:application"]
        elif self.server == "granian":  # one worker process under granian's own
            args = [PYTHON, "-m", "granian", "--interface", "asginl", "--host", "127.0.0.1",
                    "--port", str(port), "--workers", "1", "--loop", "asyncio",
                    "--no-access-log", "--log-level", "warning", "ginsite.asgi:application"]
        else:
            args = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                    "ginsite.asgi:application"]
        process = self._spawn(args, f"asgi-{port}")
        self.asgi[index] = process
        wait_healthy(port)

    def start_worker(self) -> None:
        self.worker = self._spawn(
            [PYTHON, "-m", "celery", "-A", "ginsite", "worker", "-P", "threads", "-c", "4",
             "--without-gossip", "--without-mingle", "-l", "WARNING"],
            "worker",
        )

    def start_beat(self) -> None:
        self.beat = self._spawn(
            [PYTHON, "-m", "celery", "-A", "ginsite", "beat", "-l", "WARNING",
             "--schedule", str(ROOT / "build" / "celerybeat-schedule")],
            "beat",
        )

    def start(self) -> Stack:
        self.prepare()
        self.ports = [free_port() for _ in range(self.asgi_count)]
        self.asgi = [None] * self.asgi_count  # type: ignore[list-item]
        for index in range(self.asgi_count):
            self.start_asgi(index)
        if self.with_worker:
            self.start_worker()
        if self.with_beat:
            self.start_beat()
        return self

    def stop(self) -> None:
        for process in [*self.asgi, self.worker, self.beat]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in [*self.asgi, self.worker, self.beat]:
            if process is not None:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_healthy(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"ASGI process on port {port} did not become healthy in {timeout} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asgi", type=int, default=2, help="number of ASGI processes")
    parser.add_argument("--database", default="gin_stack")
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=3600.0, help="stop after this long")
    args = parser.parse_args()
    with Stack(asgi=args.asgi, database=args.database, redis_db=args.redis_db) as stack:
        for port in stack.ports:
            print(f"ASGI process: http://127.0.0.1:{port}/", flush=True)
        print("worker and beat running; logs in build/; Ctrl-C stops", flush=True)
        try:
            time.sleep(args.seconds)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
