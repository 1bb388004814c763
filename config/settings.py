"""Settings for Sudoku Showdown: one module, configured by environment variables.

With no environment set this is the embedded default: SQLite and the in-memory channel
layer, so a fresh clone runs at once. DATABASE_URL and REDIS_URL switch on PostgreSQL,
channels-redis and the Redis Celery broker. DJANGO_DEBUG=false is production mode.
"""

import datetime
import ipaddress
import os
from pathlib import Path

import dj_database_url
import dj_email_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy

from .env import env_bool, env_float, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false (production mode)")
    SECRET_KEY = "dev-only-insecure-key-change-me-for-production-0123456789abcdef"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",  # must come before staticfiles: runserver becomes daphne (HTTP + sockets)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",  # admin sign-in attempts limited per address and per username (below)
    "allauth",  # accounts: sign-in by a code sent by email, passkeys (docs/rules.md section 6)
    "allauth.account",
    "allauth.mfa",
    "accounts",
    "players",
    "games",
    "games.daily",  # daily puzzles (docs/rules.md section 7): Daily, the job choosing them, boards
    "games.cardoku",
    "games.domino",
    "rooms",
    "stats",
    "pool",  # Race now: the pairing pool and its public races (docs/rules.md 9)
    "replays",  # replays of finished races, and ghosts to race (docs/rules.md 10)
    "arenas",  # arenas: an hour of rooms paired continuously, one table (docs/rules.md 12)
    "friends",  # handles, follows, blocks, notifications, who is online (docs/rules.md 11)
    "leagues",  # weekly leagues of up to 30 (docs/rules.md 11)
    "notify",  # scheduled showdowns' reminders: Web Push (VAPID), email, the Reminder rows
    "pages",  # the home page and How to Play, above every game
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Accept-Language, or the footer's cookie
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "players.middleware.PlayerMiddleware",
    "config.database.DatabaseAwayMiddleware",  # a dropped connection mid-request: 503 "try again"
    "players.middleware.NoStoreBoardsMiddleware",
    "config.errorpages.StyledErrorPagesMiddleware",  # the styled 404 and 500 pages with DEBUG on too
    "axes.middleware.AxesMiddleware",  # answers a locked-out sign-in with 429 (must come last)
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
# HTTP requests served at once per daphne process (each holds a database connection;
# the rest wait their turn). Keep processes x (this + 2) under PostgreSQL's max_connections.
HTTP_CONCURRENCY = env_int("HTTP_CONCURRENCY", 16)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "players.context_processors.player",
                "accounts.context_processors.email_console",
                "friends.context_processors.me",
            ],
            "builtins": ["django_htmx.templatetags.django_htmx"],
        },
    }
]

