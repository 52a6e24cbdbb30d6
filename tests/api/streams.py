"""An NDJSON stream read on a thread, as a bot reads it, and one API call with a token,
for the live-server tests."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlparse

ENDED = object()


def api(base: str, token: str, method: str, path: str, body: dict | None = None) -> tuple:
    """One JSON call of the API with ``token``: (status, decoded body)."""
    request = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class StreamReader:
    """GET ``path`` with a token on the live server; every line (keep-alive empty lines
    as None) goes to a queue; ``ENDED`` when the server closes the stream."""

    def __init__(self, base_url: str, path: str, token: str) -> None:
        url = urlparse(base_url)
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[Any] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                self.lines.put(json.loads(raw) if raw.strip() else None)
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass
        self.lines.put(ENDED)

    def next(self, timeout: float = 30.0, *, keepalives: bool = False) -> Any:
        """The next line (skipping keep-alives unless asked); AssertionError on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line within {timeout} s; seen {self.seen[-5:]}")
            try:
                item = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(item)
            if item is None and not keepalives:
                continue
            return item

    def wait_for(self, predicate: Any, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            item = self.next(max(0.1, deadline - time.monotonic()))
            if item is ENDED:
                raise AssertionError(f"the stream ended; seen {self.seen[-5:]}")
            if predicate(item):
                return item

    def close(self) -> None:
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.connection.close()
        self.thread.join(10)
