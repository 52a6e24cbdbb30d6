"""The internals of installed packages that the site relies on are still what it uses.

A few modules reach past the documented API of Django, psycopg, Channels,
channels-redis, redis-py, daphne, autobahn, Celery, django-celery-beat and
django-allauth, for speed or for a hook the package does not offer. Each internal is
used by one adapter module, whose docstring names it and says why; the packages are
pinned exactly in pyproject.toml. Here:

- every internal is still there, and still used by the package the way the adapter
  counts on (an upgrade that removes or renames one fails with the package, its
  version, the internal and the adapter to review);
- where the adapter copies what the package does, it still does the same (the model
  instances, the pub/sub layer's channel names and shards, Channels' consumer loop,
  the pub/sub layer's per-loop layer and shard connection);
- no other module of the site uses these internals;
- each of these packages is pinned exactly, at the version installed.
"""

from __future__ import annotations

import importlib
import inspect
import re
import tomllib
import types
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _names(code: types.CodeType) -> set[str]:
    """The names (globals, attributes) ``code`` and the functions inside it use."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _resolve(path: str) -> Any:
    """``module:attr.attr`` to the object (a property to its getter)."""
    module_name, _, attrs = path.partition(":")
    obj: Any = importlib.import_module(module_name)
    for attr in filter(None, attrs.split(".")):
        inside = obj.__dict__.get(attr) if isinstance(obj, type) else None
        obj = inside.fget if isinstance(inside, property) else getattr(obj, attr)
    return obj


def names_used_by(path: str) -> set[str]:
    """What the function at ``path`` uses, or the whole module's code for a module."""
    obj = _resolve(path)
    if isinstance(obj, types.ModuleType):
        return _names(compile(inspect.getsource(obj), obj.__file__ or path, "exec"))
    return _names(inspect.unwrap(obj).__code__)


@dataclass(frozen=True)
class Internal:
    package: str  # the distribution, as pinned in pyproject.toml
    what: str  # the internal, as the adapter uses it
    adapter: str  # the one module of the site that uses it
    check: Callable[[], bool]


def exists(path: str) -> Callable[[], bool]:
    def check() -> bool:
        try:
            _resolve(path)
        except (ImportError, AttributeError):
            return False
        return True

    return check


def uses(path: str, *names: str) -> Callable[[], bool]:
    """The function (or module) at ``path`` still uses each of ``names``."""

    def check() -> bool:
        try:
            return set(names) <= names_used_by(path)
        except (ImportError, AttributeError):
            return False

    return check


def uses_exactly(path: str, *names: str) -> Callable[[], bool]:
    """The function at ``path`` uses these names and no other: the adapter's copy of it
    is to be reviewed when it changes."""

    def check() -> bool:
        try:
            return names_used_by(path) == set(names)
        except (ImportError, AttributeError):
            return False

    return check


def celery_reads_db_reuse_max() -> bool:
    from celery.fixups.django import DjangoWorkerFixup
    from django.conf import settings

    from ginsite.celery import app

    return bool(DjangoWorkerFixup(app).db_reuse_max == settings.CELERY_DB_REUSE_MAX)


RAW_SQL = "ginsite/raw_sql.py"
DB = "django.db.backends.base.base:BaseDatabaseWrapper"
DISPATCH = "ginsite/socket_dispatch.py"
RUNTIME = "ginsite/runtime.py"
FRAMES = "ginsite/websocket_frames.py"
LAYER = "ginsite/channel_layer.py"
RUNSERVER = "ginsite/management/commands/runserver.py"
DJANGO_RUNSERVER = "django.core.management.commands.runserver:Command"

