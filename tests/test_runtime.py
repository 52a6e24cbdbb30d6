"""ginsite/runtime.py: the scheduler and publisher adapters follow the settings (the
embedded mode's behaviour itself: tests/games/test_embedded.py)."""

import asyncio

from channels.layers import get_channel_layer

from ginsite import runtime

EMBEDDED_LAYERS = {"default": {"BACKEND": "ginsite.runtime.EmbeddedChannelLayer"}}


def test_the_suite_runs_on_the_broker_and_redis_adapters() -> None:
    assert isinstance(runtime.scheduler(), runtime.CeleryScheduler)
    assert isinstance(runtime.publisher(), runtime.PubSubPublisher)  # the pub/sub layer


def test_the_list_based_layer_is_published_to_through_an_event_loop(settings) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:6379/0"}]},
        }
    }
    assert isinstance(runtime.publisher(), runtime.LayerPublisher)


def test_the_embedded_settings_choose_timers_and_the_in_memory_layer(settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CHANNEL_LAYERS = EMBEDDED_LAYERS  # as ginsite/settings.py has it without Redis
    scheduler, publisher = runtime.scheduler(), runtime.publisher()
    assert isinstance(scheduler, runtime.TimerScheduler)
    assert isinstance(publisher, runtime.InMemoryPublisher)
    assert runtime.scheduler() is scheduler  # chosen once, not per call
    publisher.send([("nobody", {"type": "x"})])  # no loop bound yet: nobody to tell


async def test_whatever_joins_a_group_of_the_embedded_layer_hears_sends_from_any_thread(
    settings,
) -> None:
    """An HTTP stream of the bot API joins its groups as a WebSocket consumer does, but
    binds nothing itself: the layer tells the publisher the loop."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CHANNEL_LAYERS = EMBEDDED_LAYERS
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("user.7", channel)
    event = {"type": "user.logout", "reason": "banned"}
    # From a thread of its own, as a view's or a timer's publication comes.
    await asyncio.to_thread(runtime.publisher().send, [("user.7", event)])
    assert await asyncio.wait_for(layer.receive(channel), timeout=5) == event


def test_a_pending_timer_is_cancelled_when_the_mode_changes(settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    scheduler = runtime.scheduler()
    assert isinstance(scheduler, runtime.TimerScheduler)
    scheduler.run_later("games.clock_sweep", {}, 3600)
    assert len(scheduler._timers) == 1
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert scheduler._timers == set()
    assert isinstance(runtime.scheduler(), runtime.CeleryScheduler)
