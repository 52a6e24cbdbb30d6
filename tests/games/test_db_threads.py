"""The match sockets' database threads (games/db_threads.py): a call's result or its
error reaches the caller, and work whose caller went away never stops the threads."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games import db_threads
from games.db_threads import db


def test_a_calls_result_and_its_error_reach_the_caller():
    def divide(a: int, b: int) -> float:
        return a / b

    async def calls() -> tuple[float, BaseException]:
        result = await db(divide)(6, b=3)
        with pytest.raises(ZeroDivisionError) as refused:
            await db(divide)(1, 0)
        return result, refused.value

    result, error = asyncio.run(calls())
    assert result == 2
    assert isinstance(error, ZeroDivisionError)


def test_calls_run_on_the_database_threads_side_by_side():
    """One call waiting (on a lock, say) does not hold up another."""
    names: set[str] = set()
    both_in = threading.Barrier(2, timeout=10)

    def wait_for_the_other() -> None:
        names.add(threading.current_thread().name)
        both_in.wait()

    async def calls() -> None:
        await asyncio.gather(db(wait_for_the_other)(), db(wait_for_the_other)())

    asyncio.run(calls())
    assert len(names) == 2 and all(n.startswith("match-db_") for n in names)


def test_work_whose_loop_has_closed_leaves_the_threads_working():
    """A socket's test loop (or a server's) may close while its calls still run, on
    every thread at once: the threads go on taking calls."""
    release = threading.Event()
    running = threading.Semaphore(0)
    finished = threading.Semaphore(0)

    def slow() -> str:
        running.release()
        release.wait(10)
        finished.release()
        return "late"

    async def start_and_leave() -> None:
        left = [asyncio.ensure_future(db(slow)()) for _ in range(db_threads.DB_THREADS)]
        for _ in left:
            await asyncio.to_thread(running.acquire, timeout=10)

    asyncio.run(start_and_leave())  # the loop closes with every thread's call running
    release.set()
    for _ in range(db_threads.DB_THREADS):
        assert finished.acquire(timeout=10)

    async def next_call() -> str:
        return await asyncio.wait_for(db(lambda: "next")(), timeout=10)

    assert asyncio.run(next_call()) == "next"