INTERNALS = [
    Internal("psycopg", "Connection._get_tx_start_command", RAW_SQL,
             exists("psycopg:Connection._get_tx_start_command")),
    Internal("psycopg", "Connection._autocommit, read before each BEGIN", RAW_SQL,
             uses("psycopg:Connection._start_query", "_autocommit", "_get_tx_start_command")),
    Internal("Django", "django.db.models.base.ModelState", RAW_SQL,
             exists("django.db.models.base:ModelState")),
    Internal("Django", "Model.from_db sets _state", RAW_SQL,
             uses("django.db.models.base:Model.from_db", "_state", "adding", "db")),
    Internal("Django", "DatabaseWrapper.atomic_blocks and savepoint_ids", RAW_SQL,
             uses(f"{DB}.__init__", "atomic_blocks", "savepoint_ids")),
    Internal("Django", "atomic pushes atomic_blocks and savepoint_ids", RAW_SQL,
             uses("django.db.transaction:Atomic.__enter__", "atomic_blocks", "savepoint_ids")),
    *[Internal("Django", f"DatabaseWrapper.{name}", RAW_SQL, exists(f"{DB}.{name}"))
      for name in ("validate_thread_sharing", "wrap_database_errors", "queries_logged",
                   "make_debug_cursor", "ensure_connection")],
    Internal("Django", "Options.concrete_fields", RAW_SQL,
             exists("django.db.models.options:Options.concrete_fields")),
    Internal("Django", "Field.get_col", RAW_SQL, exists("django.db.models:Field.get_col")),
    Internal("Django", "DatabaseOperations.get_db_converters", RAW_SQL,
             exists("django.db.backends.base.operations:BaseDatabaseOperations.get_db_converters")),
    Internal("Django", "Col.get_db_converters", RAW_SQL,
             exists("django.db.models.expressions:Col.get_db_converters")),
    Internal("Django", "django.db.backends.postgresql.psycopg_any.BaseTzLoader",
             "ginsite/timestamps.py",
             exists("django.db.backends.postgresql.psycopg_any:BaseTzLoader.load")),
    Internal("Django", "DatabaseWrapper.close_if_unusable_or_obsolete", "games/db_threads.py",
             exists(f"{DB}.close_if_unusable_or_obsolete")),
    Internal("Django", "DatabaseWrapper.in_atomic_block", "games/db_threads.py",
             uses(f"{DB}.__init__", "in_atomic_block")),
    Internal("Django", "runserver's handle sets addr, port and _raw_ipv6", RUNSERVER,
             uses(f"{DJANGO_RUNSERVER}.handle", "addr", "port", "_raw_ipv6")),
    Internal("Django", "runserver's run calls inner_run", RUNSERVER,
             uses(f"{DJANGO_RUNSERVER}.run", "inner_run")),
    Internal("daphne", "runserver Command.inner_run", RUNSERVER,
             exists("daphne.management.commands.runserver:Command.inner_run")),
    Internal("channels", "channels.consumer.get_handler_name", DISPATCH,
             exists("channels.consumer:get_handler_name")),
    Internal("channels", "AsyncConsumer.send sends through base_send", DISPATCH,
             uses("channels.consumer:AsyncConsumer.send", "base_send")),
    Internal("channels", "AsyncConsumer.__call__, copied with one queue", DISPATCH,
             uses_exactly("channels.consumer:AsyncConsumer.__call__", "StopConsumer", "_sync",
                          "async_to_sync", "await_many_dispatch", "base_send", "channel_layer",
                          "channel_layer_alias", "channel_name", "channel_receive", "dispatch",
                          "functools", "get_channel_layer", "new_channel", "partial",
                          "receive", "scope")),
    Internal("channels", "AsyncConsumer.dispatch, copied without the clean-up", DISPATCH,
             uses_exactly("channels.consumer:AsyncConsumer.dispatch", "ValueError",
                          "aclose_old_connections", "get_handler_name", "getattr")),
    Internal("channels-redis", "channels_redis.utils._consistent_hash", RUNTIME,
             exists("channels_redis.utils:_consistent_hash")),
    Internal("channels-redis", "channels_redis.utils.decode_hosts", RUNTIME,
             exists("channels_redis.utils:decode_hosts")),
    Internal("channels-redis", "RedisPubSubLoopLayer._get_group_channel_name", RUNTIME,
             exists("channels_redis.pubsub:RedisPubSubLoopLayer._get_group_channel_name")),
    Internal("channels-redis", "RedisPubSubChannelLayer.serialize", RUNTIME,
             exists("channels_redis.pubsub:RedisPubSubChannelLayer.serialize")),
    Internal("channels-redis", "RedisPubSubChannelLayer._get_layer, copied with our loop layer",
             LAYER, uses_exactly("channels_redis.pubsub:RedisPubSubChannelLayer._get_layer",
                                 "KeyError", "RedisPubSubLoopLayer", "_args", "_kwargs", "_layers",
                                 "_wrap_close", "asyncio", "get_running_loop")),
    Internal("channels-redis", "RedisPubSubLoopLayer keeps its shards in _shards", LAYER,
             uses("channels_redis.pubsub:RedisPubSubLoopLayer.__init__", "_shards",
                  "RedisSingleShardConnection")),
    Internal("channels-redis", "RedisSingleShardConnection._ensure_redis, copied with our PubSub",
             LAYER, uses_exactly("channels_redis.pubsub:RedisSingleShardConnection._ensure_redis",
                                 "Redis", "_pubsub", "_redis", "aioredis", "create_pool", "host",
                                 "pubsub")),
    Internal("redis", "PubSub.on_connect, called on a reconnection only", LAYER,
             uses("redis.asyncio.client:PubSub.connect", "register_connect_callback",
                  "on_connect")),
    *[Internal("redis", f"{cls}.{name}", RUNTIME, exists(f"redis:{cls}.{name}"))
      for cls, name in (("ConnectionPool", "get_connection"), ("ConnectionPool", "release"),
                        ("Connection", "pack_commands"), ("Connection", "send_packed_command"),
                        ("Connection", "read_response"), ("Connection", "disconnect"))],
    *[Internal("autobahn", f"{module}.{name}, a global its code calls", FRAMES,
               uses(module, name))
      for module, name in (("autobahn.websocket.protocol", "create_xor_masker"),
                           ("autobahn.websocket.protocol", "hltype"),
                           ("autobahn.websocket.protocol", "hlval"),
                           ("autobahn.twisted.websocket", "hltype"),
                           ("autobahn.twisted.websocket", "hlval"))],
    *[Internal("autobahn", f"autobahn's maskers' {name}", FRAMES,
               exists(f"autobahn.websocket.xormasker:XorMaskerNull.{name}"))
      for name in ("process", "pointer", "reset")],
    Internal("autobahn", "autobahn.util.hltype and hlval", FRAMES,
             lambda: exists("autobahn.util:hltype")() and exists("autobahn.util:hlval")()),
    Internal("celery", "CELERY_DB_REUSE_MAX, read by the Django fix-up", "ginsite/celery.py",
             celery_reads_db_reuse_max),
    Internal("django-celery-beat", "DatabaseScheduler.schedule asks schedule_changed",
             "ginsite/beat_scheduler.py",
             uses("django_celery_beat.schedulers:DatabaseScheduler.schedule",
                  "schedule_changed")),
    Internal("django-allauth", "allauth.core.internal.httpkit.get_client_ip",
             "ginsite/client_ip.py", exists("allauth.core.internal.httpkit:get_client_ip")),
]


