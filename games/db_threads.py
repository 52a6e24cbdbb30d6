"""The database threads of the match sockets (games/consumers.py).

A match socket's database work runs on a small pool of threads rather than Channels'
one thread per process, so one socket's move can wait on PostgreSQL while another's
runs (every service locks the match row and checks its version). On PostgreSQL each
call takes a connection from the process's pool (settings ``DATABASE_POOL_SIZE``, shared
with the pages and the other sockets) and gives it back when it returns, so the match
sockets hold at most ``DB_THREADS`` of the pool's connections at a time, and the process
never more than the pool's size (with ``DATABASE_POOL_SIZE=0``, no pool: each thread
keeps a connection of its own). SQLite (the embedded mode) has one writer at a time:
one thread.

The hop is a plain ``run_in_executor``: Channels' ``database_sync_to_async`` copies the
caller's context variables to the thread and back, which cost more CPU than a move's
own queries; only the caller's language goes with the call. As around a Django
request, the thread's connection is closed before and after each call if it is broken
or past its age (the site has one database); with the pool its age is 0, and closing it
puts it back in the pool (its prepared statements, ginsite/raw_sql.py, stay with it).

The one module of the site that calls the connection's undocumented
``close_if_unusable_or_obsolete`` (what Django's ``close_old_connections`` calls on
each connection) and reads its ``in_atomic_block`` (is a transaction open);
tests/test_internals.py fails on an upgrade that removes them (Django is pinned
exactly in pyproject.toml).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import translation

DB_THREADS = 4 if "postgresql" in settings.DATABASES["default"]["ENGINE"] else 1
_db_threads = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="match-db")


def db(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as a coroutine function run on the match sockets' database threads, in
    the caller's language (the socket's, ginsite/i18n.py: a refusal's message is
    written in it)."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(
            _db_threads,
            functools.partial(_in_thread, func, args, kwargs, translation.get_language()),
        )

    return call


def released(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func``, for a request's sync code, that gives its thread's connection back (to
    the pool) as soon as it returns, not when the request ends: for the few queries
    before a bot API stream, which stays open for hours. Not inside a transaction (a
    test's): that connection stays, and so does its transaction."""

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            connection = connections[DEFAULT_DB_ALIAS]
            if not connection.in_atomic_block:
                connection.close()

    return call


def _in_thread(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], language: str | None
) -> Any:
    # Django's close_old_connections, for the one database these threads use: it
    # looks each configured connection up in the thread's storage, twice a call.
    connection = connections[DEFAULT_DB_ALIAS]
    connection.close_if_unusable_or_obsolete()
    try:
        with translation.override(language):
            return func(*args, **kwargs)
    finally:
        connection.close_if_unusable_or_obsolete()


def close_connections() -> None:
    """Close every pool thread's connection, each thread its own, after all the work
    it already has (a test database cannot be dropped while one is open)."""
    barrier = threading.Barrier(DB_THREADS)

    def close_this_threads_connections() -> None:
        barrier.wait(timeout=10)
        connections.close_all()

    for done in [_db_threads.submit(close_this_threads_connections) for _ in range(DB_THREADS)]:
        done.result()