# --- Database: SQLite by default, PostgreSQL (psycopg 3) via DATABASE_URL ---
DATABASE_URL = env_url("DATABASE_URL", {"postgres", "postgresql", "sqlite"})
if DATABASE_URL:
    try:
        # No persistent connections: under ASGI every HTTP request runs in a thread of its
        # own, so a kept connection is never reused and piles up until PostgreSQL refuses
        # more (Django's docs: disable them under ASGI). HTTP_CONCURRENCY bounds the rest.
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is malformed: {error}") from None
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # A psycopg connection pool per process: threads borrow a ready connection instead
        # of opening one per request or socket message, and the pool caps what PostgreSQL sees.
        # check: a connection the server dropped (pg_terminate_backend, a restart) is found
        # out and replaced when it is handed out, not used for a request that then fails.
        from .database import check_connection

        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": env_int("DATABASE_POOL_MAX", 20),
            "timeout": 20,
            "check": check_connection,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "db.sqlite3"),
            # Rooms lock rows while writing; SQLite serializes writers, so wait, don't fail.
            # WAL + synchronous=NORMAL: a commit is no longer an fsync (~1.5 ms a move),
            # readers never wait for the writer; a power cut (not a crash of the app) may
            # lose the last commits, never corrupt the file (bench/README.md, "Moves").
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
            # A file, not memory: browser tests share the test database with a daphne process.
            # Named per process so parallel test runs never share one file.
            "TEST": {"NAME": BASE_DIR / f".test_db-{os.getpid()}.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache (rate limits) and Celery broker ---
REDIS_URL = env_url("REDIS_URL", {"redis", "rediss"})
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # A room fans out to up to 5 players plus spectators; the default capacity
            # of 100 silently drops messages under load (clients resync on reconnect).
            # socket_timeout: redis-py 8 defaults it to 5 s, the same as the layer's blocking
            # read (BZPOPMIN, 5 s), so every consumer that got no group message for 5 s died
            # with "Timeout reading" and its socket closed (django/channels_redis#422).
            # max_connections: redis-py 8's pool holds 100 and then raises, so a burst of
            # sockets connecting at once (each group_add takes a connection) got HTTP 500s.
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000),
                    }
                ],
                "capacity": 1500,
                "expiry": 30,
            },
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    # No broker: tasks run in-process when called.
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_ACKS_LATE = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "fill-puzzle-bank": {"task": "games.tasks.fill_puzzle_bank", "schedule": 60.0},
    "sweep-rooms": {"task": "rooms.tasks.sweep_rooms", "schedule": env_float("SWEEP_SECONDS", 15.0)},
    "sweep-domino": {
        "task": "games.domino.tasks.sweep_overdue_domino_games",
        "schedule": env_float("SWEEP_SECONDS", 15.0),
    },
    # Scheduled showdowns' reminders (notify/): each sent once however often this runs.
    "send-reminders": {"task": "notify.tasks.send_reminders", "schedule": env_float("REMINDER_SECONDS", 15.0)},
    # Daily puzzles (games/daily/schedule.py): the next DAILY_DAYS_AHEAD days chosen; idempotent.
    "choose-daily-puzzles": {"task": "games.daily.tasks.choose_daily_puzzles", "schedule": 600.0},
    # Race now (pool/tasks.py): pairs the levels somebody waits at, refreshes the home counts.
    "tick-pools": {"task": "pool.tasks.tick_pools", "schedule": env_float("POOL_TICK_SECONDS", 5.0)},
    # Replays (replays/): any finished room whose tracks were not recorded at its finish.
    "record-replays": {"task": "replays.tasks.record_finished_rooms", "schedule": 60.0},
    # Leagues (leagues/close.py): closes last week once, whatever the number of runs.
    "close-league-weeks": {"task": "leagues.tasks.close_weeks", "schedule": 3600.0},
    # Arenas (arenas/): the site's schedule, and every running arena's pairing.
    "schedule-arenas": {"task": "arenas.tasks.schedule_arenas", "schedule": 600.0},
    "tick-arenas": {"task": "arenas.tasks.tick_arenas", "schedule": env_float("ARENA_TICK_SECONDS", 3.0)},
    # Friends online (friends/presence.py): rows of pages whose process died.
    "sweep-presence": {"task": "friends.tasks.sweep_presence", "schedule": 600.0},
}

# --- Reminders (notify/): Web Push keys (VAPID, RFC 8292) and the site's address for links ---
# Unset: the embedded default makes a key pair once and keeps it in the database. Keep one
# pair for good: browsers subscribed with its public key, a new pair orphans them all.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY")  # base64url, raw 32 bytes (or DER)
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY")  # optional: checked against the private key
VAPID_CONTACT = env_str("VAPID_CONTACT", "mailto:admin@localhost")  # push services write here about abuse
SITE_URL = env_str("SITE_URL", "http://localhost:8000")  # the links in reminder emails
# Where a push may go and for how long (issue 45; notify/endpoints.py, notify/webpush.py).
# Endpoint hosts allowed, each with its subdomains (FCM, Mozilla, Apple, Windows); an empty
# list allows any host whose addresses are all public (those are required either way).
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS", ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"]
)
# Tests only, deliberately not read from the environment: the suite's real Web Push peer listens
# on http://127.0.0.1. One switch admitting loopback (and plain http to it) and nothing else is
# the smallest opening that keeps the protocol tested end to end; private ranges stay refused.
PUSH_ALLOW_LOOPBACK_FOR_TESTS = False
PUSH_SEND_SECONDS = env_float("PUSH_SEND_SECONDS", 5.0)  # one push in all: connect to its answer
# Reminders on a queue of their own, so room sweeps never wait behind slow push services. A
# worker started without -Q consumes every queue listed (the README's command, unchanged);
# `celery -A config worker -Q reminders` and `-Q celery` split them over separate workers.
CELERY_TASK_ROUTES = {"notify.tasks.send_reminders": {"queue": "reminders"}}
CELERY_TASK_QUEUES = {"celery": {"routing_key": "celery"}, "reminders": {"routing_key": "reminders"}}