@pytest.mark.parametrize(
    "internal", INTERNALS, ids=[f"{i.package}:{i.what}" for i in INTERNALS]
)
def test_each_internal_used_is_still_there(internal: Internal) -> None:
    assert internal.check(), (
        f"{internal.package} {version(internal.package)}: {internal.what} is gone or changed;"
        f" {internal.adapter} relies on it (its docstring says how): adapt it before"
        f" upgrading {internal.package}"
    )


# How each internal shows in the site's code, and the one module allowed to use it.
FENCE: dict[str, str | tuple[str, ...]] = {
    r"\._autocommit\b|_get_tx_start_command": RAW_SQL,
    r"\bModelState\b|\._state\s*=": RAW_SQL,
    r"\batomic_blocks\b|\bsavepoint_ids\b": RAW_SQL,
    r"make_debug_cursor|queries_logged|wrap_database_errors|validate_thread_sharing": RAW_SQL,
    r"get_db_converters|\.get_col\(|concrete_fields": RAW_SQL,
    r"psycopg_any|BaseTzLoader": "ginsite/timestamps.py",
    r"close_if_unusable_or_obsolete|in_atomic_block|transaction\.get_connection\(":
        "games/db_threads.py",
    r"_raw_ipv6|\binner_run\b": RUNSERVER,
    r"get_handler_name|\bbase_send\b|channel_receive": DISPATCH,
    r"_consistent_hash|decode_hosts|__group__|_get_group_channel_name": RUNTIME,
    r"send_packed_command|pack_commands|read_response|\.get_connection\(\)": RUNTIME,
    r"create_xor_masker|\bhltype\b|\bhlval\b": FRAMES,
    r"_ensure_redis|_wrap_close|RedisSingleShardConnection|\bon_connect\b": LAYER,
    # A setting: set in settings.py, what it does for the worker said in celery.py.
    r"DB_REUSE_MAX": ("ginsite/settings.py", "ginsite/celery.py"),
    r"schedule_changed": "ginsite/beat_scheduler.py",
    r"allauth\.core\.internal|get_client_ip": "ginsite/client_ip.py",
}


