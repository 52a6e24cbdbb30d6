"""Cost of the hop from a match socket's event loop to a database thread and back
(games/db_threads.py), against asyncio's ``run_in_executor`` on a thread pool of the
same size: every action a player sends makes one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x .venv/bin/python -m bench.db_hop

(The URL only picks the thread count of PostgreSQL; nothing connects.) Prints the CPU
time of the whole process per call, both threads counted, for calls that do nothing,
in alternating rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import time
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def nothing() -> None:
    return None


async def measure(calls: int, rounds: int) -> None:
    from games import db_threads

    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=db_threads.DB_THREADS)
    hop = db_threads.db(nothing)

    async def executor() -> None:  # as games/db_threads.py did before, clean-up included
        for _ in range(calls):
            await loop.run_in_executor(
                pool, functools.partial(db_threads._in_thread, nothing, (), {})
            )

    async def db_threads_hop() -> None:
        for _ in range(calls):
            await hop()

    print(f"{db_threads.DB_THREADS} threads, {calls} calls a round, CPU µs per call")
    print(f"{'round':>5} {'run_in_executor':>16} {'db_threads.db':>14}")
    for number in range(1, rounds + 1):
        figures = []
        for way in (executor, db_threads_hop):
            start = time.process_time()
            await way()
            figures.append((time.process_time() - start) / calls * 1e6)
        print(f"{number:>5} {figures[0]:>16.1f} {figures[1]:>14.1f}")
    pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import django

    django.setup()
    asyncio.run(measure(args.calls, args.rounds))


if __name__ == "__main__":
    main()
