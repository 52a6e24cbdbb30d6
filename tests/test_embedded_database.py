"""The embedded mode's SQLite database under concurrent writers: the live table, the
in-process tasks and the analysis thread each write in their own thread. Two
transactions that both read and then write must queue, never fail with
"database is locked" (SQLite refuses, without waiting, a reader's upgrade to a writer
while another reader holds the database)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.workers import ROOT

SCRIPT = r'''
import threading
import django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE counter (n integer)")
    cursor.execute("INSERT INTO counter VALUES (0)")
connection.close()

both_read = threading.Barrier(2)
failures = []

def read_then_write():
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                cursor.fetchone()
                try:
                    # Both hold a read before either writes, when the database lets
                    # them; a writer that queues the other never gets here twice.
                    both_read.wait(timeout=2)
                except threading.BrokenBarrierError:
                    pass
                cursor.execute("UPDATE counter SET n = n + 1")
    except Exception as error:
        failures.append(repr(error))
    finally:
        connection.close()

threads = [threading.Thread(target=read_then_write) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT n FROM counter")
    print(cursor.fetchone()[0], failures)
'''


def test_two_read_then_write_transactions_queue_instead_of_failing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"SQLITE_PATH": str(tmp_path / "db.sqlite3"),
                "DJANGO_SETTINGS_MODULE": "ginsite.settings", "EMBEDDED_SCHEDULER": "0"})
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split(None, 1) == ["2", "[]\n"], run.stdout