def site_sources() -> list[Path]:
    packages = ("ginsite", "games", "accounts", "leaderboards")
    return sorted(
        path for package in packages for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_no_other_module_uses_them() -> None:
    sources = {str(path.relative_to(ROOT)): path.read_text() for path in site_sources()}
    assert "ginsite/raw_sql.py" in sources and "games/consumers.py" in sources
    allowed = {pattern: (a,) if isinstance(a, str) else a for pattern, a in FENCE.items()}
    found = [
        f"{name}:{text[:match.start()].count(chr(10)) + 1}: {match.group()!r}"
        f" belongs in {' or '.join(adapters)}"
        for pattern, adapters in allowed.items()
        for name, text in sources.items()
        if name not in adapters
        for match in re.finditer(pattern, text)
    ]
    assert found == []
    for pattern, adapters in allowed.items():
        assert re.search(pattern, sources[adapters[0]]), (pattern, adapters[0])


def test_each_package_is_pinned_exactly_at_the_version_installed() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = {}
    for requirement in pyproject["project"]["dependencies"]:
        name, _, pinned = re.sub(r"\[[^\]]*\]", "", requirement).partition("==")
        pins[name.strip().lower()] = pinned.strip()
    for package in sorted({i.package for i in INTERNALS}):
        pinned = pins.get(package.lower(), "")
        assert pinned, f"{package} is not pinned exactly (==) in pyproject.toml"
        assert version(package) == pinned, (
            f"{package}: pyproject.toml pins {pinned}, {version(package)} is installed"
        )


@pytest.mark.django_db
def test_the_instances_built_from_rows_are_those_django_builds() -> None:
    """ginsite/raw_sql.py builds an instance without ``Model.__init__``, setting what
    ``Model.from_db`` sets: the two must be the same, attribute for attribute."""
    from django.db import connection

    from accounts.models import User
    from games.models import Match, Seat
    from ginsite import raw_sql
    from tests.factories import create_match, create_user

    match = create_match(create_user("ann"), create_user("ben"))
    seat = Seat.objects.filter(match=match).order_by("index")[0]
    for kind, pk in ((Match, match.pk), (Seat, seat.pk), (User, seat.user_id)):
        quote = connection.ops.quote_name
        table, key = quote(kind._meta.db_table), quote(kind._meta.pk.column)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {raw_sql.columns(kind, 't')} FROM {table} t"
                           f" WHERE t.{key} = %s", [pk])
            row = cursor.fetchone()
        [ours] = raw_sql.instances(row, (kind,))
        djangos = kind.objects.get(pk=pk)
        assert set(vars(ours)) == set(vars(djangos)), kind
        # fields_cache: a cache of related rows, made when first asked for.
        state = {k: v for k, v in vars(djangos._state).items() if k != "fields_cache"}
        assert vars(ours._state) == state, kind
        fields = [f.attname for f in kind._meta.concrete_fields]
        assert [getattr(ours, f) for f in fields] == [getattr(djangos, f) for f in fields]


def test_the_publisher_names_and_places_groups_as_the_pubsub_layer_does() -> None:
    """ginsite/runtime.py publishes to a group's channel without the layer: the name and
    the shard must be the layer's own, or the group's members would hear nothing."""
    from channels_redis.pubsub import RedisPubSubLoopLayer

    from ginsite.runtime import PubSubPublisher

    hosts = [f"redis://127.0.0.1:6379/{n}" for n in (1, 2, 3)]
    layer = RedisPubSubLoopLayer(hosts=hosts, prefix="asgi-test")
    publisher = PubSubPublisher({"hosts": [{"address": h} for h in hosts], "prefix": "asgi-test"})
    shards = set()
    for group in [f"match-{n}" for n in range(40)] + ["lobby", "tournament-7-seat-1"]:
        channel = publisher.group_channel(group)
        assert channel == layer._get_group_channel_name(group)
        shard = publisher.shard_of(channel, len(hosts))
        assert layer._shards[shard] is layer._get_shard(channel)
        shards.add(shard)
    assert shards == {0, 1, 2}


def test_the_match_socket_is_built_on_the_one_queue_loop() -> None:
    from games.consumers import MatchConsumer
    from ginsite.socket_dispatch import QueuedDispatchConsumer

    assert MatchConsumer.__call__ is QueuedDispatchConsumer.__call__
    assert MatchConsumer.dispatch is QueuedDispatchConsumer.dispatch