# --- Game settings ---
PUZZLE_BANK_TARGET = env_int("PUZZLE_BANK_TARGET", 10)  # ready puzzles kept per level
# Generate a puzzle inside the request when the bank is empty even though a broker is set:
# for test and load runs that start no Celery worker (make test sets it). Production keeps
# it off: a request never waits for a generator there (games/bank.py).
PUZZLE_BANK_INLINE = env_bool("PUZZLE_BANK_INLINE", False)
COUNTDOWN_SECONDS = env_float("COUNTDOWN_SECONDS", 3.0)

# --- Daily puzzles (docs/rules.md section 7, games/daily/, docs/operations.md "Daily puzzles") ---
DAILY_DAYS_AHEAD = env_int("DAILY_DAYS_AHEAD", 7)  # dates chosen ahead of today (UTC)
# Fair play: a ranked daily finish is held "under review" when DAILY_FAST_ENTRIES or more
# consecutive entries came with a median gap under DAILY_FAST_GAP_MS milliseconds (faster
# than a person types), or when its time is under DAILY_MEDIAN_FRACTION of the daily's
# median once DAILY_MEDIAN_MIN_FINISHES players have finished it.
DAILY_FAST_ENTRIES = env_int("DAILY_FAST_ENTRIES", 20)
DAILY_FAST_GAP_MS = env_int("DAILY_FAST_GAP_MS", 150)
DAILY_MEDIAN_FRACTION = env_float("DAILY_MEDIAN_FRACTION", 1 / 3)
DAILY_MEDIAN_MIN_FINISHES = env_int("DAILY_MEDIAN_MIN_FINISHES", 20)
# Issue 45 item 3: a bot at 160 ms a digit passed the burst rule. Also held: a finish faster
# than a person can solve the level (seconds per empty cell, below the fastest published human
# times: README, "Fair play"), and a whole run whose entries came at a median gap under
# DAILY_RUN_GAP_MS (a person solving a daily stops to think: seconds between entries).
DAILY_FLOOR_SECONDS_PER_CELL = {
    "easy": env_float("DAILY_FLOOR_EASY", 0.6),
    "medium": env_float("DAILY_FLOOR_MEDIUM", 1.0),
    "hard": env_float("DAILY_FLOOR_HARD", 1.8),
    "expert": env_float("DAILY_FLOOR_EXPERT", 2.5),
}
DAILY_RUN_GAP_MS = env_int("DAILY_RUN_GAP_MS", 500)
# --- Friends and leagues (friends/, leagues/, docs/rules.md 11) ---
FOLLOW_MAX = env_int("FOLLOW_MAX", 400)  # follows per account
PRESENCE_STALE_SECONDS = env_int("PRESENCE_STALE_SECONDS", 90)  # a page's row unrefreshed this long is gone
PRESENCE_LEAVE_GRACE_SECONDS = env_float("PRESENCE_LEAVE_GRACE_SECONDS", 4.0)  # a navigation is not "offline"
LEAGUE_SIZE = env_int("LEAGUE_SIZE", 30)
# Arenas (arenas/, docs/rules.md 12). The lengths a host may pick are minutes; tests shorten
# an arena by its own `minutes` (any positive number stored), not by these.
ARENA_FINISH_GRACE_SECONDS = env_int("ARENA_FINISH_GRACE_SECONDS", 60)  # a room ends this long after its first finish
ARENA_REMATCH_SECONDS = env_float("ARENA_REMATCH_SECONDS", 20.0)  # the same room again, when nobody else waits
ARENA_NO_NEW_ROOM_SECONDS = env_int("ARENA_NO_NEW_ROOM_SECONDS", 120)  # no room starts this close to the end
# Each process ticks the arenas it has open pages of this often (arenas/live.py; 0: only beat's
# and the pages' own loads tick): the waiting are paired without polling.
ARENA_PAGE_TICK_SECONDS = env_float("ARENA_PAGE_TICK_SECONDS", 1.0)
ARENA_ROOMS_PER_TICK = env_int("ARENA_ROOMS_PER_TICK", 40)  # rooms a tick makes; the rest wait for the next
LEAGUE_TIERS = 10
LEAGUE_MOVES = 5  # the top 5 move up a tier, the bottom 5 who played move down

