"""The database threads of the match sockets (games/consumers.py).

A match socket's database work runs on a small pool of threads rather than Channels'
one thread per process, so one socket's move can wait on PostgreSQL while another's
runs (every service locks the match row and checks its version). Each thread keeps its
own connection: a process holds at most ``DB_THREADS`` of them for match sockets.
SQLite (the embedded mode) has one writer at a time: one thread.

The hop is as light as it can be: the call goes on one queue that the threads take
from, and its result comes back to the caller's event loop with one
``call_soon_threadsafe``. Channels' ``database_sync_to_async`` copies the caller's
context variables to the thread and back, which cost more CPU than a move's own
queries; asyncio's ``run_in_executor`` builds a future of each kind and chains them,
twice the CPU of this hop (docs/benchmarks.md). As around a Django request, the
thread's connection is closed before and after each call if it is broken or past its
age.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

DB_THREADS = 4 if "postgresql" in settings.DATABASES["default"]["ENGINE"] else 1

# Each call: the function to run, and what to do with its result or its exception.
_Call = tuple[Callable[[], Any], Callable[[Any, BaseException | None], None]]
_calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
_started: list[threading.Thread] = []
_starting = threading.Lock()


def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as a coroutine function run on the match sockets' database threads."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def answer(result: Any, error: BaseException | None) -> None:
            # A test's loop may be closed before work it started has finished.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, result, error)

        _submit(lambda: _in_thread(func, args, kwargs), answer)
        return await done

    return call


def _settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if done.cancelled():  # the socket went away meanwhile
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


def _submit(func: Callable[[], Any], answer: Callable[[Any, BaseException | None], None]) -> None:
    if len(_started) < DB_THREADS:
        with _starting:
            while len(_started) < DB_THREADS:
                thread = threading.Thread(
                    target=_work, name=f"match-db_{len(_started)}", daemon=True
                )
                thread.start()
                _started.append(thread)
    _calls.put((func, answer))


def _work() -> None:
    while True:
        func, answer = _calls.get()
        try:
            result = func()
        except BaseException as error:  # handed to the caller, as an executor does
            answer(None, error)
        else:
            answer(result, None)


def _in_thread(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


def close_connections() -> None:
    """Close every pool thread's connection, each thread its own, after all the work
    it already has (a test database cannot be dropped while one is open)."""
    barrier = threading.Barrier(DB_THREADS)

    def close_this_threads_connections() -> None:
        barrier.wait(timeout=10)
        connections.close_all()

    waits = []
    for _ in range(DB_THREADS):
        closed: Future[None] = Future()
        _submit(close_this_threads_connections, _answer_to(closed))
        waits.append(closed)
    for closed in waits:
        closed.result()


def _answer_to(future: Future[Any]) -> Callable[[Any, BaseException | None], None]:
    def answer(result: Any, error: BaseException | None) -> None:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    return answer
