"""Settings, read from the environment.

With no environment at all the site runs on embedded defaults (SQLite, the
in-memory channel layer, Celery tasks executed in-process), as production does
otherwise: DEBUG off (the site's own error pages), a secret key of its own. Production
and CI set ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channel layer and Celery
broker).
"""

import os
import secrets
import warnings
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int, *, minimum: int) -> int:
    """An integer setting from the environment; a clear error at start if it is not one."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise RuntimeError(f"{name} must be a whole number, not {value!r}") from None
    if number < minimum:
        raise RuntimeError(f"{name} must be at least {minimum}, not {number}")
    return number


def env_float(name: str, default: float) -> float:
    """A positive number of seconds from the environment; a clear error at start if not."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        raise RuntimeError(f"{name} must be a number of seconds, not {value!r}") from None
    if not number > 0:
        raise RuntimeError(f"{name} must be more than 0 seconds, not {value}")
    return number


# The embedded mode (no DATABASE_URL): the README's run command, one process on an SQLite
# file. It runs as production does, DEBUG off, unless DEBUG=1 asks for Django's debug
# pages; with DATABASE_URL (development on PostgreSQL, the test suite's servers) DEBUG
# is on unless DEBUG=0, which production sets.
EMBEDDED = not os.environ.get("DATABASE_URL", "")
SQLITE_FILE = Path(os.environ.get("SQLITE_PATH", "") or BASE_DIR / "db.sqlite3")
DEBUG = env_bool("DEBUG", not EMBEDDED)