DAILY_BOARD_SIZE = env_int("DAILY_BOARD_SIZE", 100)  # places listed on a daily's board
DAILY_BOARD_CACHE_SECONDS = env_float("DAILY_BOARD_CACHE_SECONDS", 5.0)  # a board is read from the cache this long
NEAR_TIE_SECONDS = env_float("NEAR_TIE_SECONDS", 1.0)

# --- Showdown rating (docs/rules.md section 8, stats/ratings.py; ARCHITECTURE.md "Showdown rating and rankings") ---
# Weng-Lin Plackett-Luce at openskill's defaults (mu 25, sigma 25/3); the shown number is
# 1500 + RATING_SCALE x (mu - 3 sigma): 1500 at the start, rising as the rating grows certain.
RATING_SCALE = env_float("RATING_SCALE", 20.0)
# Provisional ("?") while sigma is above this: about 10 rated rooms of 2-3 players.
RATING_PROVISIONAL_SIGMA = env_float("RATING_PROVISIONAL_SIGMA", 6.7)
# Sigma grows by this (in quadrature) per idle week beyond RATING_IDLE_GRACE_DAYS, never past
# the starting sigma; the grace is the rankings' activity window, so ranked players never decay.
RATING_IDLE_SIGMA_PER_WEEK = env_float("RATING_IDLE_SIGMA_PER_WEEK", 0.5)
RATING_IDLE_GRACE_DAYS = env_int("RATING_IDLE_GRACE_DAYS", 30)
# The same group of accounts rates at most this many rooms together per UTC day.
RATING_GROUP_ROOMS_PER_DAY = env_int("RATING_GROUP_ROOMS_PER_DAY", 5)
# The rankings' top list: at least this many rated rooms and a rated room in the last N days.
RANKING_MIN_ROOMS = env_int("RANKING_MIN_ROOMS", 10)
# The top list also needs rated rooms against this many different established players
# (issue 45 item 4), and a forfeit this early in a room leaves it unrated for everyone.
RANKING_MIN_RIVALS = env_int("RANKING_MIN_RIVALS", 8)
RATING_EARLY_FORFEIT_SECONDS = env_float("RATING_EARLY_FORFEIT_SECONDS", 30.0)
RANKING_ACTIVE_DAYS = env_int("RANKING_ACTIVE_DAYS", 30)

# --- Limits per client (games/common/limits.py, rooms/limits.py) ---
# Proxies whose X-Forwarded-For is believed (IPs or CIDRs, e.g. "127.0.0.1,10.0.0.0/8"). Empty:
# REMOTE_ADDR is the client (direct, or daphne --proxy-headers already put the client there).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
try:
    [ipaddress.ip_network(entry, strict=False) for entry in TRUSTED_PROXIES]
