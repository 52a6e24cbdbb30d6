"""The site as the README's run command starts it, for the tests of that run mode:
``manage.py setup_dev`` then ``manage.py runserver 127.0.0.1:PORT`` (on a free port), on
the embedded defaults (no DATABASE_URL, no REDIS_URL: SQLite, the in-memory channel
layer, Celery in-process). Everything it writes (the SQLite database, the admin's
password, the generated secret key) goes to a directory of the test's own
(``SQLITE_PATH``), never to the developer's database; it touches no test database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.workers import ROOT, free_port

# Not the README's: what the test suite's own environment adds to a process.
_NOT_FROM_THE_README = {
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "CHANNEL_PREFIX",
    "CHANNEL_REDIS_URLS",
    "DEBUG",
    "SECRET_KEY",
}


class EmbeddedSite:
    """``manage.py setup_dev`` then ``manage.py runserver 127.0.0.1:PORT`` (the README's
    run command, on a free port), in the embedded defaults; ``env`` adds settings."""

    def __init__(self, directory: Path, **env: str) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in _NOT_FROM_THE_README}
        self.env.update(
            {
                "SQLITE_PATH": str(directory / "db.sqlite3"),
                "PYTHONUNBUFFERED": "1",
                **env,
            }
        )
        self.database = directory / "db.sqlite3"
        self.log_path = directory / "server.log"
        self.process: subprocess.Popen | None = None
        self.setup_output = ""

    def setup(self) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", "setup_dev"],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        self.setup_output = done.stdout
        return done.stdout

    def start(self) -> None:
        with open(self.log_path, "wb") as log:
            # --noreload: the autoreloader's file polling would only cost CPU here.
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log()
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.2)
        raise AssertionError("the embedded site did not answer\n" + self.log())

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


@contextmanager
def running_embedded_site(**env: str) -> Iterator[EmbeddedSite]:
    """A site set up and started in a temporary directory, stopped and removed after."""
    with tempfile.TemporaryDirectory(prefix="gin-embedded-") as directory:
        site = EmbeddedSite(Path(directory), **env)
        site.setup()
        site.start()
        try:
            yield site
        finally:
            site.stop()
