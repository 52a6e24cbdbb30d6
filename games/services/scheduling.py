"""When the computer moves; the embedded mode's periodic jobs.

The computer's move: with a broker (``REDIS_URL`` set) a Celery task with a
countdown (the human-like pause), run by ``celery worker``. The turn clock needs no
task per move: each match row carries ``clock_due_at`` and ``clock_tick`` (beat,
every second) checks the matches that are due; ``clock_sweep`` (every 30 s) is the
safety net behind it.

In the embedded mode (no broker) the same task runs later on a daemon timer thread
of the server process, and the embedded scheduler (ginsite/embedded_beat.py) plays
the part of beat: ginsite/runtime.py's scheduler adapter decides, nothing here.
Every call is checked against the match version when it runs, so a duplicate or
late call changes nothing.
"""

from __future__ import annotations

from django.conf import settings

from ginsite import runtime

# Whether a player's socket may start the embedded scheduler (tests of that mode turn
# it off).
EMBEDDED_SWEEP = True


def bot_turn(*, match_id: int, version: int, delay: float | None = None) -> None:
    """Let the computer play its action for ``version`` after a human-like pause."""
    think = settings.BOT_THINK_SECONDS if delay is None else delay
    runtime.scheduler().run_later(
        "games.bot_turn_play", {"match_id": match_id, "expected_version": version}, think
    )


def embedded_sweep_start() -> None:
    """Make sure the periodic jobs run (a player's socket connecting calls this: in the
    embedded mode the clock sweep also expires the sockets that an earlier run of the
    process left registered when it died). A no-op where beat runs them, or once they
    run."""
    if EMBEDDED_SWEEP:
        runtime.scheduler().start_periodic()