def embedded_secret_key(path: Path) -> str:
    """The embedded site's own secret key: made once, kept in ``path`` (beside its
    database and its admin password, readable by its owner only)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = secrets.token_urlsafe(50)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if EMBEDDED:
        SECRET_KEY = embedded_secret_key(SQLITE_FILE.parent / ".dev-secret-key")
    elif not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    else:
        SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

# The Ed25519 secret key that signs match exports (docs/export.md): 64 hex digits. Unset,
# it is derived from SECRET_KEY (games/api/signing.py).
EXPORT_SIGNING_KEY = os.environ.get("EXPORT_SIGNING_KEY", "").strip()
if EXPORT_SIGNING_KEY and (
    len(EXPORT_SIGNING_KEY) != 64 or EXPORT_SIGNING_KEY.strip("0123456789abcdefABCDEF")
):
    raise RuntimeError("EXPORT_SIGNING_KEY must be 64 hex digits (a 32-byte Ed25519 secret key)")

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
# A POST without the page's CSRF token: the one JSON refusal on a JSON route (403
# csrf_failed), Django's page otherwise.
CSRF_FAILURE_VIEW = "ginsite.errors.csrf_failure"

INSTALLED_APPS = [
    # Before daphne: its runserver (ginsite/management/commands/runserver.py) wraps daphne's.
    "ginsite",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.humanize",
    "channels",
    "django_celery_beat",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "leaderboards",
    "games.chat",
    "games.api",
    "games.analysis",
    "games.tournaments",
    "games.fairplay",
    "games.learn",
    "social",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "ginsite.csp.ContentSecurityPolicyMiddleware",  # CONTENT_SECURITY_POLICY below
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "ginsite.logs.RequestLogMiddleware",
    # The language (the account's, the chooser's cookie, the browser's) and time zone.
    "ginsite.i18n.SiteLocaleMiddleware",
    # Any refusal (an AppError) a view raises: its one reply (ginsite/errors.py).
    "ginsite.errors.RefusalMiddleware",
]

ROOT_URLCONF = "ginsite.urls"
ASGI_APPLICATION = "ginsite.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.display_preferences",
                "games.fairplay.context_processors.notices",
                "social.context_processors.bell",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# On PostgreSQL the statements of a move are prepared on each connection at first use
# (ginsite/raw_sql.py, with SQL PREPARE; Django's own queries are bound on the
# client and never prepared); 0 behind a pooler in transaction mode (docs/operations.md).
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)
if DATABASE_URL:
    # Each process (an ASGI server, a Celery worker, beat) takes its PostgreSQL
    # connections from one pool of at most DATABASE_POOL_SIZE (Django's psycopg pool):
    # a connection goes back to the pool at the end of each request, each call of a
    # socket's database thread and each task, and a thread that finds none free waits
    # up to DATABASE_POOL_TIMEOUT seconds for one, then its page answers 503
    # (ginsite/overload.py). Size it so that processes x DATABASE_POOL_SIZE stays
    # under PostgreSQL's max_connections less a reserve (docs/operations.md).
    # DATABASE_POOL_SIZE=0: no pool, a persistent connection per thread (unbounded).
    DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 10, minimum=0)
    DATABASE_POOL_TIMEOUT = env_float("DATABASE_POOL_TIMEOUT", 10.0)
    if DATABASE_POOL_SIZE:
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
        # min_size 0: connections are opened as they are needed (a process that needs
        # one holds one: a pool opening one ahead would race its first request into two)
        # and those idle for 10 minutes closed (psycopg_pool's max_idle).
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 0,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT,
        }
        # The pool checks a connection (an empty query) before lending it: after a
        # restart of PgBouncer or PostgreSQL every idle pooled connection is dead, and
        # without the check each would fail one move or page once (bench/pool_check.py
        # measures what the check costs: docs/benchmarks.md).
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    else:
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
    # A live server process in tests (daphne, a Celery worker) must reach the same test
    # database as pytest: without an explicit TEST name it would connect to another one.
    DATABASES["default"]["TEST"] = {"NAME": "test_" + DATABASES["default"]["NAME"]}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_FILE),
            # Writers queue (BEGIN IMMEDIATE) rather than fail: the live table, the
            # in-process tasks and the analysis thread write from their own threads, and
            # a deferred transaction's upgrade from reader to writer fails at once with
            # "database is locked". WAL lets readers go on while one writes.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": BASE_DIR / "test-db.sqlite3"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Redis: channel layer and Celery broker ----------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# The channel layer may be sharded over several Redis servers (CHANNEL_REDIS_URLS,
# comma-separated; channels-redis spreads groups and channels over them by hash). It is
# channels-redis's pub/sub layer: one PUBLISH per group send, where the list-based
# layer (CHANNEL_LAYER=core) runs several commands and costs the ASGI processes more
# CPU per move (docs/benchmarks-log.md, "The pub/sub layer and lighter socket hops").
CHANNEL_REDIS_URLS = [
    url.strip() for url in os.environ.get("CHANNEL_REDIS_URLS", REDIS_URL).split(",") if url.strip()
]
if REDIS_URL:
    # socket_timeout None: redis-py 8's 5 s default socket timeout collides with
    # channels-redis's blocking read, and idle WebSockets (a player waiting for the
    # opponent) were closed with code 1011 after ~5 s.
    _channel_hosts = [{"address": url, "socket_timeout": None} for url in CHANNEL_REDIS_URLS]
    if os.environ.get("CHANNEL_LAYER", "pubsub") == "pubsub":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "ginsite.channel_layer.ReconnectingRedisPubSubChannelLayer",
                "CONFIG": {
                    "hosts": _channel_hosts,
                    "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
                },
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    "hosts": _channel_hosts,
                    "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
                    "capacity": 1500,
                    "expiry": 30,
                },
            }
        }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # Shared cache: rate limits (allauth's login throttling, chat, match creation) hold
    # across all ASGI processes.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "gin"),
        }
    }
else:
    # Channels' in-memory layer, which tells the publisher the server's loop
    # (ginsite/runtime.py: whatever joins a group, a socket or a bot's HTTP stream).
    CHANNEL_LAYERS = {"default": {"BACKEND": "ginsite.runtime.EmbeddedChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    # Embedded default: tasks run in-process, no worker needed.
    CELERY_TASK_ALWAYS_EAGER = True
# The embedded mode runs the beat schedule below on a thread of the site's process
# (ginsite/embedded_beat.py); with REDIS_URL, celery beat does.
EMBEDDED_SCHEDULER = not REDIS_URL and env_bool("EMBEDDED_SCHEDULER", True)

CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fix-up would close the database connection around every task (a new
# PostgreSQL backend per clock tick and per computer move); it closes it only every this
# many tasks, and ginsite/celery.py closes it when broken or older than CONN_MAX_AGE.
CELERY_DB_REUSE_MAX = 10_000
CELERY_BEAT_SCHEDULER = "ginsite.beat_scheduler:Scheduler"
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {}

# --- Auth and accounts (allauth 65) --------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
SITE_ID = 1
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_ADAPTER = "accounts.guest_signup.AccountAdapter"
# Paths under /players/ that a username must not shadow.
ACCOUNT_USERNAME_BLACKLIST = ["settings", "etiquette", "computer"]
# Login throttling: failed logins are limited per IP and per account (allauth, backed by
# the shared cache).
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
# Proxies in front of the ASGI processes that append to X-Forwarded-For (nginx: 1): the
# client address of allauth's login throttling and of the lobby's rate limits.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "/accounts/login/"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif os.environ.get("EMAIL_FILE_PATH"):
    # Each e-mail a file in that directory (the tests read the outbox of the server and
    # worker processes they start: tests/workers.py).
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Gin Rummy <noreply@localhost>")

# --- I18N, static ----------------------------------------------------------------
# The site speaks these languages (ginsite/i18n.py: the account's choice, else the
# chooser's cookie, else the browser's); the translations are in locale/, compiled
# .mo files committed, so running the site needs no gettext.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("pt-br", "Português (Brasil)"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("it", "Italiano"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Numbers people read are grouped as each language writes them (1,234; 1.234; 1 234)
# where the templates ask for it (django.contrib.humanize's intcomma, the boards' tag)
# and the browser code's formatNumber: USE_THOUSAND_SEPARATOR stays off, so the numbers
# in attributes, URLs and JSON stay plain. ginsite/formats/ has the site's own formats.
FORMAT_MODULE_PATH = ["ginsite.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Times are stored in UTC and shown in the browser's zone (the tz cookie); the boards'
# weeks and months are UTC.
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# Where collectstatic writes (STATIC_ROOT overrides it: the tests collect into a folder of
# their own).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or EMBEDDED
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# The embedded mode needs no collectstatic: WhiteNoise serves the apps' static files
# where they are, with DEBUG off too (read at start: restart after editing them), and
# need not warn at start that collectstatic's folder is missing.
WHITENOISE_USE_FINDERS = DEBUG or EMBEDDED
if EMBEDDED:
    warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)

# --- Production hardening (DEBUG off) ------------------------------------------
# Not in the embedded mode, whose server speaks plain HTTP on this machine: cookies
# sent over HTTPS only and a redirect to HTTPS would lock its visitors out.
if not DEBUG and not EMBEDDED:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# --- Content Security Policy (django-csp; docs/operations.md) ---------------------
# Everything from the site itself: no inline script, no inline style (the templates
# use classes; scripts set styles through CSSOM, which the policy allows), no eval.
# In every mode, DEBUG included (django-csp leaves out only Django's debug 404 and
# 500 pages, whose inline styles are Django's own).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        # The sockets too: ginsite/csp.py adds ws:// and wss:// of the page's host.
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],  # the offline app's service worker (/sw.js)
        "manifest-src": ["'self'"],  # its manifest (/manifest.webmanifest)
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# JSON lines in production (LOG_FORMAT=json, the default when DEBUG is off); lines for
# people, and no line per request, in a terminal (DEBUG, or the embedded mode).
_TERMINAL = DEBUG or EMBEDDED
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if _TERMINAL else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "ginsite.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Requests are logged once, as JSON, by ginsite.logs.RequestLogMiddleware.
        "django.server": {"level": "WARNING"},
        "ginsite.request": {
            "level": os.environ.get("REQUEST_LOG_LEVEL", "WARNING" if _TERMINAL else "INFO")
        },
        # The embedded scheduler runs periodic tasks in-process: no line per run
        # (failures are still logged).
        "celery.app.trace": {"level": "WARNING" if EMBEDDED_SCHEDULER else "INFO"},
    },
}

# --- Game platform settings -----------------------------------------------------
# Human-like pause before a computer opponent moves, in seconds.
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "0.8"))
# Live play (docs/operations.md): every second the matches whose turn clock is due are
# checked (one indexed read when none is); every 30 s the sweep behind it also expires
# the sockets of dead processes and replaces lost computer-move tasks.
CELERY_BEAT_SCHEDULE["games-clock-tick"] = {
    "task": "games.clock_tick",
    "schedule": 1.0,
    "options": {"expires": 5},
}
CELERY_BEAT_SCHEDULE["games-clock-sweep"] = {"task": "games.clock_sweep", "schedule": 30.0}
# Friend invitations nobody accepted close after 24 hours (games/services/matches.py).
CELERY_BEAT_SCHEDULE["games-invites-expire"] = {"task": "games.invites_expire", "schedule": 600.0}
# Correspondence matches whose turn ran out lose (games/services/correspondence.py).
CELERY_BEAT_SCHEDULE["games-correspondence-clock"] = {
    "task": "games.correspondence_clock", "schedule": 300.0,
}
LEADERBOARD_MIN_MATCHES = int(os.environ.get("LEADERBOARD_MIN_MATCHES", "5"))
LEADERBOARD_MIN_COMPUTER_MATCHES = int(os.environ.get("LEADERBOARD_MIN_COMPUTER_MATCHES", "10"))
# How many matches between the same two players count on a weekly or monthly board
# (their first ones of the period): leaderboards/selectors.py says why three.
LEADERBOARD_PAIR_LIMIT = int(os.environ.get("LEADERBOARD_PAIR_LIMIT", "3"))
# Part of the offline app's cache version (games/offline_views.py): changing it makes
# browsers install the offline table afresh even when no file changed.
OFFLINE_APP_RELEASE = os.environ.get("OFFLINE_APP_RELEASE", "")
# Leaderboards (synced into django-celery-beat's PeriodicTask table, editable in the admin).
# Every 60 s: a rated match shows on the weekly and monthly boards within a minute
# (what a run costs at 10,000 players: docs/benchmarks.md, "Leaderboards").
CELERY_BEAT_SCHEDULE["leaderboards-refresh-boards"] = {
    "task": "leaderboards.refresh_boards",
    "schedule": 60.0,
}
CELERY_BEAT_SCHEDULE["leaderboards-apply-pending-ratings"] = {
    "task": "leaderboards.apply_pending_ratings",
    "schedule": 600.0,
}
# Lobby rate limits (games/ratelimits.py): (count, window in seconds) of new matches per
# user and per client address, and of new guest accounts per client address.
MATCH_CREATE_LIMIT = (int(os.environ.get("MATCH_CREATE_PER_10_MIN", "30")), 600)
MATCH_CREATE_IP_LIMIT = (int(os.environ.get("MATCH_CREATE_PER_IP_10_MIN", "120")), 600)
GUEST_CREATE_IP_LIMIT = (int(os.environ.get("GUESTS_PER_IP_HOUR", "30")), 3600)
# Chat: longest message, and at most CHAT_RATE_COUNT messages per CHAT_RATE_SECONDS per user.
CHAT_MAX_LENGTH = int(os.environ.get("CHAT_MAX_LENGTH", "300"))
CHAT_RATE_COUNT = int(os.environ.get("CHAT_RATE_COUNT", "5"))
CHAT_RATE_SECONDS = int(os.environ.get("CHAT_RATE_SECONDS", "10"))
CHAT_HISTORY_SIZE = int(os.environ.get("CHAT_HISTORY_SIZE", "50"))
# Whether spectators of a match read its table chat (players alone ever write it).
CHAT_SPECTATORS_CAN_READ = env_bool("CHAT_SPECTATORS_CAN_READ", True)

# Bot API (games/api, docs/bot-api.md): requests per window in seconds, per token, and
# per address for reads without a token. The event and match streams send an empty
# keep-alive line after this many seconds without a line.
API_RATE_LIMIT = (int(os.environ.get("API_REQUESTS_PER_MINUTE", "300")), 60)
API_ANON_RATE_LIMIT = (int(os.environ.get("API_ANON_REQUESTS_PER_MINUTE", "60")), 60)
API_KEEPALIVE_SECONDS = float(os.environ.get("API_KEEPALIVE_SECONDS", "7"))
# How often each server process renews its seated sockets' presence (games/services/
# presence.py); a socket not renewed for three periods counts as lost. Every process
# (ASGI, worker, beat) must have the same value.
PRESENCE_RENEW_SECONDS = float(os.environ.get("PRESENCE_RENEW_SECONDS", "25"))
# Post-hand analysis (games/analysis): its tasks go to their own queue, consumed by a
# worker started with `-Q analysis` (docs/operations.md), so that live computer turns
# on the default queue never wait behind an analysis. The sweep enqueues any finished
# hand left without analysis.
CELERY_TASK_ROUTES = {"analysis.*": {"queue": "analysis"}}
# Puzzles (games/learn): the periodic job looks through the newest finished hands of
# rated matches and a few hands of self-play, on the analysis queue (the same work).
CELERY_TASK_ROUTES["learn.puzzles_generate"] = {"queue": "analysis"}
CELERY_BEAT_SCHEDULE["learn-puzzles"] = {"task": "learn.puzzles_generate", "schedule": 3600.0}
PUZZLES_PER_RUN_FROM_MATCHES = int(os.environ.get("PUZZLES_PER_RUN_FROM_MATCHES", "10"))
PUZZLES_PER_RUN_SELF_PLAY = int(os.environ.get("PUZZLES_PER_RUN_SELF_PLAY", "2"))
# Most sampled worlds per analysed decision (docs/analysis.md: error and CPU time).
ANALYSIS_MAX_WORLDS = int(os.environ.get("ANALYSIS_MAX_WORLDS", "160"))
CELERY_BEAT_SCHEDULE["analysis-sweep"] = {"task": "analysis.sweep", "schedule": 60.0}
# Tournaments (games/tournaments/services.py): start, pair, end and publish standings every
# 2 s; create the instances of the staff's recurring schedules every 10 minutes.
CELERY_BEAT_SCHEDULE["tournaments-tick"] = {
    "task": "tournaments.tick",
    "schedule": 2.0,
    "options": {"expires": 10},
}
CELERY_BEAT_SCHEDULE["tournaments-schedules"] = {"task": "tournaments.schedules",
                                                 "schedule": 600.0}
# Fair play (games/fairplay, docs/operations.md "Fair play"): every 10 minutes the
# detection summarises the newly analysed rated matches, checks their accounts against
# their rating bands and the pairs that played, and opens cases for the moderators; it
# deletes the hashed sign-up and session signals older than FAIRPLAY_SIGNAL_DAYS.
CELERY_BEAT_SCHEDULE["fairplay-detect"] = {"task": "fairplay.detect", "schedule": 600.0}
FAIRPLAY_SIGNAL_DAYS = int(os.environ.get("FAIRPLAY_SIGNAL_DAYS", "30"))
# The false-positive rate of the assistance check, per account and check (games/fairplay/
# signals.py): an honest account of a rating band is flagged this often by chance.
FAIRPLAY_ASSISTANCE_ALPHA = float(os.environ.get("FAIRPLAY_ASSISTANCE_ALPHA", "0.0005"))
# Friends and notifications (social/): the address e-mails link back to (no request
# there: they are sent by the worker), and how long a player counts as online after
# their last sign of life on a page's notification socket (it pings every 30 s).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SOCIAL_ONLINE_SECONDS = int(os.environ.get("SOCIAL_ONLINE_SECONDS", "75"))
# Entrants of a tournament starting within five minutes are told (social/services.py).
CELERY_BEAT_SCHEDULE["social-tournament-reminders"] = {
    "task": "social.tournament_reminders", "schedule": 60.0, "options": {"expires": 50},
}