except ValueError:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES must be IP addresses or networks, got {TRUSTED_PROXIES!r}") from None
ROOM_MISS_LIMIT = env_int("ROOM_MISS_LIMIT", 10)  # unknown-code joins, room 404s, refused sockets per IP
ROOM_MISS_WINDOW = env_int("ROOM_MISS_WINDOW", 600)  # seconds
# Open room sockets per client IP in one process: a school or office behind one NAT address,
# or a load test from one machine, may need more.
ROOM_SOCKETS_PER_IP = env_int("ROOM_SOCKETS_PER_IP", 60)
# A room socket's message allowance: a sustained rate after a burst (rooms/consumers.py), and
# twice that per player over all their sockets in a process (rooms/hub.py). A person typing
# never reaches it; the browser tests' daphne raises it so that they may type a whole board at
# the machine's pace instead of a person's.
ROOM_SOCKET_RATE = env_float("ROOM_SOCKET_RATE", 10.0)
ROOM_SOCKET_BURST = env_int("ROOM_SOCKET_BURST", 20)
# Bytes a socket may hold that its client has not read (config/sockets.py): past this the
# connection is cut and its buffer freed. A full room state is about 26 KB.
SOCKET_SEND_BUFFER = env_int("SOCKET_SEND_BUFFER", 256 * 1024)
# Room socket connects (each one renders the full state) per client IP and per profile in
# ROOM_CONNECT_WINDOW seconds, charged before anything is rendered: a client cut off for
# flooding reconnected at once and bought a full render with every connect (issue 28).
ROOM_CONNECTS_PER_IP = env_int("ROOM_CONNECTS_PER_IP", 180)
ROOM_CONNECTS_PER_PROFILE = env_int("ROOM_CONNECTS_PER_PROFILE", 30)
ROOM_CONNECT_WINDOW = env_int("ROOM_CONNECT_WINDOW", 60)
# A socket refused "try later" (4429) is closed this many seconds after its accept.
ROOM_REFUSAL_HOLD = env_float("ROOM_REFUSAL_HOLD", 5.0)
CREATION_WINDOW = env_int("CREATION_WINDOW", 600)  # seconds
CREATION_LIMITS = {  # (per profile, per client IP) in each window
    "room": (env_int("ROOM_CREATE_LIMIT", 10), env_int("ROOM_CREATE_LIMIT_IP", 60)),
    "game": (env_int("GAME_CREATE_LIMIT", 30), env_int("GAME_CREATE_LIMIT_IP", 150)),
    # Race now: asking and cancelling (a flood of join/cancel is refused, docs/rules.md 9)
    "pool": (env_int("POOL_ASK_LIMIT", 30), env_int("POOL_ASK_LIMIT_IP", 300)),
    # Ranked daily starts: a start shows the puzzle, so a throwaway cookie's start reads the
    # givens for a bot (issue 45 item 3). Per IP: a household or a school shares one.
    "daily": (env_int("DAILY_START_LIMIT", 8), env_int("DAILY_START_LIMIT_IP", 40)),
    # Friends (docs/rules.md 11): follows, unfollows, blocks; invites to rooms
    "follow": (env_int("FOLLOW_LIMIT", 60), env_int("FOLLOW_LIMIT_IP", 300)),
    "invite": (env_int("INVITE_LIMIT", 30), env_int("INVITE_LIMIT_IP", 150)),
}

# --- Player cookie (anonymous Local stats profile) ---
PLAYER_COOKIE_NAME = "showdown_player"
PLAYER_COOKIE_AGE = 365 * 24 * 3600  # a year, renewed on use (players.middleware)

# --- Sign-in attempts (django-axes) ---
# Wrong passwords are counted per client address and per username; past the limit a sign-in
# is refused before the password is hashed (AxesStandaloneBackend runs first), until the
# window has passed with no new attempt. 32 clients posting wrong admin passwords took
# GET /how-to-play/ from 8 to 2,670 ms, and 60 wrong passwords in a row were all checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("SIGN_IN_LIMIT", 5)
AXES_COOLOFF_TIME = datetime.timedelta(seconds=env_int("SIGN_IN_WINDOW", 900))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]  # either one locks
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"  # counters in the cache (Redis), no rows
AXES_CLIENT_IP_CALLABLE = "games.common.limits.client_ip"  # the address the other limits use
AXES_COOLOFF_MESSAGE = gettext_lazy("Too many failed sign-in attempts. Wait a few minutes and try again.")
if not REDIS_URL:  # one process, its in-memory cache: axes warns that processes cannot share it
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

