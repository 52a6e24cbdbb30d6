"""A real Celery worker for the "analysis" queue, as docs/operations.md runs it
(``celery -A ginsite worker -Q analysis``), on the test database: the fixture
``analysis_worker`` (module scope; import it into the test module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.workers import CeleryWorker, started


class AnalysisWorker(CeleryWorker):
    def __init__(self) -> None:
        super().__init__()
        self.command += ["-Q", "analysis"]
        self.command[self.command.index("--hostname") + 1] = "test-analysis-%h"

    def start(self) -> None:
        from ginsite.celery import app

        # Tasks left on the queue by earlier tests name hands that no longer exist.
        with app.connection_for_write() as connection:
            connection.default_channel.queue_purge("analysis")
        super().start()


@pytest.fixture(scope="module")
def analysis_worker(django_db_setup: None) -> Iterator[AnalysisWorker]:
    with started([AnalysisWorker()]) as (worker,):
        yield worker
