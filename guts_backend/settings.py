"""Settings, all from the environment, with embedded defaults that need no server.

DATABASE_URL       default: SQLite file under var/ (PostgreSQL in production and CI)
CELERY_BROKER_URL  default: kombu's filesystem transport under var/ (Redis in production and CI)
CACHE_URL          default: the broker's Redis if it is one, else the database cache (`db://`)
GUTS_TOKEN_LIFETIME, GUTS_AUTH_CACHE_* (the auth cache), GUTS_LOGIN_* (login throttling),
                   GUTS_NUM_PROXIES: see docs/api.md
SECRET_KEY, DEBUG (default off; `make run` turns it on), ALLOWED_HOSTS, GUTS_ALLOW_STACKED_DECKS,
GUTS_SWEEP_INTERVAL, GUTS_TIMER_DISPATCH_INTERVAL, GUTS_TIMER_LOOKAHEAD (docs/timers.md),
and the HTTPS switches GUTS_SECURE_* / GUTS_HSTS_* (README, Configuration)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("GUTS_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
DEBUG = env_bool("DEBUG", False)  # never on by default: its error pages show these settings
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "http://localhost:8000,http://127.0.0.1:8000")

# HTTPS: on whenever DEBUG is off, so `manage.py check --deploy` passes. Behind a TLS proxy, either
# trust its X-Forwarded-Proto (GUTS_TRUST_X_FORWARDED_PROTO=1) or let it redirect
# (GUTS_SECURE_SSL_REDIRECT=0); plain-HTTP setups (compose on localhost, tests) turn the redirect off.
SECURE_SSL_REDIRECT = env_bool("GUTS_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("GUTS_TRUST_X_FORWARDED_PROTO", False) else None
)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("GUTS_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("GUTS_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("GUTS_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("GUTS_HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "guts_backend",
    "http_edge",
    "ledger",
    "tables",
    "tournaments",
    "tables.web",  # the pages for people: templates and static files of their own
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "guts_backend.urls"
WSGI_APPLICATION = "guts_backend.wsgi.application"
ASGI_APPLICATION = "guts_backend.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'guts.sqlite3'}")
# Connections are checked before they are reused (CONN_HEALTH_CHECKS: a persistent one at a request's
# first query, a pooled one when taken from the pool), so one the database dropped is replaced
# instead of failing a request; a failure mid-request is a 503 (guts_backend.handlers, docs/api.md).
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock at BEGIN, so web and worker processes queue instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif env_bool("GUTS_DB_POOL", False):
    # The web server (guts_backend.asgi turns this on) serves requests and streams on many
    # threads: a pool per process (Django requires CONN_MAX_AGE 0 with one). Its health check asks
    # the server only when a connection's socket says it was dropped, or after a long idle spell
    # (guts_backend.dbpool, which guts_backend.asgi installs), not before every request. Waiting
    # over 10 s for a connection is an OperationalError, as an unreachable database is.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("GUTS_DB_POOL_SIZE", "10")),
        "timeout": 10,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Session login for the pages (tables.web); the API authenticates by token or this session.
LOGIN_URL = "web-login"

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns on every request otherwise
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "http_edge.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Proxies in front of the app that append to X-Forwarded-For; 0 trusts only REMOTE_ADDR.
    "NUM_PROXIES": int(os.environ.get("GUTS_NUM_PROXIES", "0")),
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "guts_backend.handlers.problem_exception_handler",
    # Nesting-limited JSON (a body 1,000 deep was a RecursionError, a 500); an unknown ?format= is 406.
    "DEFAULT_PARSER_CLASSES": [
        "http_edge.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "http_edge.api.negotiation.ProblemContentNegotiation",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "COERCE_DECIMAL_TO_STRING": False,
}

# API tokens and login throttling (docs/api.md): a fixed token lifetime in seconds; failed logins
# per username and per client address in a window of seconds, then a lockout of seconds.
GUTS_TOKEN_LIFETIME = int(os.environ.get("GUTS_TOKEN_LIFETIME", str(7 * 24 * 3600)))
GUTS_LOGIN_FAILURES_PER_USERNAME = int(os.environ.get("GUTS_LOGIN_FAILURES_PER_USERNAME", "5"))
GUTS_LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("GUTS_LOGIN_FAILURES_PER_ADDRESS", "30"))
GUTS_LOGIN_FAILURE_WINDOW = int(os.environ.get("GUTS_LOGIN_FAILURE_WINDOW", "60"))
GUTS_LOGIN_LOCKOUT = int(os.environ.get("GUTS_LOGIN_LOCKOUT", "300"))
# The per-process auth cache (http_edge.principal): an entry's age limit in seconds (0 turns the
# cache off), how many entries, and how often the shared cache is asked whether another process
# revoked a token or changed a role.
GUTS_AUTH_CACHE_SECONDS = float(os.environ.get("GUTS_AUTH_CACHE_SECONDS", "5"))
GUTS_AUTH_CACHE_SIZE = int(os.environ.get("GUTS_AUTH_CACHE_SIZE", "10000"))
GUTS_AUTH_CACHE_SYNC_SECONDS = float(os.environ.get("GUTS_AUTH_CACHE_SYNC_SECONDS", "1"))

SPECTACULAR_SETTINGS = {
    "TITLE": "Guts club backend API",
    "DESCRIPTION": (
        "Event-sourced ledger and table backend for Guts poker clubs. Errors are RFC 9457 problem "
        "details with a stable `code`. Every state-changing POST accepts an `Idempotency-Key` header."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every closed set is a named enum (tables.engine.decider.vocabulary names the table's words).
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,  # the values are the words; no "* `in` - in" lists
    "ENUM_NAME_OVERRIDES": {
        "ProblemCode": "http_edge.api.errors.PROBLEM_CODES",
        "TableStatus": "tables.engine.decider.vocabulary.TABLE_STATUSES",
        "TablePhase": "tables.engine.decider.vocabulary.PHASES",
        "DealOutcome": "tables.engine.decider.vocabulary.OUTCOMES",
        "Declared": "tables.engine.decider.vocabulary.DECLARED",
        "DeclareChoice": "tables.engine.decider.vocabulary.DECLARE_CHOICES",
        "DeclareMode": "tables.engine.decider.vocabulary.DECLARE_MODES",
        "EscalationLevel": "tables.engine.decider.vocabulary.ESCALATION_LEVELS",
        "EscalationChoice": "tables.engine.decider.vocabulary.ESCALATION_CHOICES",
        "BetChoice": "tables.engine.decider.vocabulary.BET_CHOICES",
        "BetLimit": "tables.engine.decider.vocabulary.BET_LIMITS",
        "OfferChoice": "tables.engine.decider.vocabulary.OFFER_CHOICES",
        "TrumpChoice": "tables.engine.decider.vocabulary.TRUMP_CHOICES",
        "TournamentStatus": "tournaments.selectors.STATUSES",
        "CancelSettlement": "tournaments.engine.config.CANCEL_SETTLEMENTS",
        "CancelFees": "tournaments.engine.config.CANCEL_FEES",
    },
    # The order of the docs' sections (Swagger UI and ReDoc open on the first): tables first.
    "TAGS": [
        {"name": "tables", "description": "Open, join and play tables: the table view and every command."},
        {"name": "tournaments", "description": "Create, register for, start and follow tournaments."},
        {"name": "me", "description": "Where am I: my seats, my tournaments and my live stream."},
        {"name": "deals", "description": "Finished deals, per table and per player, redacted for you."},
        {"name": "players", "description": "Register players and read their profiles."},
        {"name": "cashier", "description": "Deposits and withdrawals of a player's bankroll."},
        {"name": "statements", "description": "A player's balance and statement."},
        {"name": "auth", "description": "Tokens: log in, log out, who am I."},
        {
            "name": "audit",
            "description": "Hand histories, proofs, replays, event feeds and the ledger's checks.",
        },
        {"name": "disputes", "description": "Disputes of a deal or a cashier transaction, and their holds."},
    ],
    "SORT_OPERATIONS": "http_edge.api.schema.operation_order",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "http_edge.api.schema.placeholders_as_code",
    ],
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "docExpansion": "list", "displayOperationId": False},
}

# Celery. The embedded default is kombu's filesystem transport: no broker server, ETAs still work
# because the worker holds ETA tasks itself.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker outage is waited out however long it lasts (Celery's default gives up after 100 retries and
# the worker exits); compose's `restart: unless-stopped` stays the second line (docs/timers.md).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = "UTC"
# One queue name for tasks and beat; a test run sets its own so it never shares tasks with others.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("GUTS_CELERY_QUEUE", "celery")
# `manage.py serve` (make run): the worker's and beat's log level; WARNING keeps an idle demo quiet
# (beat's "Sending due task" and the worker's task lines are INFO). The server's (uvicorn) likewise.
GUTS_CELERY_LOG_LEVEL = os.environ.get("GUTS_CELERY_LOG_LEVEL", "WARNING").upper()
GUTS_SERVER_LOG_LEVEL = os.environ.get("GUTS_SERVER_LOG_LEVEL", "info").lower()
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_dir = VAR_DIR / "celery-queue"
    for _folder in (_queue_dir, VAR_DIR / "celery-processed", VAR_DIR / "celery-control"):
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "control_folder": str(VAR_DIR / "celery-control"),  # kombu's default is ./control
        "store_processed": False,
    }
else:
    # ETA tasks wait unacknowledged in the worker; the visibility timeout must exceed any ETA we
    # schedule (declare_timeout is at most 3600 s), or Redis redelivers them early. The sweeper
    # covers a worker that dies holding them.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 7200}

# The cache holds state every process must share (login throttling): Redis when there is one,
# else a database table (guts_backend's migrations create it), never per-process memory.
CACHE_URL = os.environ.get("CACHE_URL") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "db://"
)
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "guts",
        }
    }
elif CACHE_URL == "db://":
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "guts_cache",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
else:
    raise ImproperlyConfigured(f"CACHE_URL must be redis://, rediss:// or db://, not {CACHE_URL!r}")
# Where login throttling counts while the default cache is unreachable (http_edge.login).
CACHES["login-fallback"] = {
    "BACKEND": "django.core.cache.backends.db.DatabaseCache",
    "LOCATION": "guts_cache",
    "KEY_PREFIX": "login-fallback",
    "OPTIONS": {"MAX_ENTRIES": 100_000},
}

# Tables.
GUTS_ALLOW_STACKED_DECKS = env_bool("GUTS_ALLOW_STACKED_DECKS", False)
GUTS_SWEEP_INTERVAL = float(os.environ.get("GUTS_SWEEP_INTERVAL", "2.0"))
# The timer dispatcher in beat (docs/timers.md): it reads the deadlines every interval and sends the
# expiry of those due within the lookahead. The interval must stay well under the smallest
# declare_timeout (1 s), so a window is sent before its deadline.
GUTS_TIMER_DISPATCH_INTERVAL = float(os.environ.get("GUTS_TIMER_DISPATCH_INTERVAL", "0.25"))
GUTS_TIMER_LOOKAHEAD = float(os.environ.get("GUTS_TIMER_LOOKAHEAD", "2.0"))
# The timeout sweeper (docs/timers.md): a sweep not started within one interval is dropped, the
# next one does its work.
# Tournaments (docs/tournaments.md): the service sends its Celery tasks after commit
# (GUTS_TOURNAMENT_TASKS=0 turns that off, e.g. for benchmarks that drive the clock themselves);
# the sweeper ticks every running tournament every GUTS_TOURNAMENT_SWEEP_INTERVAL seconds.
GUTS_TOURNAMENT_TASKS = env_bool("GUTS_TOURNAMENT_TASKS", True)
GUTS_TOURNAMENT_SWEEP_INTERVAL = float(os.environ.get("GUTS_TOURNAMENT_SWEEP_INTERVAL", "5.0"))
# The fees of a tournament cancelled after its start (recorded at creation): "refund" or "keep".
GUTS_TOURNAMENT_CANCEL_FEES = os.environ.get("GUTS_TOURNAMENT_CANCEL_FEES", "refund")
# At most this many tournaments a sweep: healthy ones first, the least recently ticked first.
GUTS_TOURNAMENT_SWEEP_BATCH = int(os.environ.get("GUTS_TOURNAMENT_SWEEP_BATCH", "200"))
# Disputes and checkpoints (docs/disputes.md, docs/audit.md): a dispute may be opened up to
# GUTS_DISPUTE_WINDOW seconds after its deal or transaction, and is decided within as long again or
# expires (its hold voided) when beat's dispatcher, every GUTS_DISPUTE_SWEEP_INTERVAL seconds, finds
# it due. A checkpoint is published every GUTS_CHECKPOINT_INTERVAL seconds, signed with
# GUTS_CHECKPOINT_KEY (64 hex digits, an Ed25519 seed; unset: a development key from SECRET_KEY).
GUTS_DISPUTE_WINDOW = int(os.environ.get("GUTS_DISPUTE_WINDOW", str(7 * 24 * 3600)))
GUTS_DISPUTE_SWEEP_INTERVAL = float(os.environ.get("GUTS_DISPUTE_SWEEP_INTERVAL", "5.0"))
GUTS_CHECKPOINT_INTERVAL = float(os.environ.get("GUTS_CHECKPOINT_INTERVAL", "3600"))
GUTS_CHECKPOINT_KEY = os.environ.get("GUTS_CHECKPOINT_KEY", "")
CELERY_BEAT_SCHEDULE = {
    "expire-disputes": {
        "task": "ledger.dispatch_dispute_expiries",
        "schedule": GUTS_DISPUTE_SWEEP_INTERVAL,
        "options": {"expires": GUTS_DISPUTE_SWEEP_INTERVAL},
    },
    "publish-checkpoint": {
        "task": "ledger.publish_checkpoint",
        "schedule": GUTS_CHECKPOINT_INTERVAL,
        "options": {"expires": GUTS_CHECKPOINT_INTERVAL},
    },
    "sweep-overdue-declares": {
        "task": "tables.sweep_overdue_declares",
        "schedule": GUTS_SWEEP_INTERVAL,
        "options": {"expires": GUTS_SWEEP_INTERVAL},
    },
    "sweep-tournaments": {
        "task": "tournaments.sweep",
        "schedule": GUTS_TOURNAMENT_SWEEP_INTERVAL,
        "options": {"expires": GUTS_TOURNAMENT_SWEEP_INTERVAL},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