# --- Accounts (django-allauth; accounts/): email address only, a one-time code, passkeys ---
AUTHENTICATION_BACKENDS.append("allauth.account.auth_backends.AuthenticationBackend")
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "account"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*"]  # no password field: sign-up is verified by a code
ACCOUNT_USER_MODEL_USERNAME_FIELD = "username"  # filled by allauth, never asked
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_PREVENT_ENUMERATION = True  # known and unknown addresses get the same answer
ACCOUNT_EMAIL_NOTIFICATIONS = False
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Sudoku Showdown: "
ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS = 3  # wrong codes before the code is void
ACCOUNT_LOGIN_BY_CODE_TIMEOUT = 600  # seconds a sign-in code lasts
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_TIMEOUT = 600  # a sign-up code lasts as long (the mails say so)
# The code pages offer a new code (twice per code asked for; each counts against the per-IP
# limit below, accounts/urls.py), which lasts as long as the first (accounts/views.py).
ACCOUNT_LOGIN_BY_CODE_SUPPORTS_RESEND = True
ACCOUNT_EMAIL_VERIFICATION_SUPPORTS_RESEND = True
# allauth's own limits stay on (its defaults, in the cache); ours per client IP are in
# accounts/views.py (on games/common/limits.py's counter): code requests per IP per window.
ACCOUNT_CODE_REQUESTS_PER_IP = env_int("ACCOUNT_CODE_REQUESTS_PER_IP", 20)
ACCOUNT_CODE_REQUEST_WINDOW = env_int("ACCOUNT_CODE_REQUEST_WINDOW", 3600)
MFA_SUPPORTED_TYPES = ["webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True  # sign in with a passkey alone
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG  # http://127.0.0.1 in development and tests
# A passkey signs in alone and is never asked for after a code, and is called 'Passkey 2' at first
# (accounts/adapter.py); names
# have a length limit (accounts/forms.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
MFA_ADAPTER = "accounts.adapter.MFAAdapter"
# Sign-up asks for the display name and the handle (docs/rules.md 11): boards never read "Player 7220".
ACCOUNT_SIGNUP_FORM_CLASS = "friends.forms.SignupForm"
MFA_FORMS = {"add_webauthn": "accounts.forms.AddPasskeyForm", "edit_webauthn": "accounts.forms.EditPasskeyForm"}

# --- Email: one EMAIL_URL (dj-email-url), e.g. submission://user:pass@host:587 (STARTTLS) ---
# Unset: every message (the sign-in codes) is printed on the `make run` console.
EMAIL_URL = env_str("EMAIL_URL")
if EMAIL_URL:
    try:
        _email = dj_email_url.parse(EMAIL_URL)
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL is malformed: {error}") from None
    if "EMAIL_BACKEND" not in _email:
        raise ImproperlyConfigured("EMAIL_URL must be a URL with scheme smtp, submission, console (smtp://host:25)")
    MAILERS = {
        "default": {
            "BACKEND": _email["EMAIL_BACKEND"],
            "OPTIONS": {
                "host": _email["EMAIL_HOST"] or "localhost",
                "port": _email["EMAIL_PORT"] or 25,
                "username": _email["EMAIL_HOST_USER"] or "",
                "password": _email["EMAIL_HOST_PASSWORD"] or "",
                "use_tls": _email["EMAIL_USE_TLS"],
                "use_ssl": _email["EMAIL_USE_SSL"],
                "timeout": _email["EMAIL_TIMEOUT"] or 10,
            }
            if _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
            else {},
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Sudoku Showdown <noreply@localhost>")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
# English and Dutch (the Domino rules came from a Dutch site). The footer's switch posts to
# Django's set_language view, which remembers the choice in the language cookie.
LANGUAGES = [("en", "English"), ("nl", "Nederlands")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise's table has no .wav: the sound cues (static/sounds/) went out as
# application/octet-stream in production, which a strict browser may refuse to play.
WHITENOISE_MIMETYPES = {".wav": "audio/wav"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Content-Security-Policy (Django's own middleware): scripts only from our static files, no
# inline script or event handler, no eval (htmx runs with allowEval false and no indicator
# <style>, see base.html). Style attributes stay allowed: boards set per-cell CSS variables
# (a sliding Domino stone's --dx/--dy); <style> elements are refused. 'self' covers the
# same-origin ws:/wss: room socket.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

SESSION_COOKIE_HTTPONLY = True
# Sessions (only signed-in players have one) are read from the cache and written through to the
# database: a signed-in player's move costs no session query (bench/moves.py, issue 22).
SESSION_ENGINE = "accounts.sessions"  # cached_db that outlives the cache
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own console handler (DEBUG only) printed every django.* line a second time
    # through the root's: its lines go to the root's handler alone.
    "loggers": {"django": {"handlers": [], "level": env_str("LOG_LEVEL", "INFO")}},
}
