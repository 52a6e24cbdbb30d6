"""The embedded scheduler (ginsite/embedded_beat.py): every entry of the settings'
beat schedule runs in-process, at start and then every period, including entries
added to the schedule later; never where celery beat runs."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings

from ginsite import embedded_beat
from ginsite.embedded_beat import EmbeddedBeat
from leaderboards.models import Board

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


class Recorder:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, task: str, args: tuple, kwargs: dict) -> None:
        self.calls.append(task)

    def take(self) -> list[str]:
        calls, self.calls = self.calls, []
        return sorted(calls)


def test_every_entry_of_the_settings_schedule_runs_at_start_then_every_period():
    run = Recorder()
    beat = EmbeddedBeat(run=run)
    tasks = sorted(entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values())
    assert {"games.clock_sweep", "leaderboards.refresh_boards"} <= set(tasks)

    beat.tick(at(0))
    beat.settle(10)  # the analysis queue's entries run on their own thread
    assert run.take() == tasks
    beat.tick(at(0.5))  # the shortest period is a second (the clock tick)
    assert run.take() == []
    periods = {
        entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    longest = max(periods.values())
    seen: dict[str, int] = {task: 0 for task in tasks}
    for second in range(1, int(longest) + 1):
        beat.tick(at(second))
        beat.settle(10)
        for task in run.take():
            seen[task] += 1
    assert seen == {task: int(longest // period) for task, period in periods.items()}


def test_the_board_refresh_runs_at_least_every_minute_so_a_match_shows_within_two():
    entry = settings.CELERY_BEAT_SCHEDULE["leaderboards-refresh-boards"]
    assert float(entry["schedule"]) <= 60


def test_the_wait_until_the_next_entry_is_what_the_schedule_says():
    run = Recorder()
    beat = EmbeddedBeat(
        schedule=lambda: {"a": {"task": "a", "schedule": 30.0},
                          "b": {"task": "b", "schedule": timedelta(seconds=12)}},
        run=run,
    )
    assert beat.tick(at(0)) == pytest.approx(embedded_beat.MAX_SLEEP_SECONDS)
    beat.tick(at(10))
    assert beat.tick(at(10)) == pytest.approx(2)


def test_an_entry_added_to_the_schedule_later_runs_without_any_change(settings):
    settings.CELERY_BEAT_SCHEDULE = {  # one slow entry, so the new one is all that runs
        "boards": {"task": "leaderboards.refresh_boards", "schedule": 60.0},
    }
    run = Recorder()
    beat = EmbeddedBeat(run=run)
    beat.tick(at(0))
    run.take()
    settings.CELERY_BEAT_SCHEDULE = {
        **settings.CELERY_BEAT_SCHEDULE,
        "games-clock-sweep-fast": {"task": "games.clock_sweep", "schedule": 1.0,
                                   "kwargs": {}},
    }
    beat.tick(at(0.5))
    assert run.take() == ["games.clock_sweep"]
    beat.tick(at(1.0))
    assert run.take() == []
    beat.tick(at(1.5))
    assert run.take() == ["games.clock_sweep"]
    assert beat.tick(at(1.6)) <= 1.0


def test_a_failing_job_is_logged_and_the_others_still_run(caplog):
    ran = []

    def run(task: str, args: tuple, kwargs: dict) -> None:
        if task == "broken":
            raise RuntimeError("boom")
        ran.append((task, args, kwargs))

    beat = EmbeddedBeat(
        schedule=lambda: {
            "broken": {"task": "broken", "schedule": 5},
            "fine": {"task": "fine", "schedule": 5, "args": [1], "kwargs": {"x": 2}},
        },
        run=run,
    )
    beat.tick(at(0))
    assert ran == [("fine", (1,), {"x": 2})]
    assert "entry broken failed" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_job_runs_the_real_task_in_this_process():
    beat = EmbeddedBeat(
        schedule=lambda: {"boards": {"task": "leaderboards.refresh_boards", "schedule": 60}}
    )
    beat.tick(at(0))
    assert set(Board.objects.values_list("kind", flat=True)) == {"week", "month"}


def test_it_never_starts_where_celery_beat_runs():
    # The suite runs with REDIS_URL, as production: a worker and beat do the work.
    assert settings.REDIS_URL
    assert settings.EMBEDDED_SCHEDULER is False
    assert embedded_beat.start() is False
    assert embedded_beat._thread is None


def test_a_long_analysis_job_never_holds_up_the_clock(settings):
    """As in production, where the analysis queue has its own worker: a job routed to
    another queue (puzzle generation, the analysis sweep) runs beside the schedule, so
    the clock tick still runs every second while it works (it ran once at start on the
    one thread, and a turn's timeout waited for the puzzles)."""
    settings.CELERY_TASK_ROUTES = {"slow.*": {"queue": "analysis"}}
    release = threading.Event()
    started = threading.Event()
    run = Recorder()

    def runner(task: str, args: tuple, kwargs: dict) -> None:
        run(task, args, kwargs)
        if task == "slow.generate":
            started.set()
            release.wait(30)

    beat = EmbeddedBeat(
        schedule=lambda: {"puzzles": {"task": "slow.generate", "schedule": 3600},
                          "clock": {"task": "games.clock_tick", "schedule": 1.0}},
        run=runner,
    )
    ticks = threading.Thread(target=lambda: [beat.tick(at(s)) for s in range(3)], daemon=True)
    ticks.start()
    ticks.join(10)
    try:
        assert not ticks.is_alive(), "the clock waited behind the analysis job"
        assert started.wait(10), "the analysis job never started on its own thread"
        assert run.calls.count("games.clock_tick") == 3
        assert run.calls.count("slow.generate") == 1  # still running: not started again
    finally:
        release.set()
    beat.settle(10)
    beat.tick(at(3600))
    beat.settle(10)
    assert run.calls.count("slow.generate") == 2
